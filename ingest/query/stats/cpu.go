package stats

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest/states/kernel/kstats"
)

// cpuTime reads the CPUs' Current_thread rows (the pass of
// currentThreads, n windows of time), after the runs before each CPU's
// first switch (unseenRun), and sets a.firstSw.
func (q *query) cpuTime(ctx context.Context, h core.History, a *accumulators, n int, cpu bool) (*currentTime, error) {
	var seed []runOf
	seedNS := make([]int64, len(q.cpus)) // by q.cpus index, with seed's threads
	seedTID := make([]int32, len(q.cpus))
	if cpu {
		for i, c := range q.cpus {
			// lttng-cputop charges a CPU's time before its first switch to
			// the thread that switch takes off it
			if tid, iv, ok := q.unseenRun(c); ok {
				seed = append(seed, runOf{iv.Start, c.num, tid})
				seedNS[i], seedTID[i] = q.clip(iv), tid
			}
		}
		slices.SortStableFunc(seed, func(a, b runOf) int { return cmp.Compare(a.start, b.start) })
	}
	ct, err := q.currentThreads(ctx, h, n, seed)
	if err != nil {
		return nil, err
	}
	for i, ns := range seedNS {
		if ns > 0 {
			ct.add(seedTID[i], ns)
			ct.cpuNS[i] += ns
		}
	}
	a.firstSw = ct.firstSw
	return ct, nil
}

// cpuUsage charges each CPU's Current_thread intervals to their thread
// (tid 0, the idle thread, to nobody), from the pass of cpuTime.
func (q *query) cpuUsage(rep *Report, a *accumulators, ct *currentTime) {
	span := float64(q.to - q.from)
	pct := func(ns int64) float64 { return float64(ns) * 100 / span }
	for i, c := range q.cpus {
		rep.CPUUsage.CPUs = append(rep.CPUUsage.CPUs, CPURow{CPU: c.num, NS: ct.cpuNS[i], Percent: pct(ct.cpuNS[i])})
	}
	byTID := ct.byTID
	procs := map[int32]*ProcessUsage{}
	tids := make([]int32, 0, len(byTID))
	for tid := range byTID {
		tids = append(tids, tid)
	}
	slices.Sort(tids) // a process's name, when its own thread has none, is its first thread's
	for _, tid := range tids {
		u := byTID[tid]
		var known bool
		u.PID, known = q.pid(tid)
		u.Comm, u.Percent = q.comm(tid), pct(u.NS)
		u.Migrations = ct.migrations[tid]
		rep.CPUUsage.Threads = append(rep.CPUUsage.Threads, *u) // Prios by prioBatch
		if known {                                              // no process row made up from one thread
			kstats.AddToProcess(procs, *u, q.comm)
		}
	}
	rep.CPUUsage.Processes = kstats.ProcessRows(procs, pct)
	kstats.SortUsage(&rep.CPUUsage)
	for i, u := range rep.CPUUsage.Threads {
		a.usageAt[u.TID] = i
	}
}

// prioBatch gives the threads of a batch that used a CPU their
// priorities, from the batch's rows.
func (q *query) prioBatch(rep *Report, a *accumulators, batch []threadKeys) {
	for _, th := range batch {
		if i, ok := a.usageAt[th.tid]; ok {
			rep.CPUUsage.Threads[i].Prios = q.prios(th.tid)
		}
	}
}

// readFirstStates reads every thread's status from the range's start to
// the last CPU's first switch: what unseenRun compares.
func (q *query) readFirstStates(ctx context.Context, h core.History) error {
	last := core.Time(-1)
	for _, c := range q.cpus {
		if c.cur < 0 {
			continue
		}
		if r := q.row(c.cur); len(r) >= 2 && r[0].Value.IsNull() && !r[1].Value.IsNull() {
			last = max(last, r[1].Start)
		}
	}
	q.early = map[core.Key][]core.Interval{}
	if last < q.from {
		return nil
	}
	var keys []core.Key
	for _, th := range q.threads {
		if th.status >= 0 {
			keys = append(keys, th.status)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	rows, _, err := history.Rows(ctx, h, keys, q.from, last)
	if err != nil {
		return fmt.Errorf("analyses: reading the state history: %w", err)
	}
	for i, k := range keys {
		q.early[k] = rows[i]
	}
	return nil
}

// prios lists the distinct priorities a thread had in the range.
func (q *query) prios(tid int32) []int32 {
	th := q.byTID[tid]
	if th == nil || th.prio < 0 {
		return nil
	}
	return appendPrios(nil, q.row(th.prio))
}

// appendPrios appends to out the priorities of row it does not hold, in
// the order met.
func appendPrios(out []int32, row []core.Interval) []int32 {
	for _, iv := range row {
		if !iv.Value.IsNull() && !slices.Contains(out, int32(iv.Value.Int())) {
			out = append(out, int32(iv.Value.Int()))
		}
	}
	return out
}

// unseenRun returns the thread that ran on c before the first switch the
// trace shows there, and that stretch: the one thread whose status first
// becomes known, as not running, at that instant. ok is false when
// Current_thread is known from the range's start or the thread is
// ambiguous.
func (q *query) unseenRun(c cpuKeys) (tid int32, iv core.Interval, ok bool) {
	if c.cur < 0 {
		return 0, iv, false
	}
	r := q.row(c.cur)
	if len(r) < 2 || !r[0].Value.IsNull() || r[1].Value.IsNull() {
		return 0, iv, false
	}
	at := r[1].Start
	found := 0
	for i := range q.threads {
		th := &q.threads[i]
		rows := q.early[th.status]
		for j := 1; j < len(rows); j++ {
			if rows[j].Start > at {
				break
			}
			if rows[j].Start == at && rows[j-1].Value.IsNull() && !rows[j].Value.IsNull() && !core.ThreadStatusOf(rows[j].Value).Running() {
				tid = th.tid
				found++
			}
		}
	}
	if found != 1 || int64(tid) == r[1].Value.Int() {
		return 0, iv, false
	}
	return tid, r[0], true
}
