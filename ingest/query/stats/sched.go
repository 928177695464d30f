package stats

import (
	"cmp"
	"slices"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/states/kernel/kstats"
)

// schedBatch measures wake-up to switch-in, for the threads of a batch:
// a wait-for-CPU interval entered from anything but running, ended by
// running. A wait beside another wait for a CPU ran at the instant
// between (kstats.RanNextTo).
func (q *query) schedBatch(rep *Report, a *accumulators, batch []threadKeys) {
	for i := range batch {
		if q.cancelled(i) {
			return
		}
		var run schedRun
		if !q.schedRow(a, &batch[i], q.row(batch[i].status), &run) {
			return
		}
		q.schedEnd(rep, a, &batch[i], &run)
	}
}

// schedRun is one thread's wake-up latency while its status row is gone
// through, whole or a window of time at a time.
type schedRun struct {
	s     Stats
	name  string          // made at the thread's first wait
	carry []core.Interval // the last two intervals of the windows so far
}

// schedWindow goes through the status row of a window of time (win) of
// a thread: the intervals that start in it (the first window: before
// it too; the last: after it too), each judged with its neighbours (the
// last two of the windows before are carried over).
func (q *query) schedWindow(a *accumulators, th *threadKeys, win *window, run *schedRun) bool {
	r := q.row(th.status)
	for len(r) > 0 && r[0].Start < win.from && win.i > 0 {
		r = r[1:]
	}
	for len(r) > 0 && r[len(r)-1].Start >= win.to && win.i < win.n-1 {
		r = r[:len(r)-1]
	}
	joint := append(slices.Clone(run.carry), r[:min(2, len(r))]...)
	if !q.schedRow(a, th, joint, run) || !q.schedRow(a, th, r, run) {
		return false
	}
	all := append(run.carry, r[max(0, len(r)-2):]...)
	run.carry = slices.Clone(all[max(0, len(all)-2):])
	return true
}

// schedRow sums the waits of r but its first and last intervals (each
// wait is judged with its neighbours); false when Compute is cancelled.
func (q *query) schedRow(a *accumulators, th *threadKeys, r []core.Interval, run *schedRun) bool {
	slow, firstSwitch := &a.slowSched, a.firstSw // firstSw from cpuTime
	for j := 1; j+1 < len(r); j++ {
		if q.cancelledWithin(j) {
			return false
		}
		iv := r[j]
		if core.ThreadStatusOf(iv.Value) != core.ThreadWaitCPU || !q.closed(iv) || kstats.RanNextTo(r[j-1].Value) || !kstats.RanNextTo(r[j+1].Value) {
			continue
		}
		if r[j-1].Value.IsNull() && firstSwitch[iv.Start] {
			continue // switched out preempted by a CPU's first switch: it was running, not woken
		}
		run.s.Add(iv.Duration())
		if run.name == "" {
			run.name = q.threadName(th.tid)
		}
		slow.Add(Occurrence{Name: run.name, TID: th.tid, CPU: -1, StartNS: int64(iv.Start), DurationNS: int64(iv.Duration())}, 0, 0)
	}
	return true
}

// schedEnd adds a thread's row and its process's, once its status row
// is gone through.
func (q *query) schedEnd(rep *Report, a *accumulators, th *threadKeys, run *schedRun) {
	if run.s.Count == 0 {
		return
	}
	pid, known := q.pid(th.tid)
	kstats.AddLatency(rep, a.procs, LatencyRow{TID: th.tid, PID: pid, Comm: q.comm(th.tid), Stats: run.s}, known, q.comm)
}

// schedFinish lists the latencies summed over every batch.
func (q *query) schedFinish(rep *Report, a *accumulators) {
	for _, p := range a.procs {
		rep.ProcessLatency = append(rep.ProcessLatency, *p)
	}
	byMax := func(a, b LatencyRow) int { return cmp.Or(cmp.Compare(b.MaxNS, a.MaxNS), cmp.Compare(a.TID, b.TID)) }
	slices.SortFunc(rep.SchedLatency, byMax)
	slices.SortFunc(rep.ProcessLatency, byMax)
	rep.Slowest.SchedLatency = a.slowSched.List(nil)
}
