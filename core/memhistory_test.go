package core_test

import (
	"context"
	"errors"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

func TestMemHistorySemantics(t *testing.T) {
	m := core.NewMemHistory(100)
	a := m.Attributes().AddPath("Threads", "1")
	must(t, m.Modify(a, 110, core.Int32(2)))
	must(t, m.Modify(a, 110, core.Int32(3))) // same instant: the last wins, nothing stored
	must(t, m.Modify(a, 120, core.Int32(3))) // same value: ignored
	must(t, m.Modify(a, 130, core.String("x")))
	b := m.Attributes().AddPath("CPUs", "0") // created late: null from the start
	must(t, m.Modify(b, 150, core.Int32(1)))
	must(t, m.Close(200))
	want := []core.Interval{
		{Key: 0, Start: 100, End: 200}, // "Threads", never set
		{Key: a, Start: 100, End: 109},
		{Key: a, Start: 110, End: 129, Value: core.Int32(3)},
		{Key: a, Start: 130, End: 200, Value: core.String("x")},
		{Key: 2, Start: 100, End: 200}, // "CPUs"
		{Key: b, Start: 100, End: 149},
		{Key: b, Start: 150, End: 200, Value: core.Int32(1)},
	}
	got := m.Intervals()
	if len(got) != len(want) {
		t.Fatalf("intervals = %v\nwant %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("interval %d = %v, want %v", i, got[i], want[i])
		}
	}
	ctx := context.Background()
	iv, _, err := m.Single(ctx, a, 129)
	if err != nil || iv.Value != core.Int32(3) {
		t.Errorf("Single(a, 129) = %v, %v", iv, err)
	}
	if _, _, err := m.Single(ctx, a, 201); !errors.Is(err, core.ErrNoState) {
		t.Errorf("Single past the end: %v", err)
	}
	if err := m.Modify(a, 300, core.Null()); !errors.Is(err, core.ErrClosed) {
		t.Errorf("Modify after Close: %v", err)
	}
}

func TestMemHistoryRejects(t *testing.T) {
	m := core.NewMemHistory(0)
	k := m.Attributes().AddPath("k")
	must(t, m.Modify(k, 50, core.Int32(1)))
	if err := m.Modify(k, 40, core.Int32(2)); !errors.Is(err, core.ErrTimeOrder) {
		t.Errorf("change back in time: %v", err)
	}
	if err := m.Modify(7, 60, core.Int32(2)); !errors.Is(err, core.ErrBadKey) {
		t.Errorf("unknown key: %v", err)
	}
	if err := m.Modify(k, 60, core.String("\xff")); !errors.Is(err, core.ErrBadValue) {
		t.Errorf("invalid UTF-8: %v", err)
	}
	if err := m.Close(10); !errors.Is(err, core.ErrTimeOrder) {
		t.Errorf("close before last change: %v", err)
	}
}

// TestMemHistoryTilesAndQueries drives random changes and checks that the
// intervals tile the trace and that the 2D queries agree with a direct
// reading of the tiling.
func TestMemHistoryTilesAndQueries(t *testing.T) {
	r := coretest.Rand(t)
	const start, end = 1000, 5000
	m := core.NewMemHistory(start)
	keys := 1 + r.IntN(20)
	for i := range keys {
		m.Attributes().AddPath("a", string(rune('a'+i)))
	}
	now := core.Time(start)
	for range 300 {
		now += core.Time(r.IntN(15))
		if now > end {
			break
		}
		must(t, m.Modify(core.Key(r.IntN(m.Attributes().Len())), now, core.Int32(int32(r.IntN(4)))))
	}
	must(t, m.Close(end))
	coretest.CheckTiling(t, m.Intervals(), m.Attributes().Len(), start, end)

	ctx := context.Background()
	qk := []core.Key{core.Key(r.IntN(keys)), core.Key(r.IntN(keys))}
	t0 := core.Time(start + r.IntN(end-start))
	t1 := min(t0+core.Time(r.IntN(500)), end)
	var got []core.Interval
	if _, err := m.Query2D(ctx, qk, t0, t1, func(iv core.Interval) bool { got = append(got, iv); return true }); err != nil {
		t.Fatal(err)
	}
	for _, k := range qk {
		// Walking the tiling from t0 to t1 must visit exactly the returned intervals.
		for at := t0; at <= t1; {
			iv, _, err := m.Single(ctx, k, at)
			if err != nil {
				t.Fatal(err)
			}
			if !contains(got, iv) {
				t.Fatalf("Query2D missed %v", iv)
			}
			at = iv.End + 1
		}
	}
}

// TestMemHistoryReversedRange: Query2D over [t0, t1] with t0 > t1 returns
// nothing (the range holds no time), however the keys cover it.
func TestMemHistoryReversedRange(t *testing.T) {
	m := core.NewMemHistory(0)
	k := m.Attributes().AddPath("k")
	must(t, m.Modify(k, 50, core.Int32(1)))
	must(t, m.Close(100))
	ctx := context.Background()
	count := func(t0, t1 core.Time) int {
		n := 0
		if _, err := m.Query2D(ctx, []core.Key{k}, t0, t1, func(core.Interval) bool { n++; return true }); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if got := count(60, 40); got != 0 {
		t.Errorf("Query2D(60, 40) gave %d intervals, want none", got)
	}
	if got := count(40, 60); got != 2 {
		t.Errorf("Query2D(40, 60) gave %d intervals, want 2", got)
	}
	if got := count(50, 50); got != 1 {
		t.Errorf("Query2D(50, 50) gave %d intervals, want 1", got)
	}
}

func contains(ivs []core.Interval, want core.Interval) bool {
	for _, iv := range ivs {
		if iv == want {
			return true
		}
	}
	return false
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
