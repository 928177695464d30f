package frame_test

import (
	"context"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/tui/frame"
)

// summaryView returns a random view of m: every other time with columns
// made of whole buckets of the level the frame will read (a power-of-two
// column width, aligned), else anywhere.
func summaryView(rng interface {
	IntN(int) int
	Int64N(int64) int64
}, m *core.MemHistory, aligned bool) (frame.Window, bool) {
	start, end := m.Bounds()
	v := frame.Window{Start: start, End: end, Cols: 1 + rng.IntN(80)}
	if !aligned {
		span := core.Time(1 + rng.Int64N(int64(end-start+1)))
		return v.WithRange(start+core.Time(rng.Int64N(int64(end-start+1))), span), true
	}
	levels := core.SummaryLevels(start, end)
	q := int(levels[0]) + 2 + rng.IntN(8) // a column of 2^q ns: at least 4 buckets
	col := core.Time(1) << q
	first, last := (start+col-1)>>q, (end+1)>>q // whole columns inside the history
	if last-first < 1 {
		return v, false
	}
	c0 := first + core.Time(rng.Int64N(int64(last-first)))
	v.Cols = 1 + rng.IntN(int(min(last-c0, 80)))
	v.T0, v.T1 = c0<<q, (c0+core.Time(v.Cols))<<q-1
	return v, true
}

// TestSummaryFrameMatchesBruteForce draws random histories from their
// summaries (MemHistory's, the reference the index is tested against)
// and checks each cell against the intervals: known cells agree; a column
// that changed more than once is always marked, and on whole-bucket
// columns the mark is exact; the state drawn covers at most 2E less time
// than the dominant one, E the overlap of the buckets with changes inside
// (framesummary.go), so cells without such buckets are exact.
func TestSummaryFrameMatchesBruteForce(t *testing.T) {
	rng := coretest.Rand(t)
	cells := 0
	for iter := range 40 {
		m := randomHistory(rng, 1+rng.IntN(4))
		aligned := iter%2 == 0
		view, ok := summaryView(rng, m, aligned)
		if !ok {
			continue
		}
		keys := m.Attributes().Glob("Threads/*")
		rows := make([]frame.FrameRow, len(keys))
		for i, k := range keys {
			rows[i] = frame.FrameRow{Key: k, Domain: frame.DomainThread}
		}
		f := frame.RunFrame(context.Background(), frame.FrameRequest{Now: time.Now, Hist: m, Window: view, Rows: rows, Cursor: view.T0, Summary: true, Rate: 1e9})
		if f.Err != nil {
			t.Fatal(f.Err)
		}
		width := view.Span() / core.Time(view.Cols) / 4
		if width < 1 || core.SummaryLevelFor(core.SummaryLevels(m.Bounds()), width) < 0 {
			if f.Mode == frame.ModeSummary {
				t.Fatalf("iter %d: summary frame with columns of %d ns", iter, width*4)
			}
			continue
		}
		if f.Mode != frame.ModeSummary {
			t.Fatalf("iter %d: mode %v, want summary", iter, f.Mode)
		}
		ref := bruteForceCells(m, keys, view)
		for r, k := range keys {
			errs := changedOverlap(t, m, k, view, width)
			for c := range view.Cols {
				i := r*view.Cols + c
				got, rc := f.Cells[i], ref[i]
				if got.Known != (rc.intervals > 0) {
					t.Fatalf("iter %d row %d col %d: known %v, want %v", iter, r, c, got.Known, rc.intervals > 0)
				}
				if !got.Known {
					continue
				}
				cells++
				if rc.intervals >= 3 && !got.Multi || aligned && got.Multi != (rc.intervals >= 3) {
					t.Fatalf("iter %d (aligned %v) row %d col %d [%d, %d]: multi %v with %d intervals", iter, aligned, r, c, view.ColStart(c), view.ColEnd(c), got.Multi, rc.intervals)
				}
				best, _ := rc.dominant()
				okPaint := false
				for v, d := range rc.dur {
					if d >= rc.dur[best]-2*errs[c] && frame.PaintOf(frame.DomainThread, v) == got.Paint {
						okPaint = true
					}
				}
				if !okPaint {
					t.Fatalf("iter %d row %d col %d: paint %v, durations %v, E %d", iter, r, c, got.Paint, rc.dur, errs[c])
				}
			}
		}
	}
	t.Logf("%d cells compared", cells)
}

// changedOverlap returns, per column, the overlap of key's buckets that
// have changes inside (E in framesummary.go).
func changedOverlap(t *testing.T, m *core.MemHistory, k core.Key, v frame.Window, width core.Time) []core.Time {
	out := make([]core.Time, v.Cols)
	_, _, err := m.Summary(context.Background(), []core.Key{k}, v.T0, v.T1, width, func(_ core.Key, run core.SummaryRun) bool {
		if run.Bucket.Changes == 0 {
			return true
		}
		for c := range v.Cols {
			s, e := max(run.Start, v.ColStart(c)), min(run.End(), v.ColEnd(c))
			if s <= e {
				out[c] += e - s + 1
			}
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGuessedFrameAsksSummaries: the first frame of a pane, whose density
// is only guessed, is drawn from the summaries when the rows they serve
// are busy (however low the guess), and exactly when they are not
// (however high the guess).
func TestGuessedFrameAsksSummaries(t *testing.T) {
	for _, tc := range []struct {
		every core.Time // one change every so many ns
		guess float64
		want  frame.QueryMode
	}{{16, 1e-12, frame.ModeSummary}, {50_000, 1e9, frame.ModeExact}} {
		m := core.NewMemHistory(0)
		k := m.Attributes().AddPath("Threads", "a")
		for t0 := core.Time(1); t0 < 400_000; t0 += tc.every {
			m.Modify(k, t0, core.Int32(int32(t0/tc.every%3)))
		}
		m.Close(400_000)
		view := frame.Window{Start: 0, End: 400_000, Cols: 100}.WithRange(0, 400_001)
		f := frame.RunFrame(context.Background(), frame.FrameRequest{Now: time.Now, Hist: m, Window: view, Rows: []frame.FrameRow{{Key: k, Domain: frame.DomainThread}},
			Cursor: view.T0, Summary: true, Rate: tc.guess, Guessed: true})
		if f.Err != nil {
			t.Fatal(f.Err)
		}
		if f.Mode != tc.want {
			t.Errorf("a change every %d ns, guess %g: mode %v, want %v", tc.every, tc.guess, f.Mode, tc.want)
		}
	}
}
