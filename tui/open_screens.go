package tui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/screens/details"
)

// Opening the screens: the main screen copies what a screen needs (the
// window, the selection, the selected row) and pushes it on the stack.

// openDetails opens the details pane of the selected event and of the
// selected row at the cursor.
func (b *browser) openDetails() tea.Cmd {
	var event *core.EventRow
	if r, ok := b.table.cache[b.table.rankOf(b.table.sel)]; ok && b.table.sel < b.table.len() {
		event = &r
	}
	var n *frame.Node
	t := b.tree()
	if sel := t.Selected(); sel >= 0 {
		n = new(t.Node(sel))
	}
	d, cmd := details.New(b.ctx, b.sh, b.names, b.hist, b.tv, b.cursor, event, n)
	b.push(d)
	return cmd
}
