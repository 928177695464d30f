package kernel

import (
	"testing"

	"github.com/tracetui/tracetui/core"
)

const null = "null"

// A thread runs, enters a system call, blocks in it, is woken onto the
// other CPU and returns from the call there.
func TestSchedSwitchAndSyscalls(t *testing.T) {
	s := newStream().
		switchTo(10, 0, "swapper/0", 0, 0, "bash", 42).
		add(20, 0, "syscall_entry_read", "fd", 3).
		switchTo(30, 0, "bash", 42, 1, "swapper/0", 0). // TASK_INTERRUPTIBLE: blocked
		add(40, 1, "sched_wakeup", "comm", "bash", "tid", 42, "prio", 20, "target_cpu", 1).
		switchTo(50, 1, "swapper/1", 0, 0, "bash", 42).
		add(60, 1, "syscall_exit_read", "ret", 0)
	h := s.run(t, LayoutLTTng27, 100)
	want{
		// Running from 10, in read() from 20, blocked at 30, woken at 40,
		// back on CPU 1 at 50 still inside read(), user mode at 60.
		"Threads/42": {iv(0, 9, null), iv(10, 19, tUser), iv(20, 29, tSyscall), iv(30, 39, tBlocked),
			iv(40, 49, tWaitCPU), iv(50, 59, tSyscall), iv(60, 100, tUser)},
		"Threads/42/System_call":    {iv(0, 19, null), iv(20, 59, str("read")), iv(60, 100, null)},
		"Threads/42/Exec_name":      {iv(0, 9, null), iv(10, 100, str("bash"))},
		"Threads/42/Prio":           {iv(0, 9, null), iv(10, 100, "20")},
		"Threads/42/Current_cpu_rq": {iv(0, 9, null), iv(10, 29, "0"), iv(30, 39, null), iv(40, 100, "1")},
		// The idle thread of CPU 0 was preempted (prev_state 0) at 10,
		// runs again from 30.
		"Threads/0_0":                {iv(0, 9, null), iv(10, 29, tWaitCPU), iv(30, 100, tUser)},
		"Threads/0_0/Exec_name":      {iv(0, 9, null), iv(10, 100, str("swapper/0"))},
		"Threads/0_0/Current_cpu_rq": {iv(0, 29, null), iv(30, 100, "0")},
		"Threads/0_1":                {iv(0, 49, null), iv(50, 100, tWaitCPU)},
		"CPUs/0":                     {iv(0, 9, null), iv(10, 19, cUser), iv(20, 29, cSyscall), iv(30, 100, cIdle)},
		"CPUs/0/Current_thread":      {iv(0, 9, null), iv(10, 29, "42"), iv(30, 100, "0")},
		"CPUs/1":                     {iv(0, 49, null), iv(50, 59, cSyscall), iv(60, 100, cUser)},
		"CPUs/1/Current_thread":      {iv(0, 49, null), iv(50, 100, "42")},
		"Threads":                    {iv(0, 100, null)},
		"CPUs":                       {iv(0, 100, null)},
	}.check(t, h)
	// Nothing said the runnable idle thread of CPU 1 left a run queue, nor
	// anything about PIDs: those attributes are never created.
	absent(t, h, "Threads/0_1/Current_cpu_rq", "Threads/42/PID", "Threads/42/PPID", "Threads/0_0/System_call", "CPUs/0/IRQs")
}

