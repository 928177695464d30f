package stats

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/history"
)

// The CPUs' Current_thread rows hold an interval per context switch: a
// third of a kernel trace's intervals (11 M of 35 M on a 12 M-event
// capture, 450 MB as intervals). They are read a window of time at a
// time, in time order, and summed as they come; only their first two
// intervals (the heads: what the analyses of the range's start compare)
// are kept.

// currentTime is what the pass over the Current_thread rows sums.
type currentTime struct {
	byTID      map[int32]*ThreadUsage // CPU time by thread (not the idle thread)
	cpuNS      []int64                // by q.cpus index
	lastCPU    map[int32]int32        // each thread's last CPU so far
	migrations map[int32]int64
	firstSw    map[core.Time]bool // when each CPU's current thread first became known
}

// readHeads sets q.rows[c.cur] to the first two intervals of each CPU's
// Current_thread row in the range (fewer when the range holds fewer).
func (q *query) readHeads(ctx context.Context, h core.History) error {
	var keys []core.Key
	for _, c := range q.cpus {
		if c.cur >= 0 {
			keys = append(keys, c.cur)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	first, _, err := history.RowsAt(ctx, h, keys, []core.Time{q.from})
	if err != nil {
		return fmt.Errorf("analyses: reading the state history: %w", err)
	}
	for i, k := range keys {
		row := first[i]
		if len(row) == 0 {
			continue
		}
		q.rows[k] = row[:1:1]
		if next := row[0].End + 1; next > row[0].End && next < q.to {
			second, _, err := history.RowsAt(ctx, h, []core.Key{k}, []core.Time{next})
			if err != nil {
				return fmt.Errorf("analyses: reading the state history: %w", err)
			}
			q.rows[k] = append(q.rows[k], second[0]...)
		}
	}
	return nil
}

// windows returns how many windows of time the Current_thread pass
// reads: about batchIntervals of the history's intervals each, or n when
// n > 0.
func (q *query) windows(h core.History, n int) int {
	if n > 0 {
		return n
	}
	n = 1
	if ic, ok := h.(intervalCounter); ok {
		n = int(min(ic.IntervalCount()/batchIntervals+1, 4096))
	}
	return n
}

// currentThreads reads every CPU's Current_thread row over the range, n
// windows of time in turn, and sums each thread's CPU time (an interval
// counts in the window where its part in the range starts), its
// migrations, each CPU's busy time and first switch; seed are the runs
// before the CPUs' first switches (unseenRun), which come first.
func (q *query) currentThreads(ctx context.Context, h core.History, n int, seed []runOf) (*currentTime, error) {
	ct := &currentTime{byTID: map[int32]*ThreadUsage{}, cpuNS: make([]int64, len(q.cpus)),
		lastCPU: map[int32]int32{}, migrations: map[int32]int64{}, firstSw: map[core.Time]bool{}}
	var keys []core.Key
	var at []int // q.cpus index of each key
	for i, c := range q.cpus {
		if c.cur >= 0 {
			keys, at = append(keys, c.cur), append(at, i)
		}
	}
	ct.moves(seed)
	prevNull := make([]bool, len(keys)) // the previous interval's value was null
	seen := make([]bool, len(keys))     // the first switch is found
	var runs []runOf
	span := q.to - q.from
	for w := range n {
		w0, w1 := q.from+core.Time(int64(span)*int64(w)/int64(n)), q.from+core.Time(int64(span)*int64(w+1)/int64(n))
		if w1 <= w0 {
			continue
		}
		rows, _, err := history.Rows(ctx, h, keys, w0, w1-1)
		if err != nil {
			return nil, fmt.Errorf("analyses: reading the state history: %w", err)
		}
		runs = runs[:0]
		for j, row := range rows {
			cpu := q.cpus[at[j]].num
			for _, iv := range row {
				if s := max(iv.Start, q.from); s < w0 || s >= w1 {
					continue // another window's
				}
				null := iv.Value.IsNull()
				if !seen[j] && prevNull[j] && !null && iv.Start > q.from {
					ct.firstSw[iv.Start], seen[j] = true, true
				}
				prevNull[j] = null
				if null || iv.Value.Int() <= 0 {
					continue
				}
				ns := q.clip(iv)
				if ns == 0 {
					continue
				}
				tid := int32(iv.Value.Int())
				ct.add(tid, ns)
				ct.cpuNS[at[j]] += ns
				runs = append(runs, runOf{iv.Start, cpu, tid})
			}
		}
		slices.SortFunc(runs, func(a, b runOf) int { return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.cpu, b.cpu)) })
		ct.moves(runs)
	}
	return ct, nil
}

// runOf is one stretch of a thread on a CPU.
type runOf struct {
	start core.Time
	cpu   int32
	tid   int32
}

// add charges ns of CPU time to tid.
func (ct *currentTime) add(tid int32, ns int64) {
	u := ct.byTID[tid]
	if u == nil {
		u = &ThreadUsage{TID: tid}
		ct.byTID[tid] = u
	}
	u.NS += ns
}

// moves counts the migrations of runs, in time order.
func (ct *currentTime) moves(runs []runOf) {
	for _, r := range runs {
		if last, ok := ct.lastCPU[r.tid]; ok && last != r.cpu {
			ct.migrations[r.tid]++
		}
		ct.lastCPU[r.tid] = r.cpu
	}
}
