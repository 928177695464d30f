package history

import (
	"cmp"
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
)

// TestSortByKeyMatchesStableSort checks the radix sort against a stable
// comparison sort on buffers whose sort keys span from 0 to 47 bits (one
// pass to four), including buffers refilled after an earlier sort.
func TestSortByKeyMatchesStableSort(t *testing.T) {
	rng := coretest.Rand(t)
	b := &rbuffer{}
	for round := range 200 {
		n := rng.IntN(3000)
		keyBits := rng.IntN(32)
		classes := 1 + rng.IntN(1<<rng.IntN(17))
		lo := uint16(rng.IntN(1<<16 - classes + 1))
		b.recs = b.recs[:0]
		for i := range n {
			k := int32(0)
			if keyBits > 0 {
				k = int32(rng.Uint32() >> (32 - keyBits) >> 1)
			}
			b.recs = append(b.recs, rec{start: int64(i), end: int64(i), key: k, class: lo + uint16(rng.IntN(classes))})
		}
		want := slices.Clone(b.recs)
		slices.SortStableFunc(want, func(x, y rec) int {
			return cmp.Or(cmp.Compare(x.class, y.class), cmp.Compare(x.key, y.key))
		})
		b.sortByKey()
		if !slices.Equal(b.recs, want) || !slices.Equal(b.sorted, want) {
			t.Fatalf("round %d: %d records, %d key bits, classes %d..%d: sort differs", round, n, keyBits, lo, int(lo)+classes-1)
		}
	}
}
