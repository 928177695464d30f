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
// reports matching ranks in batches, event density per column, event
// counts per type) and core.History.
//
// # Structure
//
// A root [Model] shows the indexing screen (indexing.go) while the trace
// opens, then routes messages to the browser (browser.go), whose parts
// share one context (size, [Styles], key map): the row trees (rows.go), the
// time view (timeview.go), frames (frame.go), the event table (table.go),
// the prompt (prompt.go) and the drawing (view.go, tableview.go). Screens
// and overlays (statistics, overviews, help, legend) are views
// (component.go): a small interface (Update, View into an area, Help,
// Close) on a stack above the main screen; a key goes to the top view,
// which uses it or passes it down, and other messages go to every view.
// Slow work runs only in tea.Cmd closures over copied values, through one
// helper (job.go): a sequence tag per run, the superseded run cancelled,
// stale results dropped, progress re-armed through a channel. At most one
// frame query runs at a time: a view change during a query marks the view
// dirty and the newest view is asked as soon as the query ends, so holding
// a key never queues stale work and typing never waits for a query.
//
// # Overview and statistics
//
// A density strip (density.go) tops every screen: events per column of
// the whole trace from EventTable.Density, the visible range bracketed.
// S opens the statistics (stats.go: time per state of the selected row
// and of all rows from 2D queries, system calls from their attributes,
// event counts from EventTable.CountByType; sortable tables). o and O
// open the aggregated overview (the screen and drawing in overview_*.go,
// the model and plan in package overview, the algorithms in package
// aggregate): the visible range cut into |T| slices, the rows' state times
// streamed into a temporal accumulator or into the leaves of the row
// hierarchy, the significant partitions drawn in Ocelotl's mode view.
// Both compute off the UI goroutine with a sequence number and a
// cancellable context; the overview's cost is estimated first and |T|
// reduced over budget (overview.PlanOf).
//
// # Frames
//
// Every frame is one 2D query of the visible rows' attributes (plus the
// few the details line reads) over the visible range at column resolution,
// either exact (Query2D) or sampled (Query2DTimes at four instants per
// column), chosen from the density measured by earlier frames; see frame.go
// for the choice and its error bound. A dense frame draws the thread, CPU
// and IRQ rows from the index's level-of-detail summaries instead, no
// interval read (framesummary.go, its bounds there). Cells are drawn with precomputed pens,
// runs of equal cells written once, so a 200x60 frame costs a few hundred
// microseconds to draw.
//
// # Tests
//
// Golden screens of the demo fixture (testdata/TestGoldenScreens) are
// regenerated with `go test ./tui -run Golden -update`. The end-to-end
// test drives the built binary in tmux on a shared kernel trace; it skips
// until main.go opens the browser. BenchmarkKeypressToFrame measures
// keypress to new frame on a generated 50 k-thread trace, and
// BenchmarkOverview50k the overview's time to first screen and to a new p.
package tui
