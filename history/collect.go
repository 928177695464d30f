package history

import (
	"context"

	"github.com/tracetui/tracetui/core"
)

// Rows collects the result of a 2D query in the order of keys: rows[i]
// holds the intervals of keys[i] in time order (a repeated key gets the
// same row). It works with any [core.History]; the streaming form is the
// query itself.
func Rows(ctx context.Context, h core.History, keys []core.Key, t0, t1 core.Time) ([][]core.Interval, core.QueryStats, error) {
	return collectRows(ctx, keys, func(fn func(core.Interval) bool) (core.QueryStats, error) {
		return h.Query2D(ctx, keys, t0, t1, fn)
	})
}

// RowsAt is [Rows] for a 2D query at a list of times ([core.History.Query2DTimes]).
func RowsAt(ctx context.Context, h core.History, keys []core.Key, times []core.Time) ([][]core.Interval, core.QueryStats, error) {
	return collectRows(ctx, keys, func(fn func(core.Interval) bool) (core.QueryStats, error) {
		return h.Query2DTimes(ctx, keys, times, fn)
	})
}

// collectRows runs query and puts its intervals in rows. They are first
// appended to fixed-size chunks, then placed in one array at each row's
// offset: growing hundreds of thousands of small rows one append at a
// time was a third of a whole-trace `stats` at 50 000 threads (the
// copies, and the collections the garbage ran). Placing and sorting
// millions of intervals takes a few hundred milliseconds: ctx is checked
// as they go.
func collectRows(ctx context.Context, keys []core.Key, query func(func(core.Interval) bool) (core.QueryStats, error)) ([][]core.Interval, core.QueryStats, error) {
	idx := newRowIndex(keys)
	counts := make([]int, len(keys))
	var chunks []collected
	st, err := query(func(iv core.Interval) bool {
		i := idx.of(iv.Key)
		if i < 0 {
			return true
		}
		if len(chunks) == 0 || len(chunks[len(chunks)-1].ivs) == collectChunk {
			chunks = append(chunks, collected{ivs: make([]core.Interval, 0, collectChunk), rows: make([]int32, 0, collectChunk)})
		}
		c := &chunks[len(chunks)-1]
		c.ivs, c.rows = append(c.ivs, iv), append(c.rows, int32(i))
		counts[i]++
		return true
	})
	if err != nil {
		return nil, st, err
	}
	total := 0
	for i, n := range counts {
		counts[i] = total // from here on, the row's next place
		total += n
	}
	all := make([]core.Interval, total)
	for ci := range chunks {
		if err := ctx.Err(); err != nil {
			return nil, st, err
		}
		c := &chunks[ci]
		for j, r := range c.rows {
			all[counts[r]] = c.ivs[j]
			counts[r]++
		}
		chunks[ci] = collected{} // placed: garbage
	}
	rows := make([][]core.Interval, len(keys))
	from := 0
	for i, end := range counts {
		rows[i] = all[from:end:end]
		from = end
	}
	for i, k := range keys {
		if i%collectCheckRows == 0 {
			if err := ctx.Err(); err != nil {
				return nil, st, err
			}
		}
		if j := idx.of(k); j != i {
			rows[i] = rows[j]
			continue
		}
		if len(rows[i]) == 0 {
			rows[i] = nil
		}
		if err := core.SortByStartContext(ctx, rows[i]); err != nil {
			return nil, st, err
		}
	}
	return rows, st, nil
}

// collectChunk is the length of collectRows' chunks: 4096 intervals, a
// few hundred KB. collectCheckRows is how many rows are sorted between
// two looks at the context.
const (
	collectChunk     = 4096
	collectCheckRows = 1024
)

// collected is a chunk of a query's intervals with their rows.
type collected struct {
	ivs  []core.Interval
	rows []int32
}

// A rowIndex indexes a slice by key when the keys asked are many among
// the tree's (an attribute tree's keys are dense from 0): the slice is at
// most denseRatio times their number (plus denseSlack), else a map holds
// them. A 2D query calls the index once per interval, millions of times
// in a `stats` or `diff` of a large trace, where the map lookup was a
// fifth of the time.
const (
	denseRatio = 32
	denseSlack = 1024
)

// rowIndex finds the row of a key: the first position of the key in a
// query's keys, -1 for a key not asked.
type rowIndex struct {
	dense  []int32
	sparse map[core.Key]int32
}

func newRowIndex(keys []core.Key) rowIndex {
	var x rowIndex
	hi := core.Key(-1)
	for _, k := range keys {
		hi = max(hi, k)
	}
	if int64(hi) < int64(len(keys))*denseRatio+denseSlack {
		x.dense = make([]int32, hi+1)
		for i := range x.dense {
			x.dense[i] = -1
		}
	}
	for i, k := range keys {
		switch {
		case k >= 0 && int(k) < len(x.dense):
			if x.dense[k] < 0 {
				x.dense[k] = int32(i)
			}
		default:
			if x.sparse == nil {
				x.sparse = map[core.Key]int32{}
			}
			if _, ok := x.sparse[k]; !ok {
				x.sparse[k] = int32(i)
			}
		}
	}
	return x
}

func (x rowIndex) of(k core.Key) int {
	if k >= 0 && int(k) < len(x.dense) {
		return int(x.dense[k])
	}
	if i, ok := x.sparse[k]; ok {
		return int(i)
	}
	return -1
}
