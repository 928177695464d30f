package core

import (
	"context"
	"slices"
)

// Summary implements [Summarizer] by brute force, the reference the
// index's summaries are tested against: every key whose values are all
// summary values (null, int32 0..253) is served, whatever its path, one
// run per bucket, each bucket computed from the intervals overlapping it.
// Valid after Close.
func (m *MemHistory) Summary(ctx context.Context, keys []Key, t0, t1, width Time, fn func(Key, SummaryRun) bool) ([]Key, QueryStats, error) {
	st := QueryStats{NodesRead: 1}
	levels := SummaryLevels(m.start, m.end)
	li := SummaryLevelFor(levels, width)
	t0, t1 = max(t0, m.start), min(t1, m.end)
	if li < 0 || t0 > t1 {
		return nil, st, ctx.Err()
	}
	k := levels[li]
	var served []Key
	for _, key := range keys {
		if err := ctx.Err(); err != nil {
			return served, st, err
		}
		ivs := m.keyIntervals(key)
		if len(ivs) == 0 || slices.ContainsFunc(ivs, func(iv Interval) bool { _, ok := SummaryByte(iv.Value); return !ok }) {
			continue
		}
		served = append(served, key)
		for i := t0 >> k; i <= t1>>k; i++ {
			st.Intervals++
			if !fn(key, SummaryRun{Start: i << k, Shift: k, Count: 1, Bucket: m.bucket(ivs, i<<k, (i+1)<<k-1)}) {
				return served, st, nil
			}
		}
	}
	return served, st, nil
}

// keyIntervals returns key's intervals in time order.
func (m *MemHistory) keyIntervals(key Key) []Interval {
	lo, _ := slices.BinarySearchFunc(m.intervals, key, func(iv Interval, k Key) int { return int(iv.Key) - int(k) })
	hi := lo
	for hi < len(m.intervals) && m.intervals[hi].Key == key {
		hi++
	}
	return m.intervals[lo:hi]
}

// bucket summarises ivs (one key's, in time order) over [bs, be].
func (m *MemHistory) bucket(ivs []Interval, bs, be Time) SummaryBucket {
	var b SummaryBucket
	var durs [256]Time
	var order []byte
	first := true
	for _, iv := range ivs {
		if !iv.Intersects(bs, be) {
			continue
		}
		v, _ := SummaryByte(iv.Value)
		if first {
			b.First, first = v, false
		}
		if iv.Start != m.start && iv.Start > bs {
			b.Changes = uint8(min(int(b.Changes)+1, 255))
		}
		if iv.Start != m.start && iv.Start == bs {
			b.ChangedAtFirst = true
		}
		if durs[v] == 0 {
			order = append(order, v)
		}
		durs[v] += min(iv.End, be) - max(iv.Start, bs) + 1
	}
	if len(order) == 0 {
		return b
	}
	b.Dominant = order[0]
	for _, v := range order[1:] {
		if durs[v] > durs[b.Dominant] {
			b.Dominant = v
		}
	}
	return b
}
