package kernel

import (
	"testing"

	"github.com/tracetui/tracetui/core"
)

// lttng-modules 2.0-2.6 names: sys_<name>, exit_syscall, softirq_*; the
// wakeup's prio (another unit there) is not used.
func TestLayoutLTTng20(t *testing.T) {
	s := newStream().
		switchTo(10, 0, "swapper/0", 0, 0, "bash", 42).
		add(12, 0, "sys_open", "filename", "/etc/passwd", "flags", 0, "mode", 0).
		add(14, 0, "exit_syscall", "ret", 3).
		add(16, 0, "sys_unknown", "id", 999).
		add(18, 0, "exit_syscall", "ret", 0).
		add(20, 0, "softirq_raise", "vec", 1).
		add(22, 0, "softirq_entry", "vec", 1).
		add(24, 0, "softirq_exit", "vec", 1).
		add(26, 0, "sched_wakeup", "comm", "worker", "tid", 43, "prio", 120, "success", 1, "target_cpu", 0).
		add(28, 0, "compat_sys_read", "fd", 0)
	if got := Detect(core.SourceInfo{Format: "ctf", Domain: "kernel"}, s.classList()); got != LayoutLTTng20 {
		t.Fatalf("Detect = %v, want %v", got, LayoutLTTng20)
	}
	h := s.run(t, LayoutLTTng20, 100)
	want{
		"Threads/42": {iv(0, 9, null), iv(10, 11, tUser), iv(12, 13, tSyscall), iv(14, 15, tUser),
			iv(16, 17, tSyscall), iv(18, 21, tUser), iv(22, 23, tIntr), iv(24, 27, tUser), iv(28, 100, tSyscall)},
		"Threads/42/System_call": {iv(0, 11, null), iv(12, 13, str("open")), iv(14, 15, null),
			iv(16, 17, str("syscall#999")), iv(18, 27, null), iv(28, 100, str("read"))},
		"CPUs/0/Soft_IRQs/1":        {iv(0, 19, null), iv(20, 21, cRaised), iv(22, 23, cSoft), iv(24, 100, null)},
		"Threads/43":                {iv(0, 25, null), iv(26, 100, tWaitCPU)},
		"Threads/43/Exec_name":      {iv(0, 25, null), iv(26, 100, str("worker"))},
		"Threads/43/Current_cpu_rq": {iv(0, 25, null), iv(26, 100, "0")},
	}.check(t, h)
	absent(t, h, "Threads/43/Prio")
}

