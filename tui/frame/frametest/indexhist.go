package frametest

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/tracetui/tracetui/core"
)

// IndexedHistory is a test stand-in for the on-disk R-SHT: per-key sorted
// interval slices answered by binary search. Its queries cost about what a
// warm R-SHT query costs per interval returned, without node reads, so the
// benchmark measures the browser's own cost per frame. (core.MemHistory
// scans every interval per query: too slow for 50 k threads.)
//
// Intervals are stored without pointers (values interned in a table) so
// the garbage collector does not scan millions of them: like the on-disk
// tree, the stand-in keeps the Go heap small and does not inflate the
// browser's GC pauses.
type IndexedHistory struct {
	Tree       *core.AttributeTree
	Start, End core.Time
	ByKey      [][]ivRec // per key, sorted by Start, tiling [start, end]
	values     []core.Value
	valueIDs   map[core.Value]uint32
}

// ivRec is a stored interval: times and an index into values.
type ivRec struct {
	start, end core.Time
	v          uint32
}

func (h *IndexedHistory) rec(iv core.Interval) ivRec {
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

// Put stores the intervals of key k (sorted, tiling the bounds).
func (h *IndexedHistory) Put(k core.Key, ivs []core.Interval) {
	for len(h.ByKey) <= int(k) {
		h.ByKey = append(h.ByKey, nil)
	}
	recs := make([]ivRec, len(ivs))
	for i, iv := range ivs {
		recs[i] = h.rec(iv)
	}
	h.ByKey[k] = recs
}

func (h *IndexedHistory) interval(k core.Key, i int) core.Interval {
	r := h.ByKey[k][i]
	return core.Interval{Key: k, Start: r.start, End: r.end, Value: h.values[r.v]}
}

// NewIndexedHistory indexes the intervals of a closed MemHistory.
func NewIndexedHistory(m *core.MemHistory) *IndexedHistory {
	h := &IndexedHistory{Tree: m.Attributes(), ByKey: make([][]ivRec, m.Attributes().Len())}
	h.Start, h.End = m.Bounds()
	for _, iv := range m.Intervals() { // sorted by key, then time
		h.ByKey[iv.Key] = append(h.ByKey[iv.Key], h.rec(iv))
	}
	return h
}

func (h *IndexedHistory) Attributes() *core.AttributeTree { return h.Tree }
func (h *IndexedHistory) Bounds() (core.Time, core.Time)  { return h.Start, h.End }

// find returns the index of the interval of k containing t, or -1.
func (h *IndexedHistory) find(k core.Key, t core.Time) int {
	if k < 0 || int(k) >= len(h.ByKey) {
		return -1
	}
	ivs := h.ByKey[k]
	i := sort.Search(len(ivs), func(i int) bool { return ivs[i].end >= t })
	if i < len(ivs) && ivs[i].start <= t {
		return i
	}
	return -1
}

func (h *IndexedHistory) Single(ctx context.Context, k core.Key, t core.Time) (core.Interval, core.QueryStats, error) {
	if err := ctx.Err(); err != nil {
		return core.Interval{}, core.QueryStats{}, err
	}
	if !h.Tree.Valid(k) {
		return core.Interval{}, core.QueryStats{}, fmt.Errorf("%w: %d", core.ErrBadKey, k)
	}
	i := h.find(k, t)
	if i < 0 {
		return core.Interval{}, core.QueryStats{}, fmt.Errorf("%w: key %d at %d", core.ErrNoState, k, t)
	}
	return h.interval(k, i), core.QueryStats{NodesRead: 1, Intervals: 1}, nil
}

func (h *IndexedHistory) Full(ctx context.Context, t core.Time, fn func(core.Interval) bool) (core.QueryStats, error) {
	var st core.QueryStats
	for k := range h.ByKey {
		if i := h.find(core.Key(k), t); i >= 0 {
			st.Intervals++
			if !fn(h.interval(core.Key(k), i)) {
				break
			}
		}
	}
	return st, ctx.Err()
}

func (h *IndexedHistory) Query2D(ctx context.Context, keys []core.Key, t0, t1 core.Time, fn func(core.Interval) bool) (core.QueryStats, error) {
	var st core.QueryStats
	for _, k := range dedupKeys(keys) {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		if k < 0 || int(k) >= len(h.ByKey) {
			continue
		}
		ivs := h.ByKey[k]
		for i := sort.Search(len(ivs), func(i int) bool { return ivs[i].end >= t0 }); i < len(ivs) && ivs[i].start <= t1; i++ {
			st.Intervals++
			if !fn(h.interval(k, i)) {
				return st, nil
			}
		}
	}
	return st, nil
}

func (h *IndexedHistory) Query2DTimes(ctx context.Context, keys []core.Key, times []core.Time, fn func(core.Interval) bool) (core.QueryStats, error) {
	var st core.QueryStats
	sorted := slices.Clone(times)
	slices.Sort(sorted)
	for _, k := range dedupKeys(keys) {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		if k < 0 || int(k) >= len(h.ByKey) {
			continue
		}
		ivs := h.ByKey[k]
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
