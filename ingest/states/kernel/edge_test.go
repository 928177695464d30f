package kernel

import (
	"testing"

	"github.com/tracetui/tracetui/core"
)

// A system call entry cannot happen inside an IRQ handler: an IRQ still
// marked running then lost its exit event, and ends there.
func TestLostIRQExit(t *testing.T) {
	s := newStream().
		switchTo(10, 0, "swapper/0", 0, 0, "bash", 42).
		add(20, 0, "irq_handler_entry", "irq", 5, "name", "eth0").
		add(22, 0, "irq_softirq_entry", "vec", 1).
		add(30, 0, "syscall_entry_read", "fd", 0)
	h := s.run(t, LayoutLTTng27, 100)
	want{
		"CPUs/0/IRQs/5":      {iv(0, 19, null), iv(20, 29, cIRQ), iv(30, 100, null)},
		"CPUs/0/Soft_IRQs/1": {iv(0, 21, null), iv(22, 29, cSoft), iv(30, 100, null)},
		"CPUs/0":             {iv(0, 9, null), iv(10, 19, cUser), iv(20, 29, cIRQ), iv(30, 100, cSyscall)},
		"Threads/42":         {iv(0, 9, null), iv(10, 19, tUser), iv(20, 29, tIntr), iv(30, 100, tSyscall)},
	}.check(t, h)
}

// Before any sched_switch on a CPU its current thread is unknown: the CPU
// still gets its status, and no thread attribute is invented.
func TestUnknownCurrentThread(t *testing.T) {
	s := newStream().
		add(10, 2, "syscall_entry_ioctl", "fd", 3).
		add(20, 2, "irq_handler_entry", "irq", 3, "name", "x").
		add(25, 2, "irq_handler_exit", "irq", 3, "ret", 1).
		add(30, 2, "syscall_exit_ioctl", "ret", 0).
		add(40, -1, "syscall_entry_read", "fd", 3) // no CPU: ignored
	h := s.run(t, LayoutLTTng27, 100)
	want{
		"CPUs/2": {iv(0, 9, null), iv(10, 19, cSyscall), iv(20, 24, cIRQ), iv(25, 29, cSyscall), iv(30, 100, cUser)},
	}.check(t, h)
	absent(t, h, "Threads", "CPUs/2/Current_thread")
}

// A wakeup leaves a running or interrupted thread as it is; pi_setprio
// and sched_migrate_task set Prio and Current_cpu_rq; freeing an unknown
// thread creates nothing.
func TestWakeupPrioMigrate(t *testing.T) {
	wake := func(s *stream, ts core.Time, tid, target int) {
		s.add(ts, 0, "sched_waking", "comm", "bash", "tid", tid, "prio", 20, "target_cpu", target)
	}
	s := newStream().switchTo(10, 0, "swapper/0", 0, 0, "bash", 42)
	wake(s, 15, 42, 0)
	s.add(20, 0, "irq_handler_entry", "irq", 1, "name", "t")
	wake(s, 22, 42, 0)
	s.add(24, 0, "irq_handler_exit", "irq", 1, "ret", 1).
		add(26, 0, "sched_pi_setprio", "comm", "bash", "tid", 42, "oldprio", 20, "newprio", 10).
		add(28, 0, "sched_migrate_task", "comm", "x", "tid", 43, "prio", 20, "orig_cpu", 0, "dest_cpu", 1).
		add(30, 0, "sched_process_free", "comm", "y", "tid", 44, "prio", 20).
		add(32, 0, "sched_migrate_task", "comm", "x", "tid", 43, "prio", 20, "orig_cpu", 1, "dest_cpu", 99999999)
	h := s.run(t, LayoutLTTng27, 100)
	want{
		"Threads/42":                {iv(0, 9, null), iv(10, 19, tUser), iv(20, 23, tIntr), iv(24, 100, tUser)},
		"Threads/42/Prio":           {iv(0, 9, null), iv(10, 25, "20"), iv(26, 100, "10")},
		"Threads/43":                {iv(0, 100, null)},
		"Threads/43/Current_cpu_rq": {iv(0, 27, null), iv(28, 100, "1")},
	}.check(t, h)
	absent(t, h, "Threads/44", "Threads/43/Exec_name")
}

// Trace bytes are untrusted: wrong field kinds, absurd numbers, bad
// UTF-8 and over-long names neither panic nor reach the sink unchecked.
func TestOddFieldValues(t *testing.T) {
	long := make([]byte, 3000)
	for i := range long {
		long[i] = 'a'
	}
	s := newStream().
		add(1, 0, "sched_switch", "prev_comm", 7, "prev_tid", 0, "prev_prio", 20, "prev_state", 0,
			"next_comm", "a\xffb", "next_tid", 42, "next_prio", int64(1)<<40).
		add(2, 0, "sched_process_exec", "filename", string(long), "tid", 42, "old_tid", 42).
		add(3, 0, "irq_handler_entry", "irq", int64(-1)<<50, "name", "x").
		add(4, 0, "irq_handler_entry", "irq", int64(1)<<40, "name", "x").
		add(5, 0, "sched_wakeup", "comm", "z", "tid", int64(1)<<40, "prio", 1, "target_cpu", -5).
		add(6, 70000, "syscall_entry_read", "fd", 1).
		add(7, 0, "sched_process_fork", "parent_comm", "a", "parent_tid", -3, "parent_pid", -3,
			"child_comm", "", "child_tid", 43, "child_pid", int64(1)<<33).
		add(8, 0, "lttng_statedump_process_state", "tid", 0, "pid", 0, "ppid", 0, "name", "s", "status", 2, "cpu", 1<<20)
	h := s.run(t, LayoutLTTng27, 100)
	if v := valueAt(t, h, "Threads/42/Exec_name", 1); v.Str() != "a\uFFFDb" {
		t.Errorf("Exec_name = %q, want the bad byte replaced", v.Str())
	}
	if v := valueAt(t, h, "Threads/42/Exec_name", 2); len(v.Str()) != core.MaxStringLen {
		t.Errorf("Exec_name from a long file name has %d bytes, want %d", len(v.Str()), core.MaxStringLen)
	}
	absent(t, h, "Threads/42/Prio", "Threads/43/PID", "Threads/43/PPID", "CPUs/70000")
}

// Events of classes the analysis does not know cost a slice read and
// change nothing; classes appearing late are resolved when they appear.
func TestUnknownAndLateClasses(t *testing.T) {
	s := newStream().
		add(1, 0, "kmem_kfree", "call_site", 1, "ptr", 2).
		switchTo(2, 0, "swapper/0", 0, 0, "bash", 42).
		add(3, 0, "kmem_kfree", "call_site", 1, "ptr", 2).
		add(4, 0, "syscall_entry_close", "fd", 1)
	h := s.run(t, LayoutLTTng27, 10)
	want{"Threads/42": {iv(0, 1, null), iv(2, 3, tUser), iv(4, 10, tSyscall)}}.check(t, h)
}

// Events out of time order are the sink's error, reported with the event.
func TestSinkErrorIsReported(t *testing.T) {
	s := newStream().
		switchTo(20, 0, "swapper/0", 0, 0, "bash", 42).
		switchTo(10, 0, "bash", 42, 0, "swapper/0", 0)
	h := core.NewMemHistory(0)
	a := New(h, LayoutLTTng27)
	if err := a.Handle(&s.events[0]); err != nil {
		t.Fatal(err)
	}
	if err := a.Handle(&s.events[1]); err == nil {
		t.Fatal("no error for an event out of time order")
	}
	if err := a.Finish(30); err == nil {
		t.Fatal("Finish forgot the error")
	}
}
