package core

import (
	"context"
	"math/bits"
)

// Level-of-detail summaries: per state row, what a column-resolution
// frame needs, on fixed grids of time buckets, so that a zoomed-out frame
// reads O(rows x columns) summary bytes instead of every interval.
//
// A grid of shift k cuts time into buckets of 2^k ns aligned on absolute
// time: bucket i is [i<<k, (i+1)<<k - 1]. For one key and one bucket a
// summary keeps:
//
//   - First: the state at the bucket's first instant (or, in the bucket
//     holding the history's start, at the start);
//   - Dominant: the state covering the most time in the bucket (ties go
//     to the one met first);
//   - Changes: how many intervals start strictly inside the bucket,
//     saturated at 255;
//   - ChangedAtFirst: whether an interval starts at the bucket's first
//     instant (a change from the previous bucket's last state).
//
// The key's first interval, which starts at the history's start, is no
// change. A column made of whole buckets therefore gets its exact change
// count (the sum of Changes, plus ChangedAtFirst of every bucket but its
// first) and its exact first state. What covers the most time over several
// buckets is not kept: a reader that needs it over several buckets
// (tui's summary frames) documents its bound.

// Summary grid bounds: the finest level has at most SummaryMaxBuckets
// buckets over the history, each coarser level is SummaryLevelStep (a
// shift of 2) coarser, and levels stop once one has at most
// SummaryMinBuckets buckets.
const (
	SummaryMaxBuckets = 1 << 16
	SummaryMinBuckets = 256
	SummaryLevelStep  = 2
	// SummaryMaxShift caps the shift: buckets of 2^40 ns (18 minutes)
	// whatever the history's span.
	SummaryMaxShift = 40
)

// SummaryLevels returns the shifts of the summary levels of a history
// covering [start, end], finest first.
func SummaryLevels(start, end Time) []uint8 {
	if end < start || start < 0 {
		return nil
	}
	buckets := func(k uint) int64 { return int64(end>>k) - int64(start>>k) + 1 }
	k := uint(0)
	for k < SummaryMaxShift && buckets(k) > SummaryMaxBuckets {
		k++
	}
	levels := []uint8{uint8(k)}
	for k+SummaryLevelStep <= SummaryMaxShift && buckets(k) > SummaryMinBuckets {
		k += SummaryLevelStep
		levels = append(levels, uint8(k))
	}
	return levels
}

// SummaryLevelFor returns the index in levels of the coarsest level whose
// buckets are at most width ns wide, or -1 when even the finest is wider.
func SummaryLevelFor(levels []uint8, width Time) int {
	if width <= 0 {
		return -1
	}
	widest := bits.Len64(uint64(width)) - 1 // 2^widest <= width
	best := -1
	for i, k := range levels {
		if int(k) <= widest {
			best = i
		}
	}
	return best
}

// SummaryNull is the summary byte of the null value; 0 to SummaryNull-1
// are the int32 values themselves.
const SummaryNull = 254

// SummaryByte returns the byte a summary stores for v, and false for the
// values a summary cannot hold (anything but null and int32 0..253): a key
// that ever takes one has no summary.
func SummaryByte(v Value) (byte, bool) {
	if v.IsNull() {
		return SummaryNull, true
	}
	if v.Kind() == KindInt32 && v.Int() >= 0 && v.Int() < SummaryNull {
		return byte(v.Int()), true
	}
	return 0, false
}

// SummaryValue is the inverse of SummaryByte (bytes above SummaryNull are
// never stored; they read as null).
func SummaryValue(b byte) Value {
	if b >= SummaryNull {
		return Null()
	}
	return Int32(int32(b))
}

// SummaryBucket is what a summary keeps of one key in one bucket.
type SummaryBucket struct {
	First          byte // SummaryByte of the state at the bucket's first instant
	Dominant       byte // SummaryByte of the state covering the most time
	Changes        uint8
	ChangedAtFirst bool
}

// SummaryRun is Count consecutive buckets of width 2^Shift, the first
// starting at Start, that share one SummaryBucket.
type SummaryRun struct {
	Start  Time
	Shift  uint8
	Count  int64
	Bucket SummaryBucket
}

// End returns the last instant of the run.
func (r SummaryRun) End() Time { return r.Start + Time(r.Count)<<r.Shift - 1 }

// Summarizer is a [History] that keeps level-of-detail summaries.
type Summarizer interface {
	// Summary calls fn, for each of keys that has a summary, with the runs
	// of its coarsest level whose buckets are at most width ns wide that
	// overlap [t0, t1], in time order. It returns the keys it served, in
	// the order of keys; the others (no summary, or no level that fine)
	// were not passed to fn. fn returning false stops the query.
	Summary(ctx context.Context, keys []Key, t0, t1, width Time, fn func(Key, SummaryRun) bool) ([]Key, QueryStats, error)
}

// SummaryRule says which attributes the index summarises: the rows the
// browser draws from states, that is thread status (Threads/<tid>), CPU
// status (CPUs/<n>) and the CPUs' IRQ and soft IRQ rows. Counters and
// call stacks keep the interval path.
func SummaryRule(tree *AttributeTree, k Key) bool {
	p := tree.Parent(k)
	if p == Root {
		return false
	}
	gp := tree.Parent(p)
	if gp == Root {
		name := tree.Name(p)
		return name == AttrThreads || name == AttrCPUs
	}
	ggp := tree.Parent(gp)
	if ggp == Root || tree.Parent(ggp) != Root || tree.Name(ggp) != AttrCPUs {
		return false
	}
	name := tree.Name(p)
	return name == AttrIRQs || name == AttrSoftIRQs
}
