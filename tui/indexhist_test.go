package tui

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/tracetui/tracetui/core"
)

// indexedHistory is a test stand-in for the on-disk R-SHT: per-key sorted
// interval slices answered by binary search. Its queries cost about what a
// warm R-SHT query costs per interval returned, without node reads, so the
// benchmark measures the browser's own cost per frame. (core.MemHistory
// scans every interval per query: too slow for 50 k threads.)
//
// Intervals are stored without pointers (values interned in a table) so
// the garbage collector does not scan millions of them: like the on-disk
// tree, the stand-in keeps the Go heap small and does not inflate the
// browser's GC pauses.
type indexedHistory struct {
	tree       *core.AttributeTree
	start, end core.Time
	byKey      [][]ivRec // per key, sorted by Start, tiling [start, end]
	values     []core.Value
	valueIDs   map[core.Value]uint32
}

// ivRec is a stored interval: times and an index into values.
type ivRec struct {
	start, end core.Time
	v          uint32
}

func (h *indexedHistory) rec(iv core.Interval) ivRec {
	if h.valueIDs == nil {
		h.valueIDs = map[core.Value]uint32{}
	}
	id, ok := h.valueIDs[iv.Value]
	if !ok {
		id = uint32(len(h.values))
		h.values = append(h.values, iv.Value)
		h.valueIDs[iv.Value] = id
	}
	return ivRec{iv.Start, iv.End, id}
}

// put stores the intervals of key k (sorted, tiling the bounds).
func (h *indexedHistory) put(k core.Key, ivs []core.Interval) {
	for len(h.byKey) <= int(k) {
		h.byKey = append(h.byKey, nil)
	}
	recs := make([]ivRec, len(ivs))
	for i, iv := range ivs {
		recs[i] = h.rec(iv)
	}
	h.byKey[k] = recs
}

func (h *indexedHistory) interval(k core.Key, i int) core.Interval {
	r := h.byKey[k][i]
	return core.Interval{Key: k, Start: r.start, End: r.end, Value: h.values[r.v]}
}

// newIndexedHistory indexes the intervals of a closed MemHistory.
func newIndexedHistory(m *core.MemHistory) *indexedHistory {
	h := &indexedHistory{tree: m.Attributes(), byKey: make([][]ivRec, m.Attributes().Len())}
	h.start, h.end = m.Bounds()
	for _, iv := range m.Intervals() { // sorted by key, then time
		h.byKey[iv.Key] = append(h.byKey[iv.Key], h.rec(iv))
	}
	return h
}

func (h *indexedHistory) Attributes() *core.AttributeTree { return h.tree }
func (h *indexedHistory) Bounds() (core.Time, core.Time)  { return h.start, h.end }

// find returns the index of the interval of k containing t, or -1.
func (h *indexedHistory) find(k core.Key, t core.Time) int {
	if k < 0 || int(k) >= len(h.byKey) {
		return -1
	}
	ivs := h.byKey[k]
	i := sort.Search(len(ivs), func(i int) bool { return ivs[i].end >= t })
	if i < len(ivs) && ivs[i].start <= t {
		return i
	}
	return -1
}

func (h *indexedHistory) Single(ctx context.Context, k core.Key, t core.Time) (core.Interval, core.QueryStats, error) {
	if err := ctx.Err(); err != nil {
		return core.Interval{}, core.QueryStats{}, err
	}
	if !h.tree.Valid(k) {
		return core.Interval{}, core.QueryStats{}, fmt.Errorf("%w: %d", core.ErrBadKey, k)
	}
	i := h.find(k, t)
	if i < 0 {
		return core.Interval{}, core.QueryStats{}, fmt.Errorf("%w: key %d at %d", core.ErrNoState, k, t)
	}
	return h.interval(k, i), core.QueryStats{NodesRead: 1, Intervals: 1}, nil
}

func (h *indexedHistory) Full(ctx context.Context, t core.Time, fn func(core.Interval) bool) (core.QueryStats, error) {
	var st core.QueryStats
	for k := range h.byKey {
		if i := h.find(core.Key(k), t); i >= 0 {
			st.Intervals++
			if !fn(h.interval(core.Key(k), i)) {
				break
			}
		}
	}
	return st, ctx.Err()
}

func (h *indexedHistory) Query2D(ctx context.Context, keys []core.Key, t0, t1 core.Time, fn func(core.Interval) bool) (core.QueryStats, error) {
	var st core.QueryStats
	for _, k := range dedupKeys(keys) {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		if k < 0 || int(k) >= len(h.byKey) {
			continue
		}
		ivs := h.byKey[k]
		for i := sort.Search(len(ivs), func(i int) bool { return ivs[i].end >= t0 }); i < len(ivs) && ivs[i].start <= t1; i++ {
			st.Intervals++
			if !fn(h.interval(k, i)) {
				return st, nil
			}
		}
	}
	return st, nil
}

func (h *indexedHistory) Query2DTimes(ctx context.Context, keys []core.Key, times []core.Time, fn func(core.Interval) bool) (core.QueryStats, error) {
	var st core.QueryStats
	sorted := slices.Clone(times)
	slices.Sort(sorted)
	for _, k := range dedupKeys(keys) {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		if k < 0 || int(k) >= len(h.byKey) {
			continue
		}
		ivs := h.byKey[k]
		last, lo := -1, 0
		for j := 0; j < len(sorted); {
			t := sorted[j]
			// Times ascend: search only after the last interval met.
			i := lo + sort.Search(len(ivs)-lo, func(i int) bool { return ivs[lo+i].end >= t })
			lo = i
			if i >= len(ivs) {
				break
			}
			if ivs[i].start > t { // t before the key's first interval
				j++
				continue
			}
			if i != last {
				last = i
				st.Intervals++
				if !fn(h.interval(k, i)) {
					return st, nil
				}
			}
			// Skip the times this interval covers.
			end := ivs[i].end
			for j < len(sorted) && sorted[j] <= end {
				j++
			}
		}
	}
	return st, nil
}

func dedupKeys(keys []core.Key) []core.Key {
	out := slices.Clone(keys)
	slices.Sort(out)
	return slices.Compact(out)
}
