package history

import (
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// TestRowIndex (property): a key's row is its first position in the
// keys, -1 for a key not asked, whether the index is a slice (many keys
// among few) or a map (few keys with large numbers, negative keys).
func TestRowIndex(t *testing.T) {
	rng := coretest.Rand(t)
	for round := range 200 {
		n := 1 + rng.IntN(50)
		spread := []int64{2 * int64(n), 100_000}[rng.IntN(2)]
		keys := make([]core.Key, n)
		for i := range keys {
			keys[i] = core.Key(rng.Int64N(spread) - 1)
		}
		x := newRowIndex(keys)
		for probe := core.Key(-3); probe < core.Key(spread)+3; probe += 1 + core.Key(rng.Int64N(spread/50+1)) {
			want := slices.Index(keys, probe)
			if got := x.of(probe); got != want {
				t.Fatalf("round %d: keys %v (dense %d): key %d at %d, want %d", round, keys, len(x.dense), probe, got, want)
			}
		}
		for i, k := range keys {
			if got := x.of(k); got != slices.Index(keys, k) || got > i {
				t.Fatalf("round %d: key %d at %d, first at %d", round, k, got, slices.Index(keys, k))
			}
		}
	}
}
