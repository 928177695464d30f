// Package frame is what the Gantt draws, computed without a terminal: the
// trace the browser reads ([Trace], [EventTable]), the row trees of
// Control Flow and Resources ([RowTree], [BuildControlFlow],
// [BuildResources]), the time window on screen ([Window]) and how times
// read in it ([FormatDurationAt], [FormatTimestampAt]), and a frame: one
// 2D history query of the rows on screen over the window at column
// resolution ([RunFrame]), its cells, the states' paint ([PaintOf]), the
// thread names inside Resources runs and the call-stack frames' names
// ([FrameNames]).
//
// # Frames
//
// Every frame is one 2D query of the visible rows' attributes (plus the
// few the details line reads) over the window at column resolution,
// either exact (Query2D) or sampled (Query2DTimes at four instants per
// column), chosen from the density measured by earlier frames; see frame.go
// for the choice and its error bound. A dense frame draws the thread, CPU
// and IRQ rows from the index's level-of-detail summaries instead, no
// interval read (framesummary.go, its bounds there). A thread's samples
// row (perf.data) is its samples per column, from the running count the
// index keeps, read at the columns' ends apart from the other rows
// (framesamples.go). A frame that only
// moves the cursor row reuses the previous one's cells (framereuse.go).
//
// # Imports
//
// frame imports core, ingest/index/pstree (the rows stored with the index),
// the standard library and displaywidth (text widths); never Bubble Tea,
// lipgloss, nor any other package of tui: its tests run without a
// terminal.
package frame
