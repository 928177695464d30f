package core

import (
	"context"
	"fmt"
	"slices"
)

// MemHistory is the brute-force reference: a [StateSink] that keeps every
// interval in memory and a [History] that answers by scanning them all.
// Correct by inspection, slow by design; tests compare the on-disk tree
// and the analyses against it.
type MemHistory struct {
	tree      *AttributeTree
	start     Time
	end       Time
	last      Time // latest change time seen
	closed    bool
	cur       []Value // current value per key
	since     []Time  // start of the current state per key
	intervals []Interval
}

// NewMemHistory returns an empty history starting at start.
func NewMemHistory(start Time) *MemHistory {
	return &MemHistory{tree: NewAttributeTree(), start: start, end: start, last: start}
}

// Attributes implements [StateSink] and [History].
func (m *MemHistory) Attributes() *AttributeTree { return m.tree }

func (m *MemHistory) grow() {
	for len(m.cur) < m.tree.Len() {
		m.cur = append(m.cur, Null())
		m.since = append(m.since, m.start)
	}
}

// Modify implements [StateSink].
func (m *MemHistory) Modify(key Key, t Time, v Value) error {
	if m.closed {
		return ErrClosed
	}
	if !m.tree.Valid(key) {
		return fmt.Errorf("%w: %d", ErrBadKey, key)
	}
	if t < m.last {
		return fmt.Errorf("%w: change at %d after one at %d", ErrTimeOrder, t, m.last)
	}
	if err := CheckValue(v); err != nil {
		return err
	}
	m.last = t
	m.grow()
	if m.cur[key] == v {
		return nil
	}
	if t > m.since[key] {
		m.intervals = append(m.intervals, Interval{Key: key, Start: m.since[key], End: t - 1, Value: m.cur[key]})
		m.since[key] = t
	}
	m.cur[key] = v
	return nil
}

// Value implements [StateSink].
func (m *MemHistory) Value(key Key) Value {
	if int(key) < len(m.cur) {
		return m.cur[key]
	}
	return Null()
}

// Close ends every attribute's current state at end (inclusive). No
// change may follow.
func (m *MemHistory) Close(end Time) error {
	if m.closed {
		return ErrClosed
	}
	if end < m.last {
		return fmt.Errorf("%w: close at %d before a change at %d", ErrTimeOrder, end, m.last)
	}
	m.grow()
	for k := range m.cur {
		// A change exactly at end starts a state that covers [end, end].
		m.intervals = append(m.intervals, Interval{Key: Key(k), Start: m.since[k], End: end, Value: m.cur[k]})
	}
	m.end, m.closed = end, true
	SortIntervals(m.intervals)
	return nil
}

// Intervals returns every stored interval, sorted by key then time. Valid
// after Close.
func (m *MemHistory) Intervals() []Interval { return m.intervals }

// Bounds implements [History].
func (m *MemHistory) Bounds() (Time, Time) { return m.start, m.end }

// Single implements [History].
func (m *MemHistory) Single(ctx context.Context, key Key, t Time) (Interval, QueryStats, error) {
	if err := ctx.Err(); err != nil {
		return Interval{}, QueryStats{}, err
	}
	for _, iv := range m.intervals {
		if iv.Key == key && iv.Contains(t) {
			return iv, QueryStats{NodesRead: 1, Intervals: 1}, nil
		}
	}
	return Interval{}, QueryStats{NodesRead: 1}, fmt.Errorf("%w: key %d at %d", ErrNoState, key, t)
}

// Full implements [History].
func (m *MemHistory) Full(ctx context.Context, t Time, fn func(Interval) bool) (QueryStats, error) {
	return m.scan(ctx, func(iv Interval) bool { return iv.Contains(t) }, fn)
}

// Query2D implements [History]. A reversed range (t0 > t1) holds no
// time, so it returns nothing, as the on-disk tree does.
func (m *MemHistory) Query2D(ctx context.Context, keys []Key, t0, t1 Time, fn func(Interval) bool) (QueryStats, error) {
	if t0 > t1 {
		if err := ctx.Err(); err != nil {
			return QueryStats{}, err
		}
		return QueryStats{NodesRead: 1}, nil
	}
	want := keySet(keys)
	return m.scan(ctx, func(iv Interval) bool { return want[iv.Key] && iv.Intersects(t0, t1) }, fn)
}

// Query2DTimes implements [History].
func (m *MemHistory) Query2DTimes(ctx context.Context, keys []Key, times []Time, fn func(Interval) bool) (QueryStats, error) {
	want := keySet(keys)
	sorted := slices.Clone(times)
	slices.Sort(sorted)
	return m.scan(ctx, func(iv Interval) bool {
		if !want[iv.Key] {
			return false
		}
		i, _ := slices.BinarySearch(sorted, iv.Start)
		return i < len(sorted) && sorted[i] <= iv.End
	}, fn)
}

func keySet(keys []Key) map[Key]bool {
	s := make(map[Key]bool, len(keys))
	for _, k := range keys {
		s[k] = true
	}
	return s
}

func (m *MemHistory) scan(ctx context.Context, match func(Interval) bool, fn func(Interval) bool) (QueryStats, error) {
	st := QueryStats{NodesRead: 1}
	for i, iv := range m.intervals {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return st, err
			}
		}
		if match(iv) {
			st.Intervals++
			if !fn(iv) {
				break
			}
		}
	}
	return st, nil
}
