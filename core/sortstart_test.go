package core_test

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// TestSortByStart (property): rows of random lengths and starts (runs in
// order, shuffled runs, wide and narrow spans, short rows sorted by
// comparison, long ones by radix) come out as a comparison sort puts
// them, their intervals intact.
func TestSortByStart(t *testing.T) {
	rng := coretest.Rand(t)
	for round := range 200 {
		span := int64(1) << (1 + rng.IntN(62))
		n := int(min(int64(rng.IntN(3000)), span/2)) // distinct starts: room for them
		r := make([]core.Interval, n)
		seen := map[core.Time]bool{}
		for i := range r {
			s := core.Time(rng.Int64N(span))
			for seen[s] {
				s = core.Time(rng.Int64N(span))
			}
			seen[s] = true
			r[i] = core.Interval{Key: 7, Start: s, End: s, Value: core.Int64(int64(i))}
		}
		if rng.IntN(3) == 0 { // runs in order, as nodes give them
			slices.SortFunc(r, func(a, b core.Interval) int { return cmp.Compare(a.Start, b.Start) })
			for k := 0; k+1 < n; k += 1 + rng.IntN(64) {
				j := rng.IntN(n)
				r[k], r[j] = r[j], r[k]
			}
		}
		want := slices.Clone(r)
		slices.SortFunc(want, func(a, b core.Interval) int { return cmp.Compare(a.Start, b.Start) })
		core.SortByStart(r)
		if !slices.Equal(r, want) {
			t.Fatalf("round %d (%d intervals, span %d): not sorted as a comparison sort", round, n, span)
		}
	}
}

// TestSortByStartCancelled: a done context stops a long row's sort with
// its error, the row's intervals all still there; a short row, sorted by
// comparison at once, is sorted whatever the context.
func TestSortByStartCancelled(t *testing.T) {
	rng := coretest.Rand(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, n := range []int{100, 100_000} {
		r := make([]core.Interval, n)
		for i, p := range rng.Perm(n) {
			r[i] = core.Interval{Key: 7, Start: core.Time(p), End: core.Time(p), Value: core.Int64(int64(p))}
		}
		err := core.SortByStartContext(ctx, r)
		sorted := slices.IsSortedFunc(r, func(a, b core.Interval) int { return cmp.Compare(a.Start, b.Start) })
		if long := n >= 512; long != errors.Is(err, context.Canceled) || long == sorted {
			t.Fatalf("%d intervals: error %v, sorted %v", n, err, sorted)
		}
		seen := make([]bool, n)
		for _, iv := range r {
			seen[iv.Start] = true
		}
		if i := slices.Index(seen, false); i >= 0 {
			t.Fatalf("%d intervals: the one starting at %d is lost", n, i)
		}
	}
}
