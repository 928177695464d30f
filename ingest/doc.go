// Package ingest turns traces into what the browser reads: it detects a
// trace's format, reads its events through a [core.Source] (sub-packages
// ctf, chrome, paje, ftrace), runs the state analyses (sub-packages
// kernel, callstack...) into a history builder, and keeps an event index so
// any event is reachable by rank or time.
//
// Layers, each a separate consumer of the one below:
//
//	files -> packet/record reader -> stream decoder -> k-way merge by time
//	      -> core.Event -> analyses (-> core.StateSink) and the event index
package ingest

import "github.com/tracetui/tracetui/core"

// Analysis turns events into state changes. It resolves event and field
// names once per [core.EventClass] (by its ID), never per event, and keeps
// no reference to an event after Handle returns.
type Analysis interface {
	// Handle processes one event, in trace time order.
	Handle(ev *core.Event) error
	// Finish is called after the last event with the trace end time; the
	// caller then closes the sink.
	Finish(end core.Time) error
}
