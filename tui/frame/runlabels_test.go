package frame_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/tui/frame"
)

// bruteForceRuns lists, per key, the thread runs a Resources row names:
// every interval of a positive integer value whose whole columns number
// minRunCols or more, found column by column.
func bruteForceRuns(t *testing.T, m *core.MemHistory, keys []core.Key, v frame.Window) [][]frame.ThreadRun {
	start, end := m.Bounds()
	out := make([][]frame.ThreadRun, len(keys))
	for r, k := range keys {
		var ivs []core.Interval
		if _, err := m.Query2D(context.Background(), []core.Key{k}, start, end, func(iv core.Interval) bool {
			ivs = append(ivs, iv)
			return true
		}); err != nil {
			t.Fatal(err)
		}
		core.SortIntervals(ivs)
		for _, iv := range ivs {
			if iv.Value.IsNull() || iv.Value.Int() <= 0 {
				continue
			}
			c0, c1 := -1, -1
			for c := range v.Cols {
				if v.ColStart(c) >= iv.Start && v.ColEnd(c) <= iv.End {
					if c0 < 0 {
						c0 = c
					}
					c1 = c
				}
			}
			if c0 >= 0 && c1-c0+1 >= frame.MinRunCols {
				out[r] = append(out[r], frame.ThreadRun{C0: c0, C1: c1, Tid: iv.Value.Int()})
			}
		}
	}
	return out
}

// TestThreadRunsMatchBruteForce: both query modes find exactly the runs
// of whole columns a brute-force scan finds (sampled meets every interval
// that covers a whole column at the column's first instant).
func TestThreadRunsMatchBruteForce(t *testing.T) {
	rng := coretest.Rand(t)
	for iter := range 200 {
		m, h, keys, view := randomFrameCase(rng, iter, 120, true)
		rows := make([]frame.FrameRow, len(keys))
		runs := make([]frame.RunKey, len(keys))
		for i, k := range keys {
			rows[i] = frame.FrameRow{Key: k, Domain: frame.DomainCPU}
			runs[i] = frame.RunKey{Row: i, Key: k}
		}
		want := bruteForceRuns(t, m, keys, view)
		for _, rate := range []float64{0, 1e9} { // 0: exact first; huge: sampled
			req := frame.FrameRequest{Now: time.Now, Hist: h, Window: view, Rows: rows, Runs: runs, Cursor: view.T0, Rate: rate}
			f := frame.RunFrame(context.Background(), req)
			if f.Err != nil {
				t.Fatal(f.Err)
			}
			for r := range keys {
				if !slices.Equal(f.Runs[r], want[r]) {
					t.Fatalf("iter %d mode %v row %d view [%d,%d]/%d: runs\n%v\nwant\n%v", iter, f.Mode, r, view.T0, view.T1, view.Cols, f.Runs[r], want[r])
				}
			}
		}
	}
}

// TestThreadRunsOfSummaryFrames: when every row is drawn from summaries,
// the runs are asked at runTimes' few instants only; they still find
// exactly the runs a brute-force scan finds (the rows here are other keys
// than the runs', as a CPU's status and its Current_thread are).
func TestThreadRunsOfSummaryFrames(t *testing.T) {
	rng := coretest.Rand(t)
	summarised := 0
	for iter := range 300 {
		m, h, keys, view := randomFrameCase(rng, iter, 120, true)
		if len(keys) < 2 {
			continue
		}
		rows := []frame.FrameRow{{Key: keys[0], Domain: frame.DomainCPU}}
		runs := []frame.RunKey{{Row: 0, Key: keys[1]}}
		want := bruteForceRuns(t, m, keys[1:2], view)
		f := frame.RunFrame(context.Background(), frame.FrameRequest{Now: time.Now, Hist: h, Window: view, Rows: rows, Runs: runs, Cursor: view.T0, Rate: 1e9, Summary: true})
		if f.Err != nil {
			t.Fatal(f.Err)
		}
		if f.Mode == frame.ModeSummary {
			summarised++
		}
		if !slices.Equal(f.Runs[0], want[0]) {
			t.Fatalf("iter %d mode %v view [%d,%d]/%d: runs\n%v\nwant\n%v", iter, f.Mode, view.T0, view.T1, view.Cols, f.Runs[0], want[0])
		}
	}
	if summarised < 20 {
		t.Fatalf("only %d of the frames were drawn from summaries", summarised)
	}
}

// TestRunTimesMeetEveryRun: every interval covering minRunCols whole
// columns of a view holds one of runTimes' instants.
func TestRunTimesMeetEveryRun(t *testing.T) {
	rng := coretest.Rand(t)
	for iter := range 2000 {
		v := frame.Window{Start: 0, End: 1 << 40, Cols: 1 + rng.IntN(300)}
		v = v.WithRange(core.Time(rng.Int64N(1<<30)), core.Time(1+rng.Int64N(1<<(1+rng.IntN(36)))))
		b := &frame.FrameBuilder{Req: frame.FrameRequest{Window: v, Cursor: v.T0}, Cols: v.Cols, Starts: make([]core.Time, v.Cols+1)}
		for c := range b.Starts {
			b.Starts[c] = v.ColStart(c)
		}
		times := b.RunTimes()
		for range 20 {
			c0 := rng.IntN(v.Cols)
			c1 := min(v.Cols-1, c0+frame.MinRunCols-1+rng.IntN(4))
			if c1-c0+1 < frame.MinRunCols || v.ColEnd(c1) < v.ColStart(c0) {
				continue
			}
			s, e := v.ColStart(c0)-core.Time(rng.IntN(3)), v.ColEnd(c1)+core.Time(rng.IntN(3))
			if !slices.ContainsFunc(times, func(x core.Time) bool { return x >= s && x <= e }) {
				t.Fatalf("iter %d view [%d,%d]/%d: the run [%d,%d] over columns %d..%d holds none of %v", iter, v.T0, v.T1, v.Cols, s, e, c0, c1, times)
			}
		}
	}
}
