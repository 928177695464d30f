// Package flame is the call tree screen (F): the call stacks of the
// selected thread or process over the selection or the visible range,
// aggregated by ingest/query/calltree in a background job, drawn as an icicle
// above an expandable call-tree table; enter zooms the Gantt (through
// ui.ZoomMsg) to the longest call of the function under the cursor.
// Opened from the comparison screen (Request.Path and Other) it holds
// both sides' trees at a call path, NEW's shown first, the Focus key
// swapping them.
//
// It imports ui, frame, core and ingest/query/calltree; never package tui,
// gantt nor another screen.
package flame
