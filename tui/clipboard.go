package tui

import (
	"encoding/base64"
	"io"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
)

// Copying goes through the terminal with OSC 52, so it works over ssh and
// in tmux (set-clipboard on) without a clipboard tool on the machine.
// Bubble Tea v1 has no command for a raw sequence (Printf prints above the
// program and not in the alternate screen), so the sequence is one Write
// to the program's output: os.File serialises Writes, so it cannot split
// a frame the renderer writes at the same time.

// osc52 is the sequence that puts text on the system clipboard.
func osc52(text string) string {
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07"
}

// copyTime copies the selection ("start end", absolute seconds as the
// go-to prompt reads them) or else the cursor's absolute time.
func (b *browser) copyTime() tea.Cmd {
	w := b.sh.clipboard
	if w == nil {
		b.setNote(noteInfo, "no terminal to copy through")
		return nil
	}
	text := core.FormatTimestamp(b.cursor)
	what := "cursor time"
	if b.hasSel {
		text = core.FormatTimestamp(b.selStart) + " " + core.FormatTimestamp(b.selEnd)
		what = "selection"
	}
	b.setNote(noteInfo, "copied the "+what+": "+text)
	seq := osc52(text)
	return func() tea.Msg {
		// A failed write to the terminal also fails the renderer's next
		// frame, which ends the program with the error: nothing to add.
		_, _ = io.WriteString(w, seq)
		return nil
	}
}
