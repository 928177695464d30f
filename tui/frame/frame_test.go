package frame_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// randomHistory builds a closed MemHistory of nkeys status-like keys whose
// intervals mix long states and bursts of very short ones.
func randomHistory(rng *rand.Rand, nkeys int) *core.MemHistory {
	start := core.Time(rng.IntN(1000))
	m := core.NewMemHistory(start)
	keys := make([]core.Key, nkeys)
	for i := range keys {
		keys[i] = m.Attributes().AddPath("Threads", string(rune('a'+i)))
	}
	end := start + core.Time(1000+rng.IntN(100_000))
	type change struct {
		t core.Time
		k core.Key
		v int32
	}
	var changes []change
	for _, k := range keys {
		for t := start + 1; t < end; {
			if rng.IntN(4) == 0 { // burst of short states
				for range rng.IntN(20) {
					t += core.Time(1 + rng.IntN(5))
					changes = append(changes, change{t, k, int32(rng.IntN(6))})
				}
			}
			t += core.Time(1 + rng.IntN(3000))
			changes = append(changes, change{t, k, int32(rng.IntN(6))})
		}
	}
	slices.SortStableFunc(changes, func(a, b change) int { return int(a.t - b.t) })
	for _, c := range changes {
		if c.t > end {
			break
		}
		if err := m.Modify(c.k, c.t, core.Int32(c.v)); err != nil {
			panic(err)
		}
	}
	if err := m.Close(end); err != nil {
		panic(err)
	}
	return m
}

// refCell is the brute-force answer for one cell.
type refCell struct {
	dur       map[core.Value]core.Time
	intervals int
}

func (r refCell) dominant() (core.Value, bool) {
	var best core.Value
	var bd core.Time = -1
	unique := false
	for v, d := range r.dur {
		switch {
		case d > bd:
			best, bd, unique = v, d, true
		case d == bd:
			unique = false
		}
	}
	return best, unique
}

func bruteForceCells(m *core.MemHistory, keys []core.Key, v frame.Window) []refCell {
	out := make([]refCell, len(keys)*v.Cols)
	for i := range out {
		out[i].dur = map[core.Value]core.Time{}
	}
	for r, k := range keys {
		for _, iv := range m.Intervals() {
			if iv.Key != k {
				continue
			}
			for c := range v.Cols {
				cs, ce := v.ColStart(c), v.ColEnd(c)
				if ce < cs || !iv.Intersects(cs, ce) {
					continue
				}
				rc := &out[r*v.Cols+c]
				rc.intervals++
				rc.dur[iv.Value] += min(iv.End, ce) - max(iv.Start, cs) + 1
			}
		}
	}
	return out
}

// randomFrameCase is a random history (read through the R-SHT stand-in
// every other iteration), its Threads/* keys and a random view of 1 to
// maxCols columns; wholeCols: at least a nanosecond per column.
func randomFrameCase(rng *rand.Rand, iter, maxCols int, wholeCols bool) (*core.MemHistory, core.History, []core.Key, frame.Window) {
	m := randomHistory(rng, 1+rng.IntN(4))
	var h core.History = m
	if iter%2 == 1 {
		h = frametest.NewIndexedHistory(m)
	}
	start, end := m.Bounds()
	keys := m.Attributes().Glob("Threads/*")
	view := frame.Window{Start: start, End: end, Cols: 1 + rng.IntN(maxCols)}
	span := core.Time(1 + rng.Int64N(int64(end-start+1)))
	if wholeCols {
		span += core.Time(view.Cols - 1)
	}
	return m, h, keys, view.WithRange(start+core.Time(rng.Int64N(int64(end-start+1))), span)
}

