package stats

import (
	"context"
	"testing"

	"github.com/tracetui/tracetui/core"
)

// errAfter is a context whose Err is nil for its first checks, then
// context.Canceled: cancelled at a known point of an analysis.
type errAfter struct {
	context.Context
	checks int
}

func (c *errAfter) Err() error {
	if c.checks--; c.checks < 0 {
		return context.Canceled
	}
	return nil
}

// TestAnalysesStopWithinARow: a thread's row of millions of intervals
// (a busy thread of a big capture) is no longer gone through whole once
// Compute's context is done: the wake-up latency and the system calls
// stop at the next checkIntervals-th interval, and add no row.
func TestAnalysesStopWithinARow(t *testing.T) {
	const n = 3 * checkIntervals // waits for a CPU, each ended by a run; as many calls
	status, calls := make([]core.Interval, 0, 3*n), make([]core.Interval, 0, 2*n)
	for i := range core.Time(n) {
		for j, s := range []core.ThreadStatus{core.ThreadWaitBlocked, core.ThreadWaitCPU, core.ThreadRunSyscall} {
			at := 6*i + 2*core.Time(j)
			status = append(status, core.Interval{Key: 0, Start: at, End: at + 1, Value: core.Int32(int32(s))})
		}
		calls = append(calls,
			core.Interval{Key: 1, Start: 6 * i, End: 6*i + 2, Value: core.String("read")},
			core.Interval{Key: 1, Start: 6*i + 3, End: 6*i + 5, Value: core.Null()})
	}
	for _, checks := range []int{1 << 30, 1} { // never done; done after the first thread's check
		q := &query{from: 0, to: 6*n + 10, end: 6*n + 10, top: 10, rows: [][]core.Interval{status, calls},
			byTID: map[int32]*threadKeys{}, ctx: &errAfter{context.Background(), checks}}
		batch := []threadKeys{{tid: 7, status: 0, name: -1, pid: -1, ppid: -1, sys: 1, sysErr: -1, prio: -1}}
		rep, a := &Report{}, newAccumulators(10)
		a.firstSw = map[core.Time]bool{}
		q.schedBatch(rep, a, batch)
		q.ctx = &errAfter{context.Background(), checks}
		q.syscallBatch(rep, a, batch)
		done := checks == 1
		if gotSched, gotCalls := len(rep.SchedLatency) == 1, len(rep.ThreadSyscalls) == 1; gotSched == done || gotCalls == done {
			t.Fatalf("context done after %d check(s): a latency row %v, a system calls row %v", checks, gotSched, gotCalls)
		}
		if !done && (rep.SchedLatency[0].Count != n || rep.ThreadSyscalls[0].Syscalls[0].Count != n) {
			t.Fatalf("%d waits and %d calls counted, want %d", rep.SchedLatency[0].Count, rep.ThreadSyscalls[0].Syscalls[0].Count, n)
		}
	}
}
