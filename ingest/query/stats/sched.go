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
	slow, procs := &a.slowSched, a.procs
	firstSwitch := a.firstSw // from cpuTime
	for i := range batch {
		if q.cancelled(i) {
			return
		}
		th := &batch[i]
		r := q.row(th.status)
		var s Stats
		name := "" // made at the thread's first wait
		for j := 1; j+1 < len(r); j++ {
			if q.cancelledWithin(j) {
				return
			}
			iv := r[j]
			if core.ThreadStatusOf(iv.Value) != core.ThreadWaitCPU || !q.closed(iv) || kstats.RanNextTo(r[j-1].Value) || !kstats.RanNextTo(r[j+1].Value) {
				continue
			}
			if r[j-1].Value.IsNull() && firstSwitch[iv.Start] {
				continue // switched out preempted by a CPU's first switch: it was running, not woken
			}
			s.Add(iv.Duration())
			if name == "" {
				name = q.threadName(th.tid)
			}
			slow.Add(Occurrence{Name: name, TID: th.tid, CPU: -1, StartNS: int64(iv.Start), DurationNS: int64(iv.Duration())}, 0, 0)
		}
		if s.Count == 0 {
			continue
		}
		pid, known := q.pid(th.tid)
		row := LatencyRow{TID: th.tid, PID: pid, Comm: q.comm(th.tid), Stats: s}
		rep.SchedLatency = append(rep.SchedLatency, row)
		if !known {
			continue // no process row made up from one thread
		}
		p := procs[row.PID]
		if p == nil {
			p = &LatencyRow{TID: row.PID, PID: row.PID, Comm: q.comm(row.PID)}
			if p.Comm == "" {
				p.Comm = row.Comm
			}
			procs[row.PID] = p
		}
		p.Merge(&row.Stats)
	}
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
