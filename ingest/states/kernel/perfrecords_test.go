package kernel

import (
	"testing"

	"github.com/tracetui/tracetui/core"
)

// perfCtx is the thread context perf.data's events carry.
func perfCtx(tid int, kv ...any) []any {
	return append([]any{"context.comm", "", "context.tid", tid, "context.pid", tid}, kv...)
}

// TestPerfDataSideband: synthesized records (context thread 0) name and
// parent the threads that existed; a real FORK makes the child wait for
// a CPU with its parent as waker; CPU-wide switches schedule threads
// (preempted: wait for CPU; else blocked; after an EXIT: null); COMM
// renames.
func TestPerfDataSideband(t *testing.T) {
	s := newStream()
	fork := func(ts core.Time, ctx, pid, ppid, tid, ptid int) {
		s.add(ts, 0, "perf_fork", perfCtx(ctx, "pid", pid, "ppid", ppid, "tid", tid, "ptid", ptid)...)
	}
	comm := func(ts core.Time, pid, tid int, name string, exec int) {
		s.add(ts, 0, "perf_comm", perfCtx(0, "pid", pid, "tid", tid, "comm", name, "exec", exec)...)
	}
	sw := func(ts core.Time, cpu int32, ctx, out, preempt, other int) {
		s.add(ts, cpu, "perf_switch", perfCtx(ctx, "out", out, "preempt", preempt, "next_prev_pid", other, "next_prev_tid", other)...)
	}
	fork(10, 0, 50, 1, 51, 50) // synthesized: thread 51 of process 50
	comm(10, 50, 51, "worker", 0)
	sw(20, 0, 51, 0, 0, 0) // 51 comes in
	fork(30, 51, 52, 50, 52, 51)
	sw(40, 0, 51, 1, 1, 52) // 51 preempted, 52 runs
	comm(45, 52, 52, "ls", 1)
	s.add(50, 0, "perf_exit", perfCtx(52, "pid", 52, "ppid", 50, "tid", 52, "ptid", 51)...)
	sw(60, 0, 52, 1, 0, 51) // 52's last switch: gone
	sw(70, 0, 51, 1, 0, 0)  // 51 sleeps, idle runs
	l := Detect(core.SourceInfo{Format: "perfdata"}, s.classList())
	if l != LayoutPerfData {
		t.Fatalf("Detect = %v, want %v", l, LayoutPerfData)
	}
	h := s.run(t, l, 100)
	want{
		"Threads/51":           {iv(0, 19, null), iv(20, 39, tUser), iv(40, 59, tWaitCPU), iv(60, 69, tUser), iv(70, 100, tBlocked)},
		"Threads/51/PPID":      {iv(0, 9, null), iv(10, 100, "50")},
		"Threads/51/PID":       {iv(0, 9, null), iv(10, 100, "50")},
		"Threads/51/Exec_name": {iv(0, 9, null), iv(10, 100, str("worker"))},
		"Threads/52":           {iv(0, 29, null), iv(30, 39, tWaitCPU), iv(40, 59, tUser), iv(60, 100, null)},
		"Threads/52/PPID":      {iv(0, 29, null), iv(30, 100, "51")},
		"Threads/52/Exec_name": {iv(0, 29, null), iv(30, 44, str("worker")), iv(45, 100, str("ls"))},
		"CPUs/0/Current_thread": {iv(0, 19, null), iv(20, 39, "51"), iv(40, 59, "52"), iv(60, 69, "51"),
			iv(70, 100, "0")},
		"CPUs/0": {iv(0, 19, null), iv(20, 69, cUser), iv(70, 100, cIdle)},
	}.check(t, h)
	absent(t, h, "Threads/51/Waker")
	if _, ok := h.Attributes().Lookup("Threads/52/Waker"); !ok {
		t.Error("the forked thread has no waker")
	}
}

// TestPerfDataSchedIgnoresSwitches: with a sched_switch tracepoint in the
// trace, SWITCH and EXIT records are ignored (prev_state says more): the
// thread that exits runs until its last sched_switch.
func TestPerfDataSchedIgnoresSwitches(t *testing.T) {
	s := newStream()
	s.add(10, 0, "sched_switch", perfCtx(5, "prev_comm", "a", "prev_pid", 5, "prev_prio", 120,
		"prev_state", "X", "next_comm", "b", "next_pid", 6, "next_prio", 120)...)
	s.add(11, 0, "perf_switch", perfCtx(5, "out", 1, "preempt", 0, "next_prev_pid", 6, "next_prev_tid", 6)...)
	s.add(12, 0, "perf_exit", perfCtx(6, "pid", 6, "ppid", 1, "tid", 6, "ptid", 1)...)
	l := Detect(core.SourceInfo{Format: "perfdata"}, s.classList())
	if l != LayoutPerfDataSched {
		t.Fatalf("Detect = %v, want %v", l, LayoutPerfDataSched)
	}
	h := s.run(t, l, 100)
	want{
		"Threads/5":             {iv(0, 100, null)}, // exited at its first switch
		"Threads/6":             {iv(0, 9, null), iv(10, 100, tUser)},
		"CPUs/0/Current_thread": {iv(0, 9, null), iv(10, 100, "6")},
	}.check(t, h)
}
