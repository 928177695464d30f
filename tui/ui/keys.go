package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/keymap"
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