// IRQs and soft IRQs interrupt the running thread; a soft IRQ raised
// while it runs is shown raised after its exit; an IRQ nested in a soft
// IRQ leaves the thread interrupted until the soft IRQ ends.
func TestInterrupts(t *testing.T) {
	s := newStream().
		switchTo(10, 0, "swapper/0", 0, 0, "bash", 42).
		add(20, 0, "irq_handler_entry", "irq", 5, "name", "eth0").
		add(22, 0, "irq_softirq_raise", "vec", 3).
		add(25, 0, "irq_handler_exit", "irq", 5, "ret", 1).
		add(26, 0, "irq_softirq_entry", "vec", 3).
		add(28, 0, "irq_softirq_raise", "vec", 3).
		add(30, 0, "irq_softirq_exit", "vec", 3).
		add(32, 0, "irq_softirq_entry", "vec", 3).
		add(34, 0, "irq_handler_entry", "irq", 7, "name", "timer").
		add(36, 0, "irq_handler_exit", "irq", 7, "ret", 1).
		add(38, 0, "irq_softirq_exit", "vec", 3).
		add(40, 0, "irq_handler_exit", "irq", 9, "ret", 1) // exit without entry: harmless
	h := s.run(t, LayoutLTTng27, 100)
	want{
		"Threads/42": {iv(0, 9, null), iv(10, 19, tUser), iv(20, 24, tIntr), iv(25, 25, tUser),
			iv(26, 29, tIntr), iv(30, 31, tUser), iv(32, 37, tIntr), iv(38, 100, tUser)},
		"CPUs/0": {iv(0, 9, null), iv(10, 19, cUser), iv(20, 24, cIRQ), iv(25, 25, cUser), iv(26, 29, cSoft),
			iv(30, 31, cUser), iv(32, 33, cSoft), iv(34, 35, cIRQ), iv(36, 37, cSoft), iv(38, 100, cUser)},
		"CPUs/0/IRQs":   {iv(0, 100, null)},
		"CPUs/0/IRQs/5": {iv(0, 19, null), iv(20, 24, cIRQ), iv(25, 100, null)},
		"CPUs/0/IRQs/7": {iv(0, 33, null), iv(34, 35, cIRQ), iv(36, 100, null)},
		// Raised at 22, runs 26-29 (raised again at 28, so raised after
		// its exit at 30), runs 32-37.
		"CPUs/0/Soft_IRQs/3": {iv(0, 21, null), iv(22, 25, cRaised), iv(26, 29, cSoft), iv(30, 31, cRaised),
			iv(32, 37, cSoft), iv(38, 100, null)},
	}.check(t, h)
	absent(t, h, "CPUs/0/IRQs/9")
}

// Fork, exec, exit and free of a child process, with the name an exec
// gives kept over the kernel's 15-byte truncation of it.
func TestProcessLifecycle(t *testing.T) {
	const long = "some-long-program-name"
	trunc := long[:15]
	s := newStream().
		switchTo(10, 0, "swapper/0", 0, 0, "bash", 100).
		add(12, 0, "syscall_entry_clone", "clone_flags", 0).
		add(14, 0, "sched_process_fork", "parent_comm", "bash", "parent_tid", 100, "parent_pid", 100,
			"child_comm", "bash", "child_tid", 101, "child_pid", 101).
		add(16, 0, "sched_wakeup_new", "comm", "bash", "tid", 101, "prio", 20, "target_cpu", 1).
		add(18, 0, "syscall_exit_clone", "ret", 101).
		switchTo(20, 1, "swapper/1", 0, 0, "bash", 101).
		add(22, 1, "syscall_exit_clone", "ret", 0). // the child returns from clone too
		add(24, 1, "syscall_entry_execve", "filename", "/usr/bin/"+long).
		add(26, 1, "sched_process_exec", "filename", "/usr/bin/"+long, "tid", 101, "old_tid", 101).
		add(28, 1, "syscall_exit_execve", "ret", 0).
		switchTo(30, 1, trunc, 101, 0, "swapper/1", 0). // preempted
		switchTo(40, 1, "swapper/1", 0, 0, trunc, 101).
		add(42, 1, "syscall_entry_exit_group", "error_code", 0).
		add(44, 1, "sched_process_exit", "comm", trunc, "tid", 101, "prio", 20).
		switchTo(46, 1, trunc, 101, 64, "swapper/1", 0). // TASK_DEAD
		add(50, 0, "sched_process_free", "comm", trunc, "tid", 101, "prio", 20)
	h := s.run(t, LayoutLTTng27, 100)
	want{
		// Waits for a CPU from its fork (the wakeup_new keeps that), runs
		// inside clone() (copied from the parent) at 20, user mode at 22,
		// execve 24-27, preempted at 30, runs at 40, exit_group at 42,
		// dead (null) at 46.
		"Threads/101": {iv(0, 13, null), iv(14, 19, tWaitCPU), iv(20, 21, tSyscall), iv(22, 23, tUser),
			iv(24, 27, tSyscall), iv(28, 29, tUser), iv(30, 39, tWaitCPU), iv(40, 41, tUser),
			iv(42, 45, tSyscall), iv(46, 100, null)},
		"Threads/101/System_call": {iv(0, 13, null), iv(14, 21, str("clone")), iv(22, 23, null),
			iv(24, 27, str("execve")), iv(28, 41, null), iv(42, 49, str("exit_group")), iv(50, 100, null)},
		"Threads/101/Exec_name":      {iv(0, 13, null), iv(14, 25, str("bash")), iv(26, 49, str(long)), iv(50, 100, null)},
		"Threads/101/PPID":           {iv(0, 13, null), iv(14, 49, "100"), iv(50, 100, null)},
		"Threads/101/PID":            {iv(0, 13, null), iv(14, 49, "101"), iv(50, 100, null)},
		"Threads/101/Prio":           {iv(0, 15, null), iv(16, 49, "20"), iv(50, 100, null)},
		"Threads/101/Current_cpu_rq": {iv(0, 15, null), iv(16, 45, "1"), iv(46, 100, null)},
		"Threads/100/System_call":    {iv(0, 11, null), iv(12, 17, str("clone")), iv(18, 100, null)},
		"Threads/100/PID":            {iv(0, 13, null), iv(14, 100, "100")},
		"CPUs/1": {iv(0, 19, null), iv(20, 21, cSyscall), iv(22, 23, cUser), iv(24, 27, cSyscall),
			iv(28, 29, cUser), iv(30, 39, cIdle), iv(40, 41, cUser), iv(42, 45, cSyscall), iv(46, 100, cIdle)},
	}.check(t, h)
	absent(t, h, "Threads/100/PPID")
}

