package tui

import "github.com/tracetui/tracetui/tui/frame"

// What the browser reads, defined in package frame (which draws from it)
// and named here for the CLI, which implements and opens it.
type (
	// Trace is an opened, indexed trace (see [frame.Trace]).
	Trace = frame.Trace
	// TraceInfo describes a trace for the status line.
	TraceInfo = frame.TraceInfo
	// EventTable is the trace's events by rank (see [frame.EventTable]).
	EventTable = frame.EventTable
	// EventRow is one event of the table.
	EventRow = frame.EventRow
	// EventColumn is a column of the event table.
	EventColumn = frame.EventColumn
	// Filter is the event table's filter, one regex per column.
	Filter = frame.Filter
	// FilterProgress is a filter scan's progress and matches.
	FilterProgress = frame.FilterProgress
)

// The event table's columns, in display order.
const (
	ColTime     = frame.ColTime
	ColCPU      = frame.ColCPU
	ColEvent    = frame.ColEvent
	ColTID      = frame.ColTID
	ColProcess  = frame.ColProcess
	ColContents = frame.ColContents
	NumColumns  = frame.NumColumns
)
