package core

import (
	"context"
	"errors"
)

// Errors shared by every [StateSink] and [History] implementation.
var (
	// ErrTimeOrder: a state change earlier than one already made, or a
	// close before the last change. Analyses feed changes in time order.
	ErrTimeOrder = errors.New("state change out of time order")
	// ErrBadKey: a key that is not in the attribute tree.
	ErrBadKey = errors.New("unknown attribute key")
	// ErrNoState: no interval of the key covers the queried time (the time
	// is outside the history's bounds).
	ErrNoState = errors.New("no state at this time")
	// ErrClosed: the builder was already closed.
	ErrClosed = errors.New("history already closed")
)

// StateSink receives the state changes computed by an analysis.
//
// Semantics (shared by every implementation, see [MemHistory] for the
// reference): every attribute holds null from the history's start until its
// first change. Modify(k, t, v) ends k's current state at t-1 and makes v
// current from t. Changes come in non-decreasing t across all keys (so the
// intervals produced arrive by non-decreasing end time). A change to the
// value already held is ignored; two changes of one key at the same t keep
// the last (a zero-length state is never stored). Keys may be added to the
// tree at any time.
type StateSink interface {
	// Attributes returns the tree to add keys to.
	Attributes() *AttributeTree
	// Modify changes the state of key at time t.
	Modify(key Key, t Time, v Value) error
	// Value returns the current value of key (null if never set), so
	// analyses need not mirror the state they write.
	Value(key Key) Value
}

// QueryStats is the cost of one query, for benchmarks and the status line.
type QueryStats struct {
	NodesRead int // distinct tree nodes read (from cache or disk)
	Intervals int // intervals passed to the callback
}

// History answers state queries. Callbacks receive intervals in an order
// that depends on the implementation; [SortIntervals] gives each key's
// intervals in time order. A callback returning false stops the query
// early without error. Every query honours ctx cancellation (returning
// ctx.Err()), and a History is safe for concurrent queries.
type History interface {
	// Attributes returns the attribute tree (read-only).
	Attributes() *AttributeTree
	// Bounds returns the first and last instants covered.
	Bounds() (start, end Time)
	// Single returns the interval of key that contains t.
	Single(ctx context.Context, key Key, t Time) (Interval, QueryStats, error)
	// Full calls fn with the interval of every key that contains t.
	Full(ctx context.Context, t Time, fn func(Interval) bool) (QueryStats, error)
	// Query2D calls fn once with every interval of the given keys that
	// intersects [t0, t1]. keys need not be sorted; duplicates are ignored.
	Query2D(ctx context.Context, keys []Key, t0, t1 Time, fn func(Interval) bool) (QueryStats, error)
	// Query2DTimes calls fn once with every interval of the given keys
	// that contains at least one of times (in any order).
	Query2DTimes(ctx context.Context, keys []Key, times []Time, fn func(Interval) bool) (QueryStats, error)
}
