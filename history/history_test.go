package history

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// testConfigs are small blocks and fan-outs, so that a few thousand
// intervals make deep trees, plus the defaults.
var testConfigs = []Options{
	{BlockSize: 2048, MaxChildren: 3},
	{BlockSize: 2048, MaxChildren: 4, RHeight: 2},
	{BlockSize: 2048, MaxChildren: 5, RHeight: 3, MaxRHeight: 3},
	{},
}

// TestMatchesMemHistory is the main property test: random changes built
// into MemHistory (the reference) and into every layout, then every kind
// of query compared.
func TestMatchesMemHistory(t *testing.T) {
	r := coretest.Rand(t)
	for round := range 3 {
		n := 500 + r.IntN(6000)
		keys := []int{3, 60, 2500}[round]
		s := randomScenario(r, n, keys)
		mem := core.NewMemHistory(s.start)
		s.replay(t, mem)
		for _, layout := range []Layout{LayoutRSHT, LayoutESHT, LayoutSHT} {
			for ci, o := range testConfigs {
				o.Layout = layout
				t.Run(fmt.Sprintf("round%d/%s/cfg%d", round, layout, ci), func(t *testing.T) {
					tr := openChecked(t, buildScenario(t, s, o), OpenOptions{CacheBytes: []int64{-1, 0, 16 * 15_000}[r.IntN(3)]})
					compareHistories(t, r, mem, tr)
				})
			}
		}
	}
}

