// Package ingest turns traces into indexes: it detects a trace's format
// (the registry, [OpenSource], [FormatNames]), reads its events through a
// [core.Source] (sub-packages ctf, chrome, paje, ftrace), runs the state
// analyses (sub-packages kernel, callstack...) into a history builder, and
// keeps an event index so any event is reachable by rank or time. It owns
// the index lifecycle ([Open], [Locate], [OpenIndexFile]: build once, the
// cache directory, the build lock, rebuild when stale) and [Dump].
//
// Reading an opened index (event table, filters, density and counts,
// thread resolution, queries, the paper benchmark) is package ingest/trace,
// built on the [Index] that Open returns; the non-interactive commands are
// package ingest/cli.
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
