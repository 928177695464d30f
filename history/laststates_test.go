package history

import (
	"math"
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// TestLastStatesOrder: the packed sort and the pair sort order the keys
// alike (by start, then key), and lastStatesOrder falls back to pairs when
// the start times do not fit beside the keys.
func TestLastStatesOrder(t *testing.T) {
	r := coretest.Rand(t)
	for round := range 50 {
		st := newStateTable()
		start := core.Time(r.Int64N(1 << 40))
		n := 1 + r.IntN(3000)
		st.grow(n, start)
		span := int64(1) << r.IntN(40)
		for k := range core.Key(n) {
			if r.IntN(4) > 0 { // some keep the start: ties
				st.at(k).setSince(start + core.Time(r.Int64N(span)))
			}
		}
		want := slices.Collect(pairOrder(st))
		for i := 1; i < len(want); i++ {
			a, b := st.at(want[i-1]).since(), st.at(want[i]).since()
			if a > b || a == b && want[i-1] > want[i] {
				t.Fatalf("round %d: pair order not by (start, key) at %d", round, i)
			}
		}
		if got := slices.Collect(lastStatesOrder(st, start)); !slices.Equal(got, want) {
			t.Fatalf("round %d: %d keys over %d ns: packed order differs from the pair order", round, n, span)
		}
	}
	// A start near the end of time leaves no room for the keys.
	st := newStateTable()
	st.grow(3, 0)
	st.at(0).setSince(math.MaxInt64)
	if got := slices.Collect(lastStatesOrder(st, 0)); !slices.Equal(got, []core.Key{1, 2, 0}) {
		t.Fatalf("order %v, want [1 2 0]", got)
	}
}
