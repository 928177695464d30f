package trace

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index/eventindex"
)

// Density returns the number of events in each of columns equal parts of
// [from, to], from the event index alone: exact to within K events (one
// checkpoint) at each column boundary, two binary searches and one read
// of the checkpoints in between (Index.ApproxRanks), no decoding. It is cheap enough to recompute on every zoom.
func (t *Table) Density(ctx context.Context, from, to core.Time, columns int) ([]int64, error) {
	if columns <= 0 || to < from {
		return nil, fmt.Errorf("density: %d columns over [%d, %d]", columns, from, to)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The ranks at the columns' boundaries, the first at from; column i
	// covers [b_i, b_{i+1}), the last ends just after to.
	span := float64(to-from) + 1
	bounds := make([]core.Time, columns+1)
	bounds[0] = from
	for i := range columns {
		bounds[i+1] = from + core.Time(span*float64(i+1)/float64(columns))
	}
	bounds[columns] = to + 1
	ranks := make([]int64, columns+1)
	if err := t.index.ApproxRanks(bounds, ranks); err != nil {
		return nil, err
	}
	out := make([]int64, columns)
	for i := range out {
		out[i] = ranks[i+1] - ranks[i]
	}
	return out, nil
}

// countReport is how many events CountByType decodes between progress
// reports.
const countReport = 1 << 16

// CountByType counts the events of each name in [from, to] (inclusive) by
// decoding that range with its own reader. fn, if not nil, gets progress
// in events and may stop the scan by returning false: the partial counts
// are then returned with a nil error. ctx cancellation returns ctx.Err().
func (t *Table) CountByType(ctx context.Context, from, to core.Time, fn func(done, total int64) bool) (map[string]int64, error) {
	src, err := t.open()
	if err != nil {
		return nil, fmt.Errorf("event counts: %w", err)
	}
	defer src.Close()
	seek := eventindex.NewSeeker(t.index, src)
	r0, err := seek.RankAt(from)
	if err != nil {
		return nil, err
	}
	r1, err := seek.RankAt(to + 1)
	if err != nil {
		return nil, err
	}
	counts := map[string]int64{}
	if r0 >= r1 {
		return counts, nil
	}
	if err := seek.SeekRank(r0); err != nil {
		return nil, err
	}
	byClass := []int64{} // by class ID: no map access per event
	names := []string{}
	total := r1 - r0
	for done := int64(0); done < total; done++ {
		if done%countReport == 0 && done > 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if fn != nil && !fn(done, total) {
				break
			}
		}
		ev, err := src.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = fmt.Errorf("%w: the trace ends before event %d", eventindex.ErrCorrupt, r0+done)
			}
			return nil, err
		}
		for len(byClass) <= ev.Class.ID {
			byClass = append(byClass, 0)
			names = append(names, "")
		}
		byClass[ev.Class.ID]++
		names[ev.Class.ID] = ev.Class.Name
	}
	if fn != nil {
		fn(total, total)
	}
	for id, n := range byClass {
		if n > 0 {
			counts[names[id]] += n // classes of several streams may share a name
		}
	}
	return counts, ctx.Err()
}
