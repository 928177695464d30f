package kernel

import (
	"testing"

	"github.com/tracetui/tracetui/core"
)

// TestProcessIDsFromCalls: without tgids in the trace (trace.dat, perf),
// exec makes the thread its process's leader, and the call that created a
// child says whether it is a thread of its parent's process (clone with
// CLONE_THREAD, raw or named) or a process of its own (clone without it,
// fork, or task_newtask's flags); clone3 without task_newtask and a
// thread parent without a known PID leave it unknown.
func TestProcessIDsFromCalls(t *testing.T) {
	ctx := func(comm string, tid int, kv ...any) []any {
		return append([]any{"context.comm", comm, "context.tid", tid}, kv...)
	}
	s := newStream()
	s.arch = "x86_64" // clone 56, fork 57, clone3 435
	now := core.Time(1)
	ev := func(name string, kv ...any) {
		s.add(now, 0, name, ctx("go", 100, kv...)...)
		now++
	}
	call := func(nr int, args string, child int) {
		ev("sys_enter", "NR", nr, "args", args)
		ev("sched_process_fork", "comm", "go", "pid", 100, "child_comm", "go", "child_pid", child)
		ev("sys_exit", "NR", nr, "ret", child)
	}
	call(56, "50f00, 7f0000000000, 0, 0, 0, 0", 99)                                 // a thread, the parent's PID not yet known: t 1..3
	ev("sched_process_exec", "filename", "/usr/bin/go", "pid", 100, "old_pid", 100) // t 4
	call(56, "50f00, 7f0000000000, 0, 0, 0, 0", 101)                                // CLONE_THREAD: t 5..7
	call(56, "1200011, 0, 0, 7f0000000a10, 0, 0", 102)                              // a process: t 8..10
	call(57, "0, 0, 0, 0, 0, 0", 103)                                               // fork: t 11..13
	call(435, "7ffd00000000, 58, 0, 0, 0, 0", 104)                                  // clone3: flags in memory, t 14..16
	ev("sys_enter_clone", "clone_flags", 0x10f00, "newsp", 0)                       // t 17
	ev("sched_process_fork", "comm", "go", "pid", 100, "child_comm", "go", "child_pid", 105)
	ev("sys_exit_clone", "ret", 105)
	ev("sched_process_fork", "comm", "go", "pid", 100, "child_comm", "go", "child_pid", 106) // after the call: t 20
	ev("sys_enter", "NR", 435, "args", "7ffd00000000, 58, 0, 0, 0, 0")                       // clone3 with task_newtask: t 21
	ev("task_newtask", "pid", 107, "comm", "go", "clone_flags", 0x3d0f00, "oom_score_adj", 0)
	ev("sched_process_fork", "comm", "go", "pid", 100, "child_comm", "go", "child_pid", 107)
	ev("sys_exit", "NR", 435, "ret", 107)
	h := s.run(t, LayoutFtrace, 100)
	want{
		"Threads/100/PID": {iv(0, 3, null), iv(4, 100, "100")},
		"Threads/101/PID": {iv(0, 5, null), iv(6, 100, "100")},
		"Threads/102/PID": {iv(0, 8, null), iv(9, 100, "102")},
		"Threads/103/PID": {iv(0, 11, null), iv(12, 100, "103")},
		"Threads/105/PID": {iv(0, 17, null), iv(18, 100, "100")},
		"Threads/107/PID": {iv(0, 22, null), iv(23, 100, "100")},
	}.check(t, h)
	absent(t, h, "Threads/99/PID", "Threads/104/PID", "Threads/106/PID")
}
