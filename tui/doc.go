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
// The browser consumes three small interfaces (defined in package frame), implemented by the index
// pipeline: [Trace] (name, info, history, events), [EventTable] (events by
// rank, first event at a time, a cancellable background filter that
// reports matching ranks in batches, event density per column, event
// counts per type) and core.History.
//
// # Structure
//
// The folders are the layers (each doc.go says what it may import):
//
//	tui                  the program: the root [Model] (the indexing screen
//	                     while the trace opens, then the stack of views
//	                     with the Gantt at its bottom), [Run], BenchFrames
//	tui/gantt            the main screen as a view: panes, navigation,
//	                     marks, finds, waker jumps, flows, ruler, density
//	                     strip, event table, details line; it draws the
//	                     chrome around the top view
//	tui/screens/<name>   one view each (help, details, flame, critical,
//	                     stats, overview with its model, compare,
//	                     sidebyside): keys, messages,
//	                     drawing, help line; they import ui and frame,
//	                     never each other nor gantt
//	tui/ui               the kit every view imports: View, Step, Area,
//	                     the Stack and its routing rule, Shared, Styles,
//	                     Job, text fitting, the prompt and the legend
//	                     overlay; it imports no view (ui/headless runs a
//	                     model without a terminal)
//	tui/frame            what the Gantt draws, without Bubble Tea: the
//	                     trace interfaces, row trees, the time window,
//	                     frames (one 2D query per screen) and their cells
//	                     (frame/frametest: the tests' fixtures)
//
// Package tui imports gantt, the help screen (which the help key opens
// over any view), ui and frame.
//
// Routing has one rule (ui.Stack): a key goes to the top view, which uses
// it or passes it down, to the Gantt at the bottom; any other message goes
// to every view, each keeping only the reports of its own jobs. The root
// handles only the quit and help keys before the rule; the prompt and a
// pending mark are modal views on top of the stack. The Gantt opens a
// screen by copying what it needs (gantt/open_screens.go) into the screen's
// New and returning it in its Step. Slow work runs only in tea.Cmd
// closures over copied values, through one helper (ui.Job): a sequence tag
// per run, the superseded run cancelled, stale results dropped, progress
// re-armed through a channel. At most one frame query runs at a time: a
// change of the window during a query marks it dirty and the newest
// window is asked as soon as the query ends, so holding a key never
// queues stale work and typing never waits for a query.
//
// Words: a view is a screen or overlay on the stack; the window is the
// time range on screen (frame.Window); a pane is Control Flow (threads)
// or Resources (CPUs); drawing is View and Render.
//
// # Overview and statistics
//
// A density strip (gantt/density.go) tops every screen: events per column of
// the whole trace from EventTable.Density, the window bracketed. S opens
// the statistics (package screens/stats), o and O the aggregated overview
// (package screens/overview, its model below it, the algorithms in
// package aggregate): the window cut into |T| slices, the rows' state
// times streamed into a temporal accumulator or into the leaves of the
// row hierarchy, the significant partitions drawn in Ocelotl's mode view.
// Both compute off the UI goroutine through a ui.Job; the overview's
// cost is estimated first and |T| reduced over budget.
//
// # Comparing
//
// Given two traces (Opener.OpenNew: `tracetui BASE NEW`), the Gantt shows
// BASE. D opens the comparison (package screens/compare: the tables of
// ingest/query/diff, with a differential flame graph on the call tree)
// of BASE and NEW, or, with one trace, of the last two selections; enter
// on a thread goes to its row. V shows both traces' Control Flow aligned
// at their starts (package screens/sidebyside), or, A and a letter, at
// BASE's mark of that letter (set in the Gantt) and NEW's (set there). See
// gantt/compare.go. With one trace and nothing to compare, D asks for a
// second trace's path and opens it in the background (Opener.OpenPath;
// gantt/opennew.go), which then is NEW.
//
// # Frames
//
// See package frame: every frame is one 2D query of the visible rows over
// the window at column resolution, exact or sampled, or drawn from the
// index's level-of-detail summaries when dense. Cells are drawn with
// precomputed pens, runs of equal cells written once, so a 200x60 frame
// costs a few hundred microseconds to draw.
//
// # Tests
//
// Golden screens of the demo fixture (package frametest) in
// testdata/TestGoldenScreens are regenerated with
// `go test ./tui -run Golden -update`. The end-to-end tests drive the
// built binary in tmux on a shared kernel trace. The Gantt's Update
// tests run in package gantt under a test root that routes as the Model
// does; BenchmarkKeypressToFrame there measures keypress to new frame on
// a generated 50 k-thread trace, and BenchmarkOverview50k the overview's
// time to first screen and to a new p.
package tui