// perf data converted to CTF: prefixed names, kernel field names
// (prev_pid...), perf_tid/perf_pid telling the running thread, raw and
// named system call events, prev_state 1024 (TASK_STATE_MAX on 3.x
// kernels: preempted).
func TestLayoutPerf(t *testing.T) {
	perf := func(tid int) []any { return []any{"perf_ip", 0, "perf_tid", tid, "perf_pid", tid, "perf_cpu", 0} }
	with := func(ctx []any, kv ...any) []any { return append(append([]any{}, ctx...), kv...) }
	sw := func(s *stream, ts core.Time, cpu int32, ctx int, prevComm string, prev, state int, nextComm string, next int) {
		s.add(ts, cpu, "sched:sched_switch", with(perf(ctx), "prev_comm", prevComm, "prev_pid", prev, "prev_prio", 120,
			"prev_state", state, "next_comm", nextComm, "next_pid", next, "next_prio", 120)...)
	}
	s := newStream()
	s.add(5, 3, "sched:sched_stat_runtime", with(perf(1832), "comm", "perf", "pid", 1832, "runtime", 100)...)
	sw(s, 6, 3, 1832, "perf", 1832, 1, "swapper/3", 0)
	s.add(7, 0, "sched:sched_wakeup", with(perf(0), "comm", "perf", "pid", 1834, "prio", 120, "success", 1, "target_cpu", 0)...)
	sw(s, 8, 0, 0, "swapper/0", 0, 0, "perf", 1834)
	s.add(9, 0, "raw_syscalls:sys_enter", with(perf(1834), "id", 59)...)
	s.add(10, 0, "syscalls:sys_enter_execve", with(perf(1834), "filename", "/usr/bin/taskset")...)
	s.add(11, 0, "sched:sched_process_exec", with(perf(1834), "filename", "/usr/bin/taskset", "pid", 1834, "old_pid", 1834)...)
	s.add(12, 0, "raw_syscalls:sys_exit", with(perf(1834), "id", 59, "ret", 0)...)
	s.add(13, 0, "syscalls:sys_exit_execve", with(perf(1834), "ret", 0)...)
	sw(s, 14, 0, 1834, "taskset", 1834, 1024, "swapper/0", 0)
	s.add(15, 1, "sched:sched_process_fork", with(perf(1834), "parent_comm", "taskset", "parent_pid", 1834,
		"child_comm", "taskset", "child_pid", 1835)...)
	if got := Detect(core.SourceInfo{Format: "ctf", Domain: "kernel"}, s.classList()); got != LayoutPerf {
		t.Fatalf("Detect = %v, want %v", got, LayoutPerf)
	}
	h := s.run(t, LayoutPerf, 100)
	want{
		// CPU 3's running thread is learnt from perf_tid at 5.
		"CPUs/3/Current_thread": {iv(0, 4, null), iv(5, 5, "1832"), iv(6, 100, "0")},
		"CPUs/3":                {iv(0, 5, null), iv(6, 100, cIdle)},
		"Threads/1832":          {iv(0, 5, null), iv(6, 100, tBlocked)},
		"Threads/1832/PID":      {iv(0, 4, null), iv(5, 100, "1832")},
		// CPU 0 runs the idle thread (perf_tid 0) at 7.
		"CPUs/0/Current_thread": {iv(0, 6, null), iv(7, 7, "0"), iv(8, 13, "1834"), iv(14, 100, "0")},
		"CPUs/0":                {iv(0, 6, null), iv(7, 7, cIdle), iv(8, 8, cUser), iv(9, 11, cSyscall), iv(12, 13, cUser), iv(14, 100, cIdle)},
		// Preempted at 14; at 15 perf_tid says it forks on CPU 1: it runs
		// there (in user mode, its last system call having returned).
		"Threads/1834":          {iv(0, 6, null), iv(7, 7, tWaitCPU), iv(8, 8, tUser), iv(9, 11, tSyscall), iv(12, 13, tUser), iv(14, 14, tWaitCPU), iv(15, 100, tUser)},
		"CPUs/1/Current_thread": {iv(0, 14, null), iv(15, 100, "1834")},
		"CPUs/1":                {iv(0, 14, null), iv(15, 100, cUser)},
		// The raw entry names the call by number until the named one.
		"Threads/1834/System_call": {iv(0, 8, null), iv(9, 9, str("syscall#59")), iv(10, 11, str("execve")), iv(12, 100, null)},
		"Threads/1834/Exec_name":   {iv(0, 6, null), iv(7, 10, str("perf")), iv(11, 100, str("taskset"))},
		"Threads/1834/PID":         {iv(0, 8, null), iv(9, 100, "1834")},
		"Threads/1834/Prio":        {iv(0, 6, null), iv(7, 100, "120")},
		"Threads/1835/PPID":        {iv(0, 14, null), iv(15, 100, "1834")},
	}.check(t, h)
	absent(t, h, "Threads/1835/PID") // perf's child_pid is a thread id
}

