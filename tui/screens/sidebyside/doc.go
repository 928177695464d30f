// Package sidebyside shows the Control Flow of two traces (`tracetui
// BASE NEW`) one above the other, aligned at their starts: both show the
// same offset from their own start and the same span, so zooming and
// panning move both at once (issue 34, part 2); the contents keys shift
// NEW against BASE a column at a time, to align two moments that are not
// at the same offset from the starts; or the align key and a letter
// shift NEW so that its mark of that letter (the set-mark key and the
// letter, here, at the cursor) sits in the column of BASE's (set in the
// Gantt; marks.go). The cursor (left/right, on both sides) is shown on
// the ruler; zooming keeps its column. Each has its own rows
// (tab chooses the one the row keys move; enter expands a process); each
// frame is queried off the UI goroutine through its own ui.Job, as the
// Gantt's are (tui/frame).
//
// It imports ui, frame, core and keymap; never package tui, gantt nor
// another screen.
package sidebyside
