// Package compare is the comparison screen (issue 34): the tables of
// ingest/query/diff for two sides — the two last selections of one trace,
// two marked threads or processes (thread A's figures against thread
// B's: diff.Side.Threads), or two traces (`tracetui BASE NEW`) — one
// table at a time (tab), each
// sorted by the size of its change (largest first; the sort keys cycle)
// and bounded to [MaxRows] lines. The tables are computed off the UI
// goroutine through a ui.Job: all but the call tree at once, the call
// tree (which reads every call stack of both sides) when its tab is
// first shown.
//
// Enter on a thread or process line closes the screen with a [GoToMsg]:
// the line's thread or process on each side, which the main screen
// selects in Control Flow (saying which side it is on). Enter on a call
// path sends a [PathMsg]: the main screen opens the call tree screen
// above the comparison with both sides' trees, NEW's first, at that
// path (the Focus key shows BASE's).
//
// Grown rows are drawn in the warning colour with a "+" before the delta,
// shrunk ones dimmed with a "-", so --ascii tells them apart too.
//
// It imports ui, core, keymap and ingest/query/diff; never package tui,
// gantt nor another screen.
package compare
