package core

import (
	"regexp"
	"strconv"
)

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

var columnNames = [NumColumns]string{"Time", "CPU", "Event", "TID", "Process", "Contents"}

// String returns the column's header.
func (c EventColumn) String() string {
	if c < 0 || c >= NumColumns {
		return "?"
	}
	return columnNames[c]
}

// EventRow is one event as the event table shows it and filters match it.
type EventRow struct {
	Rank     int64  // position of the event in the trace, 0-based
	Time     Time   // timestamp (ns)
	CPU      int32  // -1 when unknown
	Event    string // event name as the trace's tools print it
	TID      string // thread id ("" when unknown): the Control Flow row's tid
	Process  string // process (exec) name, "" when unknown
	Contents string // the fields, as `tracetui dump` prints them (raw system calls named: see ingest/trace)
	// Fields labels the event's fields, "{ name = value, ... }", when
	// Contents does not (a format's print text, as trace.dat's); "" else.
	Fields string
	// ClassAttributes and TraceAttributes are the user attributes of the
	// event's class and of its trace (CTF 2: JSON, by namespace, e.g.
	// LTTng's "lttng.org,2009"); "" when the format has none.
	ClassAttributes, TraceAttributes string
}

// Text returns the row's text in a column: what filters match and what
// the table prints (Time as [FormatTimestamp], CPU in decimal or "").
func (r *EventRow) Text(c EventColumn) string {
	switch c {
	case ColTime:
		return FormatTimestamp(r.Time)
	case ColCPU:
		return string(AppendCPU(nil, r.CPU))
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

// AppendCPU appends a CPU number as the table shows it: decimal, nothing
// when unknown (negative).
func AppendCPU(dst []byte, cpu int32) []byte {
	if cpu < 0 {
		return dst
	}
	return strconv.AppendInt(dst, int64(cpu), 10)
}

// EventFilter has one regular expression per column; nil means no
// constraint. An event matches when every non-nil expression finds a match
// in its column's text ([EventRow.Text]): unanchored, so plain text is a
// substring search.
type EventFilter [NumColumns]*regexp.Regexp

// Empty reports whether the filter lets every event through.
func (f *EventFilter) Empty() bool {
	for _, re := range f {
		if re != nil {
			return false
		}
	}
	return true
}

// Match reports whether the row passes the filter.
func (f *EventFilter) Match(r *EventRow) bool {
	for c, re := range f {
		if re != nil && !re.MatchString(r.Text(EventColumn(c))) {
			return false
		}
	}
	return true
}

// FilterProgress is one report of a running event filter.
type FilterProgress struct {
	// Matches are the ranks of the events matched since the previous
	// report, ascending and after every rank reported before.
	Matches []int64
	// Done and Total count the events examined so far and to examine.
	Done, Total int64
}
