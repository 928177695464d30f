package stats

import (
	"cmp"
	"slices"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/states/kernel/kstats"
	"github.com/tracetui/tracetui/ingest/states/kernel/sysnames"
)

// syscallBatch counts each thread's complete System_call intervals, for
// the threads of a batch.
func (q *query) syscallBatch(rep *Report, a *accumulators, batch []threadKeys) {
	for i := range batch {
		if q.cancelled(i) {
			return
		}
		th := &batch[i]
		if th.sys < 0 {
			continue
		}
		var mine kstats.Calls
		if !q.syscallRow(a, th, nil, &mine) {
			return
		}
		q.syscallEnd(rep, a, th, mine)
	}
}

// syscallRow counts the calls of a thread's System_call row, or of those
// in a window of time (win not nil) that end in it: a call across two
// windows is in both, counted in the one it ends in (whose rows reach
// the instant after, where its outcome is: System_call_error). False
// when Compute is cancelled.
func (q *query) syscallRow(a *accumulators, th *threadKeys, win *window, mine *kstats.Calls) bool {
	forkAt := q.forkTime(th) // a child's first call is its parent's fork: not its own
	errs := q.row(th.sysErr) // in time order, as the calls
	for j, iv := range q.row(th.sys) {
		if q.cancelledWithin(j) {
			return false
		}
		if iv.Value.IsNull() || !q.closed(iv) || iv.Start == forkAt {
			continue
		}
		if win != nil && (iv.End < win.from || iv.End >= win.to) {
			continue
		}
		name := iv.Value.Str()
		if kstats.NeverReturn[name] {
			continue
		}
		outcome := "success"
		for len(errs) > 0 && errs[0].End <= iv.End {
			errs = errs[1:]
		}
		if len(errs) > 0 && errs[0].Contains(iv.End+1) && !errs[0].Value.IsNull() {
			outcome = sysnames.Errno(errs[0].Value.Int())
		}
		mine.Add(name, outcome, iv.Duration())
		a.slowCalls.Add(Occurrence{Name: name, TID: th.tid, CPU: -1, StartNS: int64(iv.Start), DurationNS: int64(iv.Duration())}, 0, 0)
	}
	return true
}

// syscallEnd adds a thread's calls, once its row is gone through.
func (q *query) syscallEnd(rep *Report, a *accumulators, th *threadKeys, mine kstats.Calls) {
	// merged, not added call by call: the index build's whole-trace
	// pass (package kstats) merges each thread's in the same order
	kstats.MergeCalls(a.calls, mine)
	if len(mine) > 0 {
		rep.ThreadSyscalls = append(rep.ThreadSyscalls, ThreadSyscalls{TID: th.tid, Comm: q.comm(th.tid), Syscalls: mine.Rows()})
	}
}

// syscallFinish lists the calls summed over every batch.
func (q *query) syscallFinish(rep *Report, a *accumulators) {
	rep.Syscalls = kstats.SyscallRows(a.calls)
	slices.SortFunc(rep.ThreadSyscalls, func(a, b ThreadSyscalls) int { return cmp.Compare(a.TID, b.TID) })
	rep.Slowest.Syscalls = a.slowCalls.List(nil)
}

// forkTime returns when a thread was forked (its PPID was first set), -1
// if not in the range.
func (q *query) forkTime(th *threadKeys) core.Time {
	if th.ppid >= 0 {
		for _, iv := range q.row(th.ppid) {
			if !iv.Value.IsNull() {
				return iv.Start
			}
		}
	}
	return -1
}
