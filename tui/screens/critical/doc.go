// Package critical is the critical-path screen (P): for the thread
// selected in Control Flow, over the selection or else the visible range,
// who made progress on its behalf (ingest/query/critpath), as a Gantt of the
// path's threads, a legend and a table of segments. Enter moves the main
// screen to the selected segment through its [Host].
//
// It imports ui, frame, core, keymap and ingest/query/critpath; never package
// tui, gantt nor another screen.
package critical
