package frame

import (
	"context"
	"fmt"

	"github.com/tracetui/tracetui/core"
)

// Trace is an opened, indexed trace: what the browser reads. It is the
// consumer-side contract the index pipeline (ingest) implements. All
// methods are safe to call from several goroutines: the browser queries
// from tea.Cmd goroutines while the UI goroutine renders.
type Trace interface {
	// Name is the trace's short name for the status line (e.g. the base
	// name of its directory).
	Name() string
	// Info describes the trace (bounds, format, counts, warnings).
	Info() TraceInfo
	// History answers the state queries of every frame.
	History() core.History
	// Events is the event table.
	Events() EventTable
	// Close releases the trace's files; the browser calls it once, when it
	// exits. No other method is called after it.
	Close() error
}

// TraceInfo describes a trace for the status line.
type TraceInfo struct {
	Format     string    // "ctf", "chrome", ...
	Start, End core.Time // first and last event times
	Events     int64     // number of events
	Intervals  int64     // number of intervals in the history (0: unknown)
	Discarded  int64     // events the tracer lost (CTF discarded events)
	// Streams is the number of data streams (files) the events were read
	// from: a CTF trace of its metadata alone has none.
	Streams int
	// Index is the path of the trace's index file ("" none): the browser
	// keeps its view of the trace (marks, window, filters) beside it.
	Index    string
	Warnings []core.Warning
}

// NoEvents says why a trace holds no events ("" when it holds some):
// the browser shows it where the events would be.
func (in TraceInfo) NoEvents() string {
	switch {
	case in.Events > 0 || in.Format == "": // a fixture without its counts
		return ""
	case in.Streams == 0 && in.Format == "ctf":
		return "no events: metadata only, no stream files beside it"
	case in.Streams == 0:
		return "no events: the trace holds none"
	}
	return fmt.Sprintf("no events: its %d streams are empty", in.Streams)
}

// The event table's row, columns and filter are core's, shared with the
// index pipeline that implements [EventTable].
type (
	EventColumn    = core.EventColumn
	EventRow       = core.EventRow
	Filter         = core.EventFilter
	FilterProgress = core.FilterProgress
)

// The event table's columns, in display order.
const (
	ColTime     = core.ColTime
	ColCPU      = core.ColCPU
	ColEvent    = core.ColEvent
	ColTID      = core.ColTID
	ColProcess  = core.ColProcess
	ColContents = core.ColContents
	NumColumns  = core.NumColumns
)

// EventTable is the trace's events by rank (time order), read lazily: the
// browser only asks for the rows on screen.
type EventTable interface {
	// Len returns the number of events.
	Len() int64
	// Rows returns the events at the given ranks (ascending, each in
	// [0, Len())), in the same order. Ranks are often consecutive (a screen
	// of the unfiltered table) and sometimes not (a screen of filter
	// matches); implementations should read consecutive runs in one pass.
	Rows(ctx context.Context, ranks []int64) ([]EventRow, error)
	// RankAt returns the rank of the first event at or after t (Len() if
	// none).
	RankAt(ctx context.Context, t core.Time) (int64, error)
	// Filter scans the whole table in rank order and calls fn with batches
	// of matching ranks and the scan's progress, at least every few
	// thousand events examined or few tens of milliseconds, and once at the
	// end with Done == Total. It returns when the scan ends, when fn
	// returns false (nil error), or when ctx is cancelled (ctx.Err()). fn
	// runs on the scanning goroutine and may block; the slice it receives
	// is its to keep.
	Filter(ctx context.Context, f Filter, fn func(FilterProgress) bool) error
	// Density returns the number of events in each of columns equal parts
	// of [from, to] (column i covers [from + span*i/columns, from +
	// span*(i+1)/columns), the last one ending at to inclusive; span =
	// to-from+1). It may be approximate at column boundaries (the index
	// pipeline's is exact to within one index checkpoint of 1024 events)
	// and must be cheap: the density strip asks it for the whole trace.
	Density(ctx context.Context, from, to core.Time, columns int) ([]int64, error)
	// CountByType returns the number of events of each event name in
	// [from, to] (inclusive), scanning them. fn (if not nil) reports the
	// progress in events and may stop the scan by returning false: the
	// partial counts are then returned with a nil error. Cancelling ctx
	// returns ctx.Err().
	CountByType(ctx context.Context, from, to core.Time, fn func(done, total int64) bool) (map[string]int64, error)
}
