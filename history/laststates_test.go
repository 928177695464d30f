package history

import (
	"cmp"
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// TestLastStatesOrder: lastStatesOrder orders the keys by (start, key), as
// a sort of every pair does, whether the starts spread over the trace
// (bins of a few keys, sorted by insertion), crowd into a few nanoseconds
// (one bin of many, sorted as packed words) or span more than packed
// words hold (a stable sort of the keys).
func TestLastStatesOrder(t *testing.T) {
	r := coretest.Rand(t)
	for round := range 200 {
		st := newStateTable()
		start := core.Time(r.Int64N(1 << 40))
		n := 1 + r.IntN(1<<r.IntN(17))
		st.grow(n, start)
		span := int64(1) << r.IntN(62)
		crowd := core.Time(r.Int64N(span)) // where crowded starts fall
		for k := range core.Key(n) {
			switch r.IntN(4) {
			case 0: // keeps the start: ties
			case 1: // within a few ns of others: a bin of many
				st.at(k).setSince(start + crowd + core.Time(r.IntN(8)))
			default:
				st.at(k).setSince(start + core.Time(r.Int64N(span)))
			}
		}
		want := pairSortedKeys(st)
		if got := lastStatesOrder(st, start); !slices.Equal(got, want) {
			t.Fatalf("round %d: %d keys over %d ns: order differs from the sort of (start, key) pairs", round, n, span)
		}
	}
	// A bin of keys too large, and starts too far apart, for packed words:
	// 19 bits of key beside 46 of start.
	st := newStateTable()
	n := 1<<18 + 100
	st.grow(n, 0)
	for k := core.Key(1 << 18); k < core.Key(n); k++ {
		st.at(k).setSince(core.Time(k%7) << 44)
	}
	st.at(0).setSince(1 << 62)
	if got, want := lastStatesOrder(st, 0), pairSortedKeys(st); !slices.Equal(got, want) {
		t.Fatalf("a bin of starts 2^46 ns apart: order differs from the sort of (start, key) pairs")
	}
}

// pairSortedKeys is the reference: st's keys sorted by (start, key).
func pairSortedKeys(st *stateTable) []core.Key {
	keys := make([]core.Key, st.len())
	for k := range keys {
		keys[k] = core.Key(k)
	}
	slices.SortFunc(keys, func(x, y core.Key) int {
		return cmp.Or(cmp.Compare(st.at(x).since(), st.at(y).since()), cmp.Compare(x, y))
	})
	return keys
}
