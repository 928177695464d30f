package tui

import (
	"context"
	"regexp"
	"strconv"

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
}

// TraceInfo describes a trace for the status line.
type TraceInfo struct {
	Format     string    // "ctf", "chrome", ...
	Start, End core.Time // first and last event times
	Events     int64     // number of events
	Discarded  int64     // events the tracer lost (CTF discarded events)
	Warnings   []core.Warning
}

// EventColumn indexes the columns of the event table.
type EventColumn int

// The event table's columns, in display order.
const (
	ColTime EventColumn = iota
	ColCPU
	ColEvent
	ColTID
	ColProcess
	ColContents
	NumColumns
)

// String returns the column's header.
func (c EventColumn) String() string {
	switch c {
	case ColTime:
		return "Time"
	case ColCPU:
		return "CPU"
	case ColEvent:
		return "Event"
	case ColTID:
		return "TID"
	case ColProcess:
		return "Process"
	case ColContents:
		return "Contents"
	}
	return "?"
}

// EventRow is one event as the table shows it.
type EventRow struct {
	Rank     int64     // position of the event in the trace, 0-based
	Time     core.Time // timestamp (ns)
	CPU      int32     // -1 when unknown
	Event    string    // event name as the trace's tools print it
	TID      string    // thread id ("" when unknown); the Control Flow row's tid
	Process  string    // process (exec) name, "" when unknown
	Contents string    // the fields, as `tracetui dump` prints them
}

// Text returns the row's text in a column: what filters match and what
// the table prints (Time as core.FormatTimestamp, CPU in decimal or "").
func (r *EventRow) Text(c EventColumn) string {
	switch c {
	case ColTime:
		return core.FormatTimestamp(r.Time)
	case ColCPU:
		if r.CPU < 0 {
			return ""
		}
		return strconv.Itoa(int(r.CPU))
	case ColEvent:
		return r.Event
	case ColTID:
		return r.TID
	case ColProcess:
		return r.Process
	case ColContents:
		return r.Contents
	}
	return ""
}

// Filter has one regular expression per column; nil means no constraint.
// An event matches when every non-nil expression finds a match in its
// column's text ([EventRow.Text]): unanchored, so plain text is a
// substring search.
type Filter [NumColumns]*regexp.Regexp

// Empty reports whether the filter lets every event through.
func (f *Filter) Empty() bool {
	for _, re := range f {
		if re != nil {
			return false
		}
	}
	return true
}

// Match reports whether the row passes the filter. Implementations of
// [EventTable.Filter] use it so every table filters the same way.
func (f *Filter) Match(r *EventRow) bool {
	for c, re := range f {
		if re != nil && !re.MatchString(r.Text(EventColumn(c))) {
			return false
		}
	}
	return true
}

// FilterProgress is one report of a running filter.
type FilterProgress struct {
	// Matches are the ranks of the events matched since the previous
	// report, ascending and after every rank reported before.
	Matches []int64
	// Done and Total count the events examined so far and to examine.
	Done, Total int64
}

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
}

// Opener opens a trace for the browser. When Indexed is false the browser
// shows the indexing screen (a progress bar with an estimate, q to cancel)
// while Open runs; when true it goes straight to the browser.
type Opener struct {
	// Name is shown on the indexing screen before the trace is open.
	Name string
	// Indexed reports that an up-to-date index exists, so Open is quick.
	Indexed bool
	// Open opens the trace, building its index if needed and reporting the
	// build's progress as bytes of the trace read so far and in all (the
	// screen prints them as sizes and estimates the time left from the
	// rate). It must
	// return promptly with ctx.Err() once ctx is cancelled (q on the
	// indexing screen), leaving no index file that opens as valid.
	Open func(ctx context.Context, progress func(done, total int64)) (Trace, error)
}