func compareHistories(t *testing.T, r *rand.Rand, mem *core.MemHistory, tr *Tree) {
	t.Helper()
	start, end := mem.Bounds()
	if s, e := tr.Bounds(); s != start || e != end {
		t.Fatalf("Bounds = %d, %d; want %d, %d", s, e, start, end)
	}
	if got, want := tr.Attributes().Len(), mem.Attributes().Len(); got != want {
		t.Fatalf("%d attributes, want %d", got, want)
	}
	for k := range tr.Attributes().Len() {
		if got, want := tr.Attributes().Path(core.Key(k)), mem.Attributes().Path(core.Key(k)); got != want {
			t.Fatalf("key %d: path %q, want %q", k, got, want)
		}
	}
	keys := allKeys(mem)
	all := collect(t, func(fn func(core.Interval) bool) (core.QueryStats, error) {
		return tr.Query2D(bg, keys, core.MinTime, core.MaxTime, fn)
	})
	if !slices.Equal(all, mem.Intervals()) {
		t.Fatalf("all intervals differ: %d vs %d\n%v\n%v", len(all), len(mem.Intervals()), head(all), head(mem.Intervals()))
	}
	coretest.CheckTiling(t, all, len(keys), start, end)
	if info := tr.Info(); info.Intervals != int64(len(all)) || info.Attributes != len(keys) {
		t.Fatalf("Info = %+v, want %d intervals", info, len(all))
	}

	randTime := func() core.Time {
		switch r.IntN(10) {
		case 0:
			return start - 1 - core.Time(r.IntN(3))
		case 1:
			return end + 1 + core.Time(r.IntN(3))
		case 2:
			return start
		case 3:
			return end
		}
		return start + core.Time(r.Int64N(int64(end-start)+1))
	}
	shapes := newClasser(false)
	shapes.extend(mem.Attributes())
	randKeys := func() []core.Key {
		var ks []core.Key
		switch r.IntN(6) {
		case 4, 5: // every key of one or two classes (the process tree's query), in any order
			want := []uint16{shapes.class(core.Key(r.IntN(len(keys)))), shapes.class(core.Key(r.IntN(len(keys))))}
			for _, k := range r.Perm(len(keys)) {
				if slices.Contains(want, shapes.class(core.Key(k))) {
					ks = append(ks, core.Key(k))
				}
			}
		case 0: // a run of rows, as a view shows
			lo := r.IntN(len(keys))
			for k := lo; k < min(len(keys), lo+1+r.IntN(60)); k++ {
				ks = append(ks, core.Key(k))
			}
		default:
			for range r.IntN(12) {
				ks = append(ks, core.Key(r.IntN(len(keys)+2)-1)) // includes -1 and Len
			}
		}
		return ks
	}

	for range 300 {
		k, at := core.Key(r.IntN(len(keys)+2)-1), randTime()
		got, _, gerr := tr.Single(bg, k, at)
		want, _, werr := mem.Single(bg, k, at)
		if (gerr == nil) != (werr == nil) || got != want || gerr != nil && !errors.Is(gerr, core.ErrNoState) {
			t.Fatalf("Single(%d, %d) = %v, %v; want %v, %v", k, at, got, gerr, want, werr)
		}
	}
	for range 40 {
		at := randTime()
		got := collect(t, func(fn func(core.Interval) bool) (core.QueryStats, error) { return tr.Full(bg, at, fn) })
		want := collect(t, func(fn func(core.Interval) bool) (core.QueryStats, error) { return mem.Full(bg, at, fn) })
		if !slices.Equal(got, want) {
			t.Fatalf("Full(%d): %d intervals, want %d", at, len(got), len(want))
		}
	}
	for range 80 {
		ks := randKeys()
		t0, t1 := randTime(), randTime() // reversed ranges too: nothing from both
		got := collect(t, func(fn func(core.Interval) bool) (core.QueryStats, error) { return tr.Query2D(bg, ks, t0, t1, fn) })
		want := collect(t, func(fn func(core.Interval) bool) (core.QueryStats, error) { return mem.Query2D(bg, ks, t0, t1, fn) })
		if !slices.Equal(got, want) {
			t.Fatalf("Query2D(%v, %d, %d): %d intervals, want %d\n%v\n%v", ks, t0, t1, len(got), len(want), head(got), head(want))
		}
		rows, _, err := Rows(bg, tr, ks, t0, t1)
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range ks {
			if got := rows[i]; !slices.Equal(got, rowOf(want, k)) {
				t.Fatalf("Rows row %d (key %d) = %v, want %v", i, k, got, rowOf(want, k))
			}
		}
		times := make([]core.Time, r.IntN(30))
		for i := range times {
			times[i] = randTime()
		}
		got = collect(t, func(fn func(core.Interval) bool) (core.QueryStats, error) { return tr.Query2DTimes(bg, ks, times, fn) })
		want = collect(t, func(fn func(core.Interval) bool) (core.QueryStats, error) { return mem.Query2DTimes(bg, ks, times, fn) })
		if !slices.Equal(got, want) {
			t.Fatalf("Query2DTimes(%v, %v): %d intervals, want %d", ks, times, len(got), len(want))
		}
		rows, _, err = RowsAt(bg, tr, ks, times)
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range ks {
			if got := rows[i]; !slices.Equal(got, rowOf(want, k)) {
				t.Fatalf("RowsAt row %d (key %d) = %v, want %v", i, k, got, rowOf(want, k))
			}
		}
	}

	// A callback returning false stops the walk at once, without error.
	stopAt := 1 + r.IntN(len(all))
	calls := 0
	if _, err := tr.Query2D(bg, keys, core.MinTime, core.MaxTime, func(core.Interval) bool { calls++; return calls < stopAt }); err != nil || calls != stopAt {
		t.Fatalf("early stop: %d calls, want %d (err %v)", calls, stopAt, err)
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if _, err := tr.Full(ctx, start, func(core.Interval) bool { return true }); !errors.Is(err, context.Canceled) {
		t.Fatalf("Full with a cancelled context: %v", err)
	}
	if _, _, err := tr.Single(ctx, 0, start); !errors.Is(err, context.Canceled) {
		t.Fatalf("Single with a cancelled context: %v", err)
	}
}

// rowOf returns the intervals of key k in sorted ivs.
func rowOf(ivs []core.Interval, k core.Key) []core.Interval {
	var row []core.Interval
	for _, iv := range ivs {
		if iv.Key == k {
			row = append(row, iv)
		}
	}
	return row
}

func head(ivs []core.Interval) []core.Interval { return ivs[:min(len(ivs), 8)] }

// TestExtremeTimes: a trace spanning the whole int64 range round-trips.
func TestExtremeTimes(t *testing.T) {
	s := &scenario{start: core.MinTime, end: core.MaxTime}
	s.ops = []scenarioOp{{path: []string{"k"}}, {path: []string{"j"}},
		{key: 0, t: core.MinTime + 1, v: core.Int64(1)}, {key: 1, t: 0, v: core.String("zero")},
		{key: 0, t: core.MaxTime - 1, v: core.Float64(-1)}}
	mem := core.NewMemHistory(s.start)
	s.replay(t, mem)
	for _, l := range []Layout{LayoutRSHT, LayoutESHT, LayoutSHT} {
		tr := openChecked(t, buildScenario(t, s, Options{Layout: l}), OpenOptions{})
		got := collect(t, func(fn func(core.Interval) bool) (core.QueryStats, error) {
			return tr.Query2D(bg, []core.Key{0, 1}, core.MinTime, core.MaxTime, fn)
		})
		if !slices.Equal(got, mem.Intervals()) {
			t.Errorf("%s: %v, want %v", l, got, mem.Intervals())
		}
	}
}
