package frame

import (
	"strings"

	"github.com/clipperhouse/displaywidth"
)

// Widths in terminal cells, by grapheme cluster. They come from
// displaywidth, the measure lipgloss lays out with (through
// charmbracelet/x/ansi), so that the views' padding and lipgloss's agree.
// go-runewidth filled a 2.2 MB table on the first width asked of a
// character past U+02FF (the Gantt's │, the ellipsis): 540 fresh pages, 11
// to 13 ms on this VM, in the first frame of every trace.

// Cells returns the width of s.
func Cells(s string) int { return displaywidth.String(s) }

// RuneCells returns the width of r on its own.
func RuneCells(r rune) int { return displaywidth.Rune(r) }

// TruncCells cuts s to at most w cells, tail included, when it is wider;
// without the tail when even that is wider than w.
func TruncCells(s string, w int, tail string) string {
	w = max(w, 0)
	if Cells(tail) > w {
		tail = ""
	}
	return displaywidth.TruncateString(s, w, tail)
}

// PadCells pads s with spaces to w cells.
func PadCells(s string, w int) string {
	if n := w - Cells(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// CutLeft removes the first n cells of s and puts prefix in front. A wide
// character cut in two leaves a space for each of its cells still shown.
func CutLeft(s string, n int, prefix string) string {
	g := displaywidth.StringGraphemes(s)
	at, pos := 0, 0
	for at < n && g.Next() {
		at += g.Width()
		pos += len(g.Value())
	}
	return prefix + strings.Repeat(" ", max(at-n, 0)) + s[pos:]
}
