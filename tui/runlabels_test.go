package tui

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// bruteForceRuns lists, per key, the thread runs a Resources row names:
// every interval of a positive integer value whose whole columns number
// minRunCols or more, found column by column.
func bruteForceRuns(t *testing.T, m *core.MemHistory, keys []core.Key, v timeView) [][]threadRun {
	start, end := m.Bounds()
	out := make([][]threadRun, len(keys))
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
			if c0 >= 0 && c1-c0+1 >= minRunCols {
				out[r] = append(out[r], threadRun{c0: c0, c1: c1, tid: iv.Value.Int()})
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
		rows := make([]frameRow, len(keys))
		runs := make([]runKey, len(keys))
		for i, k := range keys {
			rows[i] = frameRow{key: k, domain: domainCPU}
			runs[i] = runKey{row: i, key: k}
		}
		want := bruteForceRuns(t, m, keys, view)
		for _, rate := range []float64{0, 1e9} { // 0: exact first; huge: sampled
			req := frameRequest{now: time.Now, hist: h, view: view, rows: rows, runs: runs, cursor: view.T0, rate: rate}
			f := runFrame(context.Background(), req)
			if f.err != nil {
				t.Fatal(f.err)
			}
			for r := range keys {
				if !slices.Equal(f.runs[r], want[r]) {
					t.Fatalf("iter %d mode %v row %d view [%d,%d]/%d: runs\n%v\nwant\n%v", iter, f.mode, r, view.T0, view.T1, view.Cols, f.runs[r], want[r])
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
		rows := []frameRow{{key: keys[0], domain: domainCPU}}
		runs := []runKey{{row: 0, key: keys[1]}}
		want := bruteForceRuns(t, m, keys[1:2], view)
		f := runFrame(context.Background(), frameRequest{now: time.Now, hist: h, view: view, rows: rows, runs: runs, cursor: view.T0, rate: 1e9, summary: true})
		if f.err != nil {
			t.Fatal(f.err)
		}
		if f.mode == modeSummary {
			summarised++
		}
		if !slices.Equal(f.runs[0], want[0]) {
			t.Fatalf("iter %d mode %v view [%d,%d]/%d: runs\n%v\nwant\n%v", iter, f.mode, view.T0, view.T1, view.Cols, f.runs[0], want[0])
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
		v := timeView{Start: 0, End: 1 << 40, Cols: 1 + rng.IntN(300)}
		v = v.withRange(core.Time(rng.Int64N(1<<30)), core.Time(1+rng.Int64N(1<<(1+rng.IntN(36)))))
		b := &frameBuilder{req: frameRequest{view: v, cursor: v.T0}, cols: v.Cols, starts: make([]core.Time, v.Cols+1)}
		for c := range b.starts {
			b.starts[c] = v.ColStart(c)
		}
		times := b.runTimes()
		for range 20 {
			c0 := rng.IntN(v.Cols)
			c1 := min(v.Cols-1, c0+minRunCols-1+rng.IntN(4))
			if c1-c0+1 < minRunCols || v.ColEnd(c1) < v.ColStart(c0) {
				continue
			}
			s, e := v.ColStart(c0)-core.Time(rng.IntN(3)), v.ColEnd(c1)+core.Time(rng.IntN(3))
			if !slices.ContainsFunc(times, func(x core.Time) bool { return x >= s && x <= e }) {
				t.Fatalf("iter %d view [%d,%d]/%d: the run [%d,%d] over columns %d..%d holds none of %v", iter, v.T0, v.T1, v.Cols, s, e, c0, c1, times)
			}
		}
	}
}

// TestResourcesNamesThreadsInRuns: zoomed in on the demo trace's CPU 1,
// its runs carry the names of the threads (as the Control Flow rows name
// them) where they fit, in ASCII too, and the details line names the
// thread running at the cursor.
func TestResourcesNamesThreadsInRuns(t *testing.T) {
	hs := newHarness(t, newDemoTrace(), 120, 30, true)
	hs.press("resources")
	hs.selectRow("CPU 1")
	for range 4 {
		hs.press("zoom_in")
	}
	b := hs.b()
	var cpu1 string
	for _, l := range strings.Split(hs.view(), "\n") {
		if strings.Contains(l, "CPU 1 ") && !strings.Contains(l, " · ") {
			cpu1 = l
		}
	}
	named := 0
	for _, r := range b.frame.runs[slices.Index(b.frame.keys, b.tree().node(b.tree().selected()).key)] {
		label := string(b.runLabel(r, r.c1-r.c0-1))
		if label == "" {
			continue
		}
		named++
		if !strings.Contains(cpu1, label) {
			t.Errorf("run of %d (columns %d..%d) not labelled %q:\n%s", r.tid, r.c0, r.c1, label, cpu1)
		}
	}
	if named == 0 {
		t.Fatalf("no run named on CPU 1:\n%s", hs.view())
	}
	if d := b.detailsText(); !strings.Contains(d, "running swapper/1 0_1") {
		t.Errorf("details line %q does not name the idle thread", d)
	}
	hs.goTo("+1ms")
	if d := b.detailsText(); !strings.Contains(d, "running Web Content 2001") {
		t.Errorf("details line %q does not name the running thread", d)
	}
}