// ftrace text: no subsystem, prev_state letters, the running thread from
// the line prefix (context.tid).
func TestLayoutFtrace(t *testing.T) {
	ctx := func(comm string, tid int, kv ...any) []any {
		return append([]any{"context.comm", comm, "context.tid", tid}, kv...)
	}
	sw := func(s *stream, ts core.Time, prevComm string, prev int, state string, nextComm string, next int) {
		s.add(ts, 0, "sched_switch", ctx(prevComm, prev, "prev_comm", prevComm, "prev_pid", prev, "prev_prio", 120,
			"prev_state", state, "next_comm", nextComm, "next_pid", next, "next_prio", 120)...)
	}
	s := newStream()
	s.add(10, 0, "sys_enter_openat", ctx("cat", 77, "dfd", -100, "filename", "/etc/hosts")...)
	s.add(11, 0, "sys_exit_openat", ctx("cat", 77, "ret", 3)...)
	s.add(12, 0, "sys_enter", ctx("cat", 77, "NR", 3)...)
	s.add(13, 0, "sys_exit", ctx("cat", 77, "NR", 3, "ret", 0)...)
	sw(s, 14, "cat", 77, "R+", "kworker/0:1", 5) // preempted
	sw(s, 15, "kworker/0:1", 5, "I", "cat", 77)  // idle kernel thread: blocked
	sw(s, 16, "cat", 77, "S", "a", 6)
	sw(s, 17, "a", 6, "T", "b", 7) // stopped: wait unknown
	sw(s, 18, "b", 7, "X", "c", 8) // EXIT_DEAD: exited, null (issue 13)
	sw(s, 19, "c", 8, "D|K", "swapper/0", 0)
	s.add(20, 1, "sched_process_fork", ctx("sh", 9, "comm", "sh", "pid", 9, "child_comm", "sh", "child_pid", 10)...)
	s.add(21, 1, "sched_wakeup", ctx("sh", 9, "comm", "cat", "pid", 77, "prio", 120, "target_cpu", 1)...)
	s.add(22, 1, "sched_process_free", ctx("sh", 9, "comm", "b", "pid", 7, "prio", 120)...)
	if got := Detect(core.SourceInfo{Format: "ftrace"}, nil); got != LayoutFtrace {
		t.Fatalf("Detect = %v, want %v", got, LayoutFtrace)
	}
	h := s.run(t, LayoutFtrace, 100)
	want{
		"Threads/77": {iv(0, 9, null), iv(10, 10, tSyscall), iv(11, 11, tUser), iv(12, 12, tSyscall), iv(13, 13, tUser),
			iv(14, 14, tWaitCPU), iv(15, 15, tUser), iv(16, 20, tBlocked), iv(21, 100, tWaitCPU)},
		"Threads/77/System_call": {iv(0, 9, null), iv(10, 10, str("openat")), iv(11, 11, null), iv(12, 12, str("syscall#3")), iv(13, 100, null)},
		"Threads/5":              {iv(0, 13, null), iv(14, 14, tUser), iv(15, 100, tBlocked)},
		"Threads/6":              {iv(0, 15, null), iv(16, 16, tUser), iv(17, 100, tWaitUnk)},
		"Threads/7":              {iv(0, 16, null), iv(17, 17, tUser), iv(18, 100, null)},
		"Threads/7/Exec_name":    {iv(0, 16, null), iv(17, 21, str("b")), iv(22, 100, null)},
		"Threads/8":              {iv(0, 17, null), iv(18, 18, tUser), iv(19, 100, tBlocked)},
		"CPUs/0/Current_thread": {iv(0, 9, null), iv(10, 13, "77"), iv(14, 14, "5"), iv(15, 15, "77"), iv(16, 16, "6"),
			iv(17, 17, "7"), iv(18, 18, "8"), iv(19, 100, "0")},
		"CPUs/0":                {iv(0, 9, null), iv(10, 10, cSyscall), iv(11, 11, cUser), iv(12, 12, cSyscall), iv(13, 18, cUser), iv(19, 100, cIdle)},
		"CPUs/1/Current_thread": {iv(0, 19, null), iv(20, 100, "9")},
		"Threads/10/PPID":       {iv(0, 19, null), iv(20, 100, "9")},
		"Threads/10/Exec_name":  {iv(0, 19, null), iv(20, 100, str("sh"))},
	}.check(t, h)
	absent(t, h, "Threads/10/PID", "Threads/9/PID")
}

