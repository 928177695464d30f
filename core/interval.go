package core

import (
	"fmt"
	"slices"
)

// Key identifies an attribute of the [AttributeTree] (a "quark"). Keys are
// dense, starting at 0, in creation order.
type Key int32

// Interval is one state of one attribute: Value held from Start to End,
// both inclusive (see the package doc).
type Interval struct {
	Key        Key
	Start, End Time
	Value      Value
}

// Contains reports whether t lies in the interval.
func (iv Interval) Contains(t Time) bool { return iv.Start <= t && t <= iv.End }

// Intersects reports whether the interval shares at least one instant with
// [t0, t1].
func (iv Interval) Intersects(t0, t1 Time) bool { return iv.Start <= t1 && iv.End >= t0 }

// Duration returns the time the interval covers (End-Start+1 ns).
func (iv Interval) Duration() Time { return iv.End - iv.Start + 1 }

// String formats the interval for test failures and logs.
func (iv Interval) String() string {
	return fmt.Sprintf("<key %d [%d, %d] %s:%s>", iv.Key, iv.Start, iv.End, iv.Value.Kind(), iv.Value)
}

// CompareIntervals orders intervals by key, then start time: the order in
// which query results are grouped and compared.
func CompareIntervals(a, b Interval) int {
	if a.Key != b.Key {
		if a.Key < b.Key {
			return -1
		}
		return 1
	}
	if a.Start != b.Start {
		if a.Start < b.Start {
			return -1
		}
		return 1
	}
	if a.End != b.End {
		if a.End < b.End {
			return -1
		}
		return 1
	}
	return 0
}

// SortIntervals sorts ivs by key, then time.
func SortIntervals(ivs []Interval) { slices.SortFunc(ivs, CompareIntervals) }
