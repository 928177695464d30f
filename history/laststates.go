package history

import (
	"cmp"
	"math/bits"
	"slices"

	"github.com/tracetui/tracetui/core"
)

// lastBinBits bounds the bins of lastStatesOrder: 1<<16 at most (as many
// as keys below that), whose counts (256 KiB) stay in the L2 cache while
// the keys are scattered.
const lastBinBits = 16

// lastStatesOrder returns the keys of st by the start of their current
// state, then by key: the order in which Close ends them. It is a bucket
// sort: the keys are scattered, in key order, into bins of equal width
// over the starts, and each bin is then sorted by start. It holds one
// int32 per key: the build ends at its peak of memory, and a sort of
// packed (start, key) words took twice that (103 MB at 12.9 M keys), in
// fresh pages (the fill loop of 1.6 M keys took as long as their sort).
// Starts spread over the trace make bins of a few keys; a bin of many
// (keys that changed within a few nanoseconds of each other, or never) is
// sorted on its own, in a buffer the size of the largest such bin.
func lastStatesOrder(st *stateTable, start core.Time) []core.Key {
	n := st.len()
	var latest uint64
	for k := range core.Key(n) {
		latest = max(latest, uint64(st.at(k).since()-start))
	}
	binBits := min(lastBinBits, bits.Len(uint(n)))
	shift := max(0, bits.Len64(latest)-binBits)
	bin := func(k core.Key) uint64 { return uint64(st.at(k).since()-start) >> shift }
	// ends[b] counts bin b's keys, then holds where its next key goes,
	// then where it ends.
	ends := make([]int32, 1<<binBits)
	for k := range core.Key(n) {
		ends[bin(k)]++
	}
	at := int32(0)
	for b, c := range ends {
		ends[b], at = at, at+c
	}
	order := make([]core.Key, n)
	for k := range core.Key(n) {
		b := bin(k)
		order[ends[b]] = k
		ends[b]++
	}
	var s binSorter
	lo := int32(0)
	for _, hi := range ends {
		s.sort(st, start, order[lo:hi])
		lo = hi
	}
	return order
}

// binSorter sorts the bins of lastStatesOrder.
type binSorter struct{ packed []uint64 }

// smallBin is the size up to which a bin is sorted by insertion.
const smallBin = 16

// sort sorts keys, given in key order, stably by their start.
func (s *binSorter) sort(st *stateTable, start core.Time, keys []core.Key) {
	since := func(k core.Key) core.Time { return st.at(k).since() }
	if len(keys) <= smallBin {
		for i := 1; i < len(keys); i++ {
			k, t := keys[i], since(keys[i])
			j := i
			for ; j > 0 && since(keys[j-1]) > t; j-- {
				keys[j] = keys[j-1]
			}
			keys[j] = k
		}
		return
	}
	// (start - the bin's earliest) << keyBits | key, when that fits: a
	// sort of words, without looking the starts up again.
	first, last := since(keys[0]), since(keys[0])
	for _, k := range keys {
		first, last = min(first, since(k)), max(last, since(k))
	}
	keyBits := bits.Len32(uint32(keys[len(keys)-1]))
	if bits.Len64(uint64(last-first))+keyBits > 64 {
		slices.SortStableFunc(keys, func(x, y core.Key) int { return cmp.Compare(since(x), since(y)) })
		return
	}
	s.packed = s.packed[:0]
	for _, k := range keys {
		s.packed = append(s.packed, uint64(since(k)-first)<<keyBits|uint64(k))
	}
	slices.Sort(s.packed)
	mask := uint64(1)<<keyBits - 1
	for i, p := range s.packed {
		keys[i] = core.Key(p & mask)
	}
}
