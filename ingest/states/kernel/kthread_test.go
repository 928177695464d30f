package kernel

import (
	"testing"

	"github.com/tracetui/tracetui/core"
)

// Kernel threads (kthreadd, PID 2, and its children) have no user mode:
// while they hold a CPU they run kernel code, thread and CPU alike (they
// read "running user mode", issue 30 item 10). A user thread, and a
// child of kthreadd that executed a program (a user-mode helper), still
// run in user mode.
func TestKernelThreadsRunInKernelMode(t *testing.T) {
	ctx := func(comm string, tid int, kv ...any) []any {
		return append([]any{"context.comm", comm, "context.tid", tid}, kv...)
	}
	sw := func(s *stream, ts core.Time, prevComm string, prev int, state string, nextComm string, next int) {
		s.add(ts, 0, "sched_switch", ctx(prevComm, prev, "prev_comm", prevComm, "prev_pid", prev, "prev_prio", 120,
			"prev_state", state, "next_comm", nextComm, "next_pid", next, "next_prio", 120)...)
	}
	s := newStream()
	s.add(10, 0, "sched_process_fork", ctx("kthreadd", 2, "comm", "kthreadd", "pid", 2, "child_comm", "kthreadd", "child_pid", 40)...)
	sw(s, 11, "kthreadd", 2, "S", "kworker/0:2", 40)
	sw(s, 12, "kworker/0:2", 40, "I", "cat", 77)
	s.add(13, 0, "sched_process_fork", ctx("cat", 77, "comm", "kthreadd", "pid", 2, "child_comm", "kthreadd", "child_pid", 41)...)
	sw(s, 15, "cat", 77, "S", "kthreadd", 41)
	s.add(16, 0, "sched_process_exec", ctx("kthreadd", 41, "filename", "/sbin/modprobe", "pid", 41, "old_pid", 41)...)
	sw(s, 17, "modprobe", 41, "S", "swapper/0", 0)
	h := s.run(t, LayoutFtrace, 100)
	want{
		"Threads/40": {iv(0, 9, null), iv(10, 10, tWaitCPU), iv(11, 11, tSyscall), iv(12, 100, tBlocked)},
		"Threads/77": {iv(0, 11, null), iv(12, 14, tUser), iv(15, 100, tBlocked)},
		"Threads/41": {iv(0, 12, null), iv(13, 14, tWaitCPU), iv(15, 15, tSyscall), iv(16, 16, tUser), iv(17, 100, tBlocked)},
		"CPUs/0":     {iv(0, 10, null), iv(11, 11, cSyscall), iv(12, 14, cUser), iv(15, 15, cSyscall), iv(16, 16, cUser), iv(17, 100, cIdle)},
	}.check(t, h)
}