func TestDetect(t *testing.T) {
	classes := func(names ...string) []*core.EventClass {
		var out []*core.EventClass
		for i, n := range names {
			out = append(out, &core.EventClass{ID: i, Name: n})
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		info    core.SourceInfo
		classes []*core.EventClass
		want    *Layout
	}{
		{"lttng 2.7", core.SourceInfo{Format: "ctf"}, classes("sched_switch", "syscall_entry_read", "syscall_exit_read"), LayoutLTTng27},
		{"lttng 2.7 no syscalls", core.SourceInfo{Format: "ctf"}, classes("sched_switch", "sched_waking"), LayoutLTTng27},
		{"lttng 2.5", core.SourceInfo{Format: "ctf"}, classes("sched_switch", "sys_read", "exit_syscall"), LayoutLTTng20},
		{"sched only", core.SourceInfo{Format: "ctf"}, classes("kmem_kfree", "sched_switch"), LayoutLTTng27},
		{"perf", core.SourceInfo{Format: "ctf"}, classes("sched:sched_stat_runtime", "sched:sched_switch"), LayoutPerf},
		{"ftrace", core.SourceInfo{Format: "ftrace"}, nil, LayoutFtrace},
		{"ust", core.SourceInfo{Format: "ctf", Domain: "ust"}, classes("lttng_ust_cyg_profile:func_entry", "lttng_ust_statedump:start"), nil},
		{"chrome", core.SourceInfo{Format: "chrome"}, classes("X", "B"), nil},
	} {
		if got := Detect(tc.info, tc.classes); got != tc.want {
			t.Errorf("%s: Detect = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// An ftrace capture of system calls only: the line prefix tells which
// thread runs each event, and a change of thread without sched_switch
// leaves the previous one waiting for an unknown reason.
func TestFtraceWithoutScheduling(t *testing.T) {
	s := newStream()
	sys := func(ts core.Time, name string, tid int) {
		s.add(ts, 0, name, "context.comm", "x", "context.tid", tid, "fd", 1)
	}
	sys(10, "sys_enter_read", 5)
	sys(12, "sys_exit_read", 5)
	sys(14, "sys_enter_write", 7)
	s.add(16, 0, "irq_handler_entry", "context.comm", "x", "context.tid", 7, "irq", 3)
	s.add(17, 0, "irq_handler_exit", "context.comm", "x", "context.tid", 7, "irq", 3)
	sys(20, "sys_exit_write", 5) // 5 runs again, 7 left inside write()
	s.add(30, 0, "kmem_kfree", "context.comm", "<idle>", "context.tid", 0, "ptr", 1)
	h := s.run(t, LayoutFtrace, 100)
	want{
		"Threads/5": {iv(0, 9, null), iv(10, 11, tSyscall), iv(12, 13, tUser), iv(14, 19, tWaitUnk),
			iv(20, 29, tUser), iv(30, 100, tWaitUnk)},
		"Threads/7":             {iv(0, 13, null), iv(14, 15, tSyscall), iv(16, 16, tIntr), iv(17, 19, tSyscall), iv(20, 100, tWaitUnk)},
		"Threads/7/System_call": {iv(0, 13, null), iv(14, 100, str("write"))},
		"CPUs/0": {iv(0, 9, null), iv(10, 11, cSyscall), iv(12, 13, cUser), iv(14, 15, cSyscall), iv(16, 16, cIRQ),
			iv(17, 19, cSyscall), iv(20, 29, cUser), iv(30, 100, cIdle)},
		"CPUs/0/Current_thread": {iv(0, 9, null), iv(10, 13, "5"), iv(14, 19, "7"), iv(20, 29, "5"), iv(30, 100, "0")},
	}.check(t, h)
}
