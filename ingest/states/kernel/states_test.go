package kernel

import (
	"testing"

	"github.com/tracetui/tracetui/core"
)

// Kernels 4.1-4.13 or TASK_STATE_MAX (2048, then 4096) into a preempted
// task's prev_state; Trace Compass masks it: the task waits for a CPU and
// stays on its run queue. EXIT_DEAD (16, what kernels >= 4.14 report for
// a task's last switch) means exited: null, as TASK_DEAD (64) does, while
// EXIT_ZOMBIE (32) stays a wait state (issue 13).
func TestPrevStateBits(t *testing.T) {
	s := newStream().
		switchTo(10, 0, "swapper/0", 0, 0, "a", 1).
		switchTo(20, 0, "a", 1, 2048, "b", 2).
		switchTo(30, 0, "b", 2, 4096|1, "c", 3). // preempted bit with a sleep: blocked
		switchTo(40, 0, "c", 3, 16, "d", 4).
		switchTo(50, 0, "d", 4, 32, "e", 5).
		switchTo(60, 0, "e", 5, 2048|64, "swapper/0", 0)
	h := s.run(t, LayoutLTTng27, 100)
	want{
		"Threads/1":                {iv(0, 9, null), iv(10, 19, tUser), iv(20, 100, tWaitCPU)},
		"Threads/1/Current_cpu_rq": {iv(0, 9, null), iv(10, 100, "0")},
		"Threads/2":                {iv(0, 19, null), iv(20, 29, tUser), iv(30, 100, tBlocked)},
		"Threads/3":                {iv(0, 29, null), iv(30, 39, tUser), iv(40, 100, null)},
		"Threads/3/Current_cpu_rq": {iv(0, 29, null), iv(30, 39, "0"), iv(40, 100, null)},
		"Threads/4":                {iv(0, 39, null), iv(40, 49, tUser), iv(50, 100, tWaitUnk)},
		"Threads/5":                {iv(0, 49, null), iv(50, 59, tUser), iv(60, 100, null)},
	}.check(t, h)
}

// A thread seen running on a CPU without a sched_switch to it (a lost or
// unrecorded switch) takes the CPU's run queue, and the thread assumed
// switched out leaves it: nothing says where it went (issue 13).
func TestLostSwitchRunQueue(t *testing.T) {
	ctx := func(tid int, kv ...any) []any { return append([]any{"context.comm", "x", "context.tid", tid}, kv...) }
	s := newStream()
	s.add(10, 0, "sched_switch", ctx(0, "prev_comm", "swapper/0", "prev_pid", 0, "prev_prio", 120,
		"prev_state", "R", "next_comm", "a", "next_pid", 7, "next_prio", 120)...)
	s.add(20, 0, "sys_enter_read", ctx(8, "fd", 0)...) // 8 runs: the switch 7 -> 8 was lost
	s.add(30, 1, "sys_enter_read", ctx(7, "fd", 0)...) // 7 shows up on CPU 1
	h := s.run(t, LayoutFtrace, 100)
	want{
		"Threads/7":                {iv(0, 9, null), iv(10, 19, tUser), iv(20, 29, tWaitUnk), iv(30, 100, tSyscall)},
		"Threads/7/Current_cpu_rq": {iv(0, 9, null), iv(10, 19, "0"), iv(20, 29, null), iv(30, 100, "1")},
		"Threads/8/Current_cpu_rq": {iv(0, 19, null), iv(20, 100, "0")},
	}.check(t, h)
}

// Raw system call entries are named from the architecture's table;
// numbers it lacks, or an analysis without a table, keep "syscall#<n>".
func TestRawSyscallNames(t *testing.T) {
	ctx := func(kv ...any) []any { return append([]any{"context.comm", "cat", "context.tid", 77}, kv...) }
	s := newStream()
	s.add(10, 0, "sys_enter", ctx("NR", 257)...)
	s.add(11, 0, "sys_exit", ctx("NR", 257, "ret", 3)...)
	s.add(12, 0, "sys_enter", ctx("NR", 99999)...)
	s.add(13, 0, "sys_exit", ctx("NR", 99999, "ret", -38)...)
	s.arch = "x86_64"
	h := s.run(t, LayoutFtrace, 100)
	if err := New(h, LayoutFtrace).SetArch("vax"); err == nil {
		t.Fatal("SetArch(vax) succeeded")
	}
	want{"Threads/77/System_call": {iv(0, 9, null), iv(10, 10, str("openat")), iv(11, 11, null), iv(12, 12, str("syscall#99999")), iv(13, 100, null)}}.check(t, h)
}

// A failed call's return value is System_call_error from its exit to the
// next call's entry; successes write nothing, and two failures with the
// same errno stay two intervals.
func TestSyscallError(t *testing.T) {
	s := newStream().switchTo(1, 0, "swapper/0", 0, 0, "cat", 7)
	for i, ret := range []int{-2, -2, 0, 3, -1225396224} {
		ts := core.Time(10 + 10*i)
		s.add(ts, 0, "syscall_entry_openat", "filename", "x")
		s.add(ts+5, 0, "syscall_exit_openat", "ret", ret)
	}
	h := s.run(t, LayoutLTTng27, 100)
	want{"Threads/7/System_call_error": {iv(0, 14, null), iv(15, 19, "-2"), iv(20, 24, null), iv(25, 29, "-2"), iv(30, 100, null)}}.check(t, h)
}