// TestFrameMatchesBruteForce checks both query modes against a brute-force
// reduction: exact mode gets every dominant state (when unique) and every
// "changed more than once" mark right; sampled mode gets every mark right
// and every unmarked cell's state right.
func TestFrameMatchesBruteForce(t *testing.T) {
	rng := coretest.Rand(t)
	for iter := range 200 {
		m, h, keys, view := randomFrameCase(rng, iter, 60, false)
		rows := make([]frame.FrameRow, len(keys))
		for i, k := range keys {
			rows[i] = frame.FrameRow{Key: k, Domain: frame.DomainThread}
		}
		cursor := view.T0 + core.Time(rng.Int64N(int64(view.Span())))
		ref := bruteForceCells(m, keys, view)
		for _, rate := range []float64{0, 1e9} { // 0: exact first; huge: sampled
			req := frame.FrameRequest{Now: time.Now, Hist: h, Window: view, Rows: rows, Cursor: cursor, Rate: rate}
			f := frame.RunFrame(context.Background(), req)
			if f.Err != nil {
				t.Fatal(f.Err)
			}
			for i, rc := range ref {
				got := f.Cells[i]
				r, c := i/view.Cols, i%view.Cols
				wantMulti := rc.intervals >= 3
				if got.Known != (rc.intervals > 0) || got.Multi != wantMulti {
					t.Fatalf("iter %d mode %v row %d col %d [%d,%d]: known=%v multi=%v, want known=%v multi=%v (%d intervals)",
						iter, f.Mode, r, c, view.ColStart(c), view.ColEnd(c), got.Known, got.Multi, rc.intervals > 0, wantMulti, rc.intervals)
				}
				if !got.Known {
					continue
				}
				dom, unique := rc.dominant()
				if !unique || (f.Mode == frame.ModeSampled && got.Multi) {
					continue
				}
				if want := frame.PaintOf(frame.DomainThread, dom); got.Paint != want {
					t.Fatalf("iter %d mode %v row %d col %d: paint %v, want %v (value %v, durations %v)", iter, f.Mode, r, c, got.Paint, want, dom, rc.dur)
				}
			}
			// The interval at the cursor is always known.
			for _, k := range keys {
				want, _, err := m.Single(context.Background(), k, cursor)
				if err != nil {
					t.Fatal(err)
				}
				if got := f.AtCursor[k]; got != want {
					t.Fatalf("mode %v: at cursor %v, want %v", f.Mode, got, want)
				}
			}
		}
	}
}

