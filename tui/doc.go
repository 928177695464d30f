// Package tui is tracetui's Bubble Tea trace browser: a Gantt of threads
// (Control Flow) and CPUs (Resources) answered by 2D history queries, an
// event table with regex column filters, and keyboard zoom and pan.
//
// # Using it
//
// The CLI opens the browser with [Run], giving an [Opener] (how to open or
// index the trace, and whether an index already exists) and [Options]
// (--ascii, key bindings):
//
//	err := tui.Run(ctx, tui.Opener{Name: name, Indexed: ok, Open: open}, tui.Options{ASCII: ascii})
//
// The browser consumes three small interfaces, implemented by the index
// pipeline: [Trace] (name, info, history, events), [EventTable] (events by
// rank, first event at a time, a cancellable background filter that
// reports matching ranks in batches) and core.History.
//
// # Structure
//
// A root [Model] shows the indexing screen (indexing.go) while the trace
// opens, then routes messages to the browser (browser.go), whose parts
// share one context (size, [Styles], key map): the row trees (rows.go), the
// time view (timeview.go), frames (frame.go), the event table (table.go),
// the prompt (prompt.go) and the drawing (view.go, tableview.go). Slow work
// runs only in tea.Cmd closures over copied values; results carry sequence
// numbers and stale ones are dropped. At most one frame query runs at a
// time: a view change during a query marks the view dirty and the newest
// view is asked as soon as the query ends, so holding a key never queues
// stale work and typing never waits for a query.
//
// # Frames
//
// Every frame is one 2D query of the visible rows' attributes (plus the
// few the details line reads) over the visible range at column resolution,
// either exact (Query2D) or sampled (Query2DTimes at four instants per
// column), chosen from the density measured by earlier frames; see frame.go
// for the choice and its error bound. Cells are drawn with precomputed pens,
// runs of equal cells written once, so a 200x60 frame costs a few hundred
// microseconds to draw.
//
// # Tests
//
// Golden screens of the demo fixture (testdata/TestGoldenScreens) are
// regenerated with `go test ./tui -run Golden -update`. The end-to-end
// test drives the built binary in tmux on a shared kernel trace; it skips
// until main.go opens the browser. BenchmarkKeypressToFrame measures
// keypress to new frame on a generated 50 k-thread trace.
package tui
