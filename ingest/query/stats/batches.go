package stats

import (
	"context"
	"fmt"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/history"
)

// The threads' state rows, most of a trace's intervals, are read a batch
// of threads at a time, one batch ahead of the analyses (Compute).

// batchIntervals is the most intervals a batch of threads holds (56
// bytes each in memory: 112 MB, the next batch read ahead beside it); a
// thread of more is read a window of time at a time. On most of a 17 M-event capture (its
// threads weighed first): 8.0 s and 343 MB peak; at 4 M intervals 6.0 s
// and 603 MB; at 512 k, 20 s (a query walks the tree for each batch).
// Batches of a count of threads (256) instead of weighed ones took 8.7
// to 9.3 s and 3.2 GB there.
const batchIntervals = 1 << 21

// intervalCounter is a history that knows how many intervals it holds
// (an index does).
type intervalCounter interface{ IntervalCount() int64 }

// threadBatch is a batch of threads and, when weighed, the intervals
// they hold in the range (0 unknown).
type threadBatch struct {
	threads []threadKeys
	weight  int64
}

// batches cuts the threads into batches of n threads when n > 0, else of
// at most budget (batchIntervals when 0) intervals each. A history of
// more intervals than that is weighed first: a 2D query that keeps
// nothing counts each thread's intervals in the range, so that the
// busiest threads (a capture's intervals are mostly in a few) are not
// batched together; a thread of more than the budget is a batch alone,
// read a window of time at a time (readAhead).
func (q *query) batches(ctx context.Context, h core.History, n, budget int) ([]threadBatch, error) {
	if n > 0 {
		var out []threadBatch
		for lo := 0; lo < len(q.threads); lo += n {
			out = append(out, threadBatch{threads: q.threads[lo:min(lo+n, len(q.threads))]})
		}
		return out, nil
	}
	if budget <= 0 {
		budget = batchIntervals
		if ic, ok := h.(intervalCounter); !ok || ic.IntervalCount() <= batchIntervals {
			return []threadBatch{{threads: q.threads}}, nil
		}
	}
	weights, err := q.weigh(ctx, h)
	if err != nil {
		return nil, err
	}
	var out []threadBatch
	lo, sum := 0, int64(0)
	for i, w := range weights {
		if i > lo && sum+w > int64(budget) {
			out = append(out, threadBatch{q.threads[lo:i], sum})
			lo, sum = i, 0
		}
		sum += w
	}
	if lo < len(q.threads) {
		out = append(out, threadBatch{q.threads[lo:], sum})
	}
	return out, nil
}

// windows returns how many windows of time a batch is read in: one, but
// for a thread of more intervals than the budget, read in as many
// windows of equal length as it holds budgets (its intervals are not
// spread evenly: a window may hold more), at most maxWindows.
func (b threadBatch) windows(budget int) int {
	if len(b.threads) != 1 || budget <= 0 || b.weight <= int64(budget) {
		return 1
	}
	return int(min((b.weight+int64(budget)-1)/int64(budget), maxWindows))
}

// maxWindows bounds the windows of one thread: each is a walk of the
// tree.
const maxWindows = 1024

// weigh returns each thread's number of state intervals in the range.
func (q *query) weigh(ctx context.Context, h core.History) ([]int64, error) {
	owner := make([]int32, h.Attributes().Len()) // by key: its thread + 1
	var keys []core.Key
	for i := range q.threads {
		for _, k := range q.threads[i].stateKeys() {
			if int(k) < len(owner) {
				owner[k] = int32(i) + 1
				keys = append(keys, k)
			}
		}
	}
	weights := make([]int64, len(q.threads))
	if len(keys) == 0 {
		return weights, nil
	}
	if _, err := h.Query2D(ctx, keys, q.from, q.to-1, func(iv core.Interval) bool {
		if int(iv.Key) < len(owner) && owner[iv.Key] > 0 {
			weights[owner[iv.Key]-1]++
		}
		return true
	}); err != nil {
		return nil, fmt.Errorf("analyses: weighing the threads' states: %w", err)
	}
	return weights, nil
}

// batchRows are the rows of a batch of threads' state keys, or of one
// window of time of a thread's (win not nil).
type batchRows struct {
	batch []threadKeys
	keys  []core.Key
	rows  [][]core.Interval
	win   *window
	err   error
}

// window is the i-th of n windows of time a thread's rows are read in:
// the rows hold the intervals that meet [from, to], the first instant of
// the next window included.
type window struct {
	i, n     int
	from, to core.Time
}

// readAhead cuts the threads into batches (batches: n threads, or
// budget intervals) and reads the batches' rows on a goroutine of its
// own, one batch ahead of the analyses: the next batch is read from the
// index while the caller sums the one before (at 50 000 threads, reading
// is half of a whole-trace scan). The channel is unbuffered, so two batches at most
// are in memory; it is closed after the last batch or an error, or when
// ctx is done.
func (q *query) readAhead(ctx context.Context, h core.History, n, budget int) <-chan batchRows {
	out := make(chan batchRows)
	go func() {
		defer close(out)
		batches, err := q.batches(ctx, h, n, budget)
		if err != nil {
			select {
			case out <- batchRows{err: err}:
			case <-ctx.Done():
			}
			return
		}
		if budget <= 0 {
			budget = batchIntervals
		}
		for _, b := range batches {
			var keys []core.Key
			for _, th := range b.threads {
				keys = append(keys, th.stateKeys()...)
			}
			span := int64(q.to - q.from)
			nw := int(min(int64(b.windows(budget)), span)) // each at least 1 ns
			for i := range nw {
				r := batchRows{batch: b.threads, keys: keys}
				from, to := q.from, q.to
				if nw > 1 {
					from, to = q.from+core.Time(span/int64(nw)*int64(i)), q.from+core.Time(span/int64(nw)*int64(i+1))
					if i == nw-1 {
						to = q.to
					}
					r.win = &window{i: i, n: nw, from: from, to: to}
				}
				if len(keys) > 0 {
					// a window's rows reach the next one's first instant,
					// where the outcome of a call ending in it is
					rows, _, err := history.Rows(ctx, h, keys, from, min(to, q.to-1))
					if err != nil {
						r.err = fmt.Errorf("analyses: reading the state history: %w", err)
					}
					r.rows = rows
				}
				select {
				case out <- r:
				case <-ctx.Done():
					return
				}
				if r.err != nil {
					return
				}
			}
		}
	}()
	return out
}

// checkThreads is how many threads an analysis goes through between two
// looks at the context; checkIntervals how many intervals of one
// thread's row (a busy thread of a big capture holds millions).
const (
	checkThreads   = 64
	checkIntervals = 1 << 16
)

// cancelled tells an analysis at its i-th thread to stop: Compute
// returns the context's error.
func (q *query) cancelled(i int) bool {
	return i%checkThreads == 0 && q.ctx != nil && q.ctx.Err() != nil
}

// cancelledWithin tells an analysis at the j-th interval of a thread's
// row to stop, as cancelled does.
func (q *query) cancelledWithin(j int) bool {
	return j%checkIntervals == 0 && j > 0 && q.ctx != nil && q.ctx.Err() != nil
}