// TestExactGivesUpOnDenseRanges checks that a wrong density guess costs a
// bounded number of intervals before the frame is re-asked sampled.
func TestExactGivesUpOnDenseRanges(t *testing.T) {
	m := core.NewMemHistory(0)
	k := m.Attributes().AddPath("CPUs", "0")
	for i := 1; i < 100_000; i++ {
		if err := m.Modify(k, core.Time(i*10), core.Int32(int32(i%3))); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Close(1_000_000); err != nil {
		t.Fatal(err)
	}
	h := frametest.NewIndexedHistory(m)
	v := frame.Window{Start: 0, End: 1_000_000, Cols: 50}.Whole()
	f := frame.RunFrame(context.Background(), frame.FrameRequest{Now: time.Now, Hist: h, Window: v, Rows: []frame.FrameRow{{Key: k, Domain: frame.DomainCPU}}})
	if f.Mode != frame.ModeSampled {
		t.Fatalf("mode %v, want sampled after giving up", f.Mode)
	}
	if max := frame.ExactCap*50 + 1 + 4*50 + 1; f.Intervals > max {
		t.Errorf("read %d intervals, want at most %d", f.Intervals, max)
	}
	for i, c := range f.Cells {
		if !c.Known || !c.Multi {
			t.Fatalf("cell %d: %+v, want a known multi-change cell", i, c)
		}
	}
	// The next frame, told the measured density, goes sampled directly.
	g := frame.RunFrame(context.Background(), frame.FrameRequest{Now: time.Now, Hist: h, Window: v, Rows: []frame.FrameRow{{Key: k, Domain: frame.DomainCPU}}, Rate: f.Rate})
	if g.Mode != frame.ModeSampled || g.Intervals > 4*50+1 {
		t.Errorf("second frame: mode %v, %d intervals", g.Mode, g.Intervals)
	}
}

// TestIndexedHistoryMatchesMemHistory keeps the benchmark's stand-in
// honest: same answers as the reference on random queries.
func TestIndexedHistoryMatchesMemHistory(t *testing.T) {
	rng := coretest.Rand(t)
	ctx := context.Background()
	for range 50 {
		m := randomHistory(rng, 1+rng.IntN(4))
		h := frametest.NewIndexedHistory(m)
		start, end := m.Bounds()
		keys := m.Attributes().Glob("Threads/*")
		for range 20 {
			a := start + core.Time(rng.Int64N(int64(end-start+1)))
			b := a + core.Time(rng.Int64N(int64(end-a+1)))
			collect := func(q func(fn func(core.Interval) bool) (core.QueryStats, error)) []core.Interval {
				var out []core.Interval
				if _, err := q(func(iv core.Interval) bool { out = append(out, iv); return true }); err != nil {
					t.Fatal(err)
				}
				core.SortIntervals(out)
				return out
			}
			want := collect(func(fn func(core.Interval) bool) (core.QueryStats, error) { return m.Query2D(ctx, keys, a, b, fn) })
			got := collect(func(fn func(core.Interval) bool) (core.QueryStats, error) { return h.Query2D(ctx, keys, a, b, fn) })
			if !slices.Equal(got, want) {
				t.Fatalf("Query2D [%d,%d]: got %v, want %v", a, b, got, want)
			}
			times := []core.Time{b, a, start - 5, (a + b) / 2, end + 3, a}
			want = collect(func(fn func(core.Interval) bool) (core.QueryStats, error) {
				return m.Query2DTimes(ctx, keys, times, fn)
			})
			got = collect(func(fn func(core.Interval) bool) (core.QueryStats, error) {
				return h.Query2DTimes(ctx, keys, times, fn)
			})
			if !slices.Equal(got, want) {
				t.Fatalf("Query2DTimes %v: got %v, want %v", times, got, want)
			}
		}
	}
}

func TestTimeViewColumns(t *testing.T) {
	rng := coretest.Rand(t)
	for range 1000 {
		start := core.Time(rng.Int64N(1 << 60))
		v := frame.Window{Start: start, End: start + core.Time(rng.Int64N(1<<40)), Cols: 1 + rng.IntN(300)}
		v = v.WithRange(start+core.Time(rng.Int64N(int64(v.TraceSpan()))), core.Time(rng.Int64N(int64(v.TraceSpan()))+1))
		if v.T0 < v.Start || v.T1 > v.End || v.Span() < v.MinSpan() {
			t.Fatalf("view %+v outside bounds", v)
		}
		if v.ColStart(0) != v.T0 || v.ColStart(v.Cols) != v.T1+1 {
			t.Fatalf("view %+v: columns do not tile the range", v)
		}
		for range 20 {
			tm := v.T0 + core.Time(rng.Int64N(int64(v.Span())))
			c := v.ColOf(tm)
			if v.ColStart(c) > tm || v.ColEnd(c) < tm {
				t.Fatalf("view %+v: ColOf(%d) = %d covering [%d, %d]", v, tm, c, v.ColStart(c), v.ColEnd(c))
			}
		}
	}
}

// A string slice much shorter than a column (a 10 us Chrome slice in a
// 1 ms column) is drawn, marked as changed more than once, although null
// lasts longest there; a numeric state that short is not.
func TestShortSliceIsDrawn(t *testing.T) {
	m := core.NewMemHistory(0)
	at := m.Attributes()
	str, num := at.AddPath("Threads", "1:1"), at.AddPath("Threads", "2")
	for _, c := range []struct {
		k core.Key
		t core.Time
		v core.Value
	}{
		{str, 500_000, core.String("Task")}, {num, 500_000, core.Int32(2)},
		{str, 510_000, core.Null()}, {num, 510_000, core.Null()},
	} {
		if err := m.Modify(c.k, c.t, c.v); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Close(999_999); err != nil {
		t.Fatal(err)
	}
	view := frame.Window{Start: 0, End: 999_999, Cols: 1}.WithRange(0, 1_000_000)
	f := frame.RunFrame(context.Background(), frame.FrameRequest{Now: time.Now, Hist: m, Window: view, Cursor: 0,
		Rows: []frame.FrameRow{{Key: str, Domain: frame.DomainThread}, {Key: num, Domain: frame.DomainThread}}})
	if f.Err != nil {
		t.Fatal(f.Err)
	}
	if c := f.Cells[0]; !c.Known || !c.Multi || c.Paint != frame.PaintOf(frame.DomainThread, core.String("Task")) {
		t.Errorf("short string slice: %+v, want Task's paint, marked", c)
	}
	if c := f.Cells[1]; c.Paint != frame.PaintOf(frame.DomainThread, core.Null()) {
		t.Errorf("short numeric state: %+v, want null's paint (the longest)", c)
	}
}

// TestMeasuredRateDoesNotOscillate: a sampled frame keeps the earlier
// estimate, so the next frame samples again instead of trying exact,
// giving up and sampling (both queries, one key in two).
func TestMeasuredRateDoesNotOscillate(t *testing.T) {
	req := frame.FrameRequest{Window: frame.Window{T0: 0, T1: 999, Cols: 10}, Rows: make([]frame.FrameRow, 2), Rate: 0.05}
	area := 2.0 * 1000
	cases := []struct {
		name             string
		mode             frame.QueryMode
		intervals, count int
		want             float64
	}{
		{"exact counts all", frame.ModeExact, 30, 30, 30 / area},
		{"exact gave up", frame.ModeSampled, 200 + 10, 10, 200 / area},
		{"sampled keeps the estimate", frame.ModeSampled, 40, 40, 0.05},
		{"sampled raises it", frame.ModeSampled, 120, 120, 120 / area},
	}
	for _, c := range cases {
		f := &frame.Frame{Mode: c.mode, Intervals: c.intervals}
		if got := frame.MeasuredRate(req, f, c.count); got != c.want {
			t.Errorf("%s: rate %g, want %g", c.name, got, c.want)
		}
	}
}

// TestDensityPrior: the first frame of a trace whose intervals, spread
// over its rows, exceed what exact gives up at samples at once; a sparse
// one (every golden screen) is still asked exact.
func TestDensityPrior(t *testing.T) {
	info := frame.TraceInfo{Start: 0, End: 999, Intervals: 100 * 10 * 20}
	if got, want := frame.DensityPrior(info, 100), 0.2; got != want {
		t.Errorf("prior %g, want %g", got, want)
	}
	if got := frame.DensityPrior(frame.TraceInfo{End: 999}, 100); got != 0 {
		t.Errorf("prior without an interval count = %g, want 0", got)
	}
	m := randomHistory(coretest.Rand(t), 3)
	start, end := m.Bounds()
	keys := m.Attributes().Glob("Threads/*")
	rows := make([]frame.FrameRow, len(keys))
	for i, k := range keys {
		rows[i] = frame.FrameRow{Key: k, Domain: frame.DomainThread}
	}
	view := frame.Window{Start: start, End: end, Cols: 20}.Whole()
	cells := float64(len(rows) * view.Cols)
	area := float64(len(rows)) * float64(view.Span())
	for _, c := range []struct {
		perCell float64
		want    frame.QueryMode
	}{{frame.ExactCap - 1, frame.ModeExact}, {frame.ExactCap + 1, frame.ModeSampled}} {
		req := frame.FrameRequest{Now: time.Now, Hist: m, Window: view, Rows: rows, Rate: c.perCell * cells / area, Guessed: true}
		if f := frame.RunFrame(context.Background(), req); f.Mode != c.want && !(c.want == frame.ModeExact && f.Intervals > frame.ExactCap*int(cells)) {
			t.Errorf("guessed %g intervals per cell: %v, want %v", c.perCell, f.Mode, c.want)
		}
	}
}
