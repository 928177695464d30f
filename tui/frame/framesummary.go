package frame

import (
	"context"

	"github.com/tracetui/tracetui/core"
)

// Summary frames.
//
// When the history keeps level-of-detail summaries (core.Summarizer: the
// index's thread, CPU and IRQ rows), the rows it serves are drawn from the
// buckets of the coarsest level at most a quarter of a column wide, so a
// column covers 4 to 16 buckets; no interval is read for them. The other
// rows, the details line's keys at the cursor and the CPU rows' running
// threads are asked in the same frame as before (exact or sampled). The
// status line then says "summary".
//
// A cell from buckets:
//
//   - changes: the changes of the buckets wholly inside the column, and
//     the changes at bucket starts inside it, are certain; those inside
//     the two buckets cut by the column's edges may lie on either side
//     and are all counted. The cell is marked when that count reaches 2:
//     a column that changed more than once is always marked, and a
//     marked cell's mark is wrong only when changes of an edge bucket lie
//     outside the column. On a column made of whole buckets it is exact.
//   - dominant: each bucket's overlap with the column counts for its
//     state when it has no change inside, for its dominant state when it
//     has; the most counted wins. Let E be the overlap of the buckets with
//     changes inside: each state's count is within E of the time it
//     covers, so the state drawn covers at most 2E less time than the
//     true dominant. A column without such a bucket (a solid cell, or one
//     whose changes are at bucket starts) is exact.

// sumCell is the change count of one summary cell.
type sumCell struct {
	changes int32 // certain ones and those of the edge buckets (saturating)
}

// summarise draws the rows the history's summaries serve; it returns how
// many it served. Rows served are skipped by visit.
func (b *FrameBuilder) summarise(ctx context.Context, sz core.Summarizer) (int, error) {
	v := b.Req.Window
	width := v.Span() / core.Time(max(b.Cols, 1)) / 4
	if width < 1 {
		return 0, nil
	}
	keys := make([]core.Key, 0, len(b.Req.Rows))
	for _, r := range b.Req.Rows {
		if r.Key >= 0 && r.Domain != domainCounter && r.Domain != DomainFrame {
			keys = append(keys, r.Key)
		}
	}
	b.sumCells = grow(b.sumCells, len(b.acc))
	clear(b.sumCells)
	b.sumIntervals = 0
	served, _, err := sz.Summary(ctx, keys, v.T0, v.T1, width, b.addRun2D)
	if err != nil {
		return 0, err
	}
	b.served = grow(b.served, len(b.Req.Rows))
	clear(b.served)
	for _, k := range served {
		b.served[b.rowOf[k]] = true
	}
	return len(served), nil
}

// summaryBusy reports whether the served rows' intervals in the window,
// counted by their summaries, make the frame busy by the rule of frame.go
// (more than summaryFrom per cell, more than summaryMinIntervals in all).
func (b *FrameBuilder) summaryBusy(served int) bool {
	return b.sumIntervals > summaryMinIntervals && b.sumIntervals > summaryFrom*float64(served*max(b.Cols, 1))
}

// addRun2D spreads one run of buckets over the columns it overlaps.
func (b *FrameBuilder) addRun2D(key core.Key, run core.SummaryRun) bool {
	v := b.Req.Window
	rs, re := max(run.Start, v.T0), min(run.End(), v.T1)
	if rs > re {
		return true
	}
	row := b.rowOf[key]
	base := row * b.Cols
	bk := run.Bucket
	val := bk.First
	if bk.Changes > 0 {
		val = bk.Dominant
	}
	id := b.intern(core.SummaryValue(val))
	k := run.Shift
	first, last := run.Start>>k, run.End()>>k
	perBucket := float64(bk.Changes)
	if bk.ChangedAtFirst {
		perBucket++
	}
	if run.Start <= v.T0 {
		b.sumIntervals++ // the row's interval at the window's start
	}
	b.sumIntervals += float64((re>>k)-(rs>>k)+1) * perBucket
	for c := b.colOf(rs); c < b.Cols && b.Starts[c] <= re; c++ {
		cs, ce := b.Starts[c], b.Starts[c+1]-1
		if ce >= cs {
			b.addCell(base+c, id, min(re, ce)-max(rs, cs)+1)
		} else {
			continue // an empty column (more columns than nanoseconds)
		}
		// Buckets of the run in the column: lo..hi; those cut by an
		// edge count all their changes (see above).
		lo, hi := max(first, cs>>k), min(last, ce>>k)
		n := int64(hi - lo + 1)
		changes := n * int64(bk.Changes)
		if bk.ChangedAtFirst {
			starts := n // buckets starting inside (cs, ce]
			if lo<<k <= cs {
				starts--
			}
			changes += starts
		}
		sc := &b.sumCells[base+c]
		sc.changes = int32(min(int64(sc.changes)+changes, 1<<30))
	}
	return true
}
