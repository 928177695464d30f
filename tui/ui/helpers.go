package ui

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
)

// LineMove is how many lines a vertical movement key moves (a page is
// page lines; top and bottom move by more than any list holds); ok is
// false for other keys.
func LineMove(km *keymap.KeyMap, msg tea.KeyMsg, page int64) (d int64, ok bool) {
	const all = 1 << 62
	switch {
	case key.Matches(msg, km.Up):
		return -1, true
	case key.Matches(msg, km.Down):
		return 1, true
	case key.Matches(msg, km.PageUp):
		return -page, true
	case key.Matches(msg, km.PageDown):
		return page, true
	case key.Matches(msg, km.Top):
		return -all, true
	case key.Matches(msg, km.Bottom):
		return all, true
	}
	return 0, false
}

// WrapText cuts s into lines of at most w cells, at spaces when it can.
func WrapText(s string, w int) []string {
	var out []string
	for frame.Cells(s) > w {
		cut, width := 0, 0
		lastSpace := -1
		for i, r := range s {
			rw := frame.RuneCells(r)
			if width+rw > w {
				break
			}
			width += rw
			cut = i + len(string(r))
			if r == ' ' {
				lastSpace = i
			}
		}
		if lastSpace > 0 {
			cut = lastSpace + 1
		}
		if cut == 0 { // a rune wider than w
			_, cut = utf8.DecodeRuneInString(s)
		}
		out = append(out, strings.TrimRight(s[:cut], " "))
		s = s[cut:]
	}
	return append(out, s)
}

// PadLeft right-aligns s in w cells (truncating when longer).
func PadLeft(s string, w int) string {
	n := frame.Cells(s)
	if n >= w {
		return Trunc(s, w)
	}
	return strings.Repeat(" ", w-n) + s
}

// ZoomMsg asks the Gantt to show a time range and select a row of a view.
type ZoomMsg struct {
	Pane   int
	Node   int32 // the row to select (-1: none)
	T0, T1 core.Time
	What   string // what is shown, for the note ("the part")
}