// The statedump fills what events have not told, and nothing else.
func TestStatedump(t *testing.T) {
	dump := func(s *stream, ts int, tid, pid, ppid int, name string, status int) {
		s.add(core.Time(ts), 0, "lttng_statedump_process_state", "tid", tid, "vtid", tid, "pid", pid, "vpid", pid,
			"ppid", ppid, "vppid", ppid, "name", name, "type", 0, "mode", 5, "submode", 0, "status", status, "cpu", 0)
	}
	s := newStream().switchTo(3, 1, "swapper/1", 0, 0, "bash", 42)
	dump(s, 5, 200, 200, 1, "daemon", 5)        // LTTNG_WAIT
	dump(s, 6, 201, 200, 1, "daemon-worker", 2) // LTTNG_WAIT_CPU, a thread of 200
	dump(s, 7, 0, 0, 0, "swapper/0", 6)         // LTTNG_RUN: unknown
	dump(s, 8, 42, 42, 1, "zsh", 5)             // already known from the switch
	h := s.run(t, LayoutLTTng27, 100)
	want{
		"Threads/200":           {iv(0, 4, null), iv(5, 100, tWaitUnk)},
		"Threads/200/PID":       {iv(0, 4, null), iv(5, 100, "200")},
		"Threads/200/PPID":      {iv(0, 4, null), iv(5, 100, "1")},
		"Threads/200/Exec_name": {iv(0, 4, null), iv(5, 100, str("daemon"))},
		"Threads/201":           {iv(0, 5, null), iv(6, 100, tWaitCPU)},
		"Threads/201/PPID":      {iv(0, 5, null), iv(6, 100, "200")}, // a thread: its leader
		"Threads/201/PID":       {iv(0, 5, null), iv(6, 100, "200")},
		"Threads/0_0":           {iv(0, 6, null), iv(7, 100, tUnknown)},
		"Threads/42":            {iv(0, 2, null), iv(3, 100, tUser)},
		"Threads/42/Exec_name":  {iv(0, 2, null), iv(3, 100, str("bash"))},
		"Threads/42/PPID":       {iv(0, 7, null), iv(8, 100, "1")},
	}.check(t, h)
}
