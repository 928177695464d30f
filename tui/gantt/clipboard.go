package gantt

import (
	"encoding/base64"
	"fmt"
	"io"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// Copying goes through the terminal with OSC 52, so it works over ssh
// without a clipboard tool on the machine. In tmux, whose default
// configuration drops an application's OSC 52, it goes through `tmux
// load-buffer -w` (ui.Shared.TmuxCopy); if that fails, the sequence is
// wrapped for tmux's passthrough (which needs allow-passthrough on) and
// the note says so.
// Bubble Tea v1 has no command for a raw sequence (Printf prints above the
// program and not in the alternate screen), so the sequence is one Write
// to the program's output: os.File serialises Writes, so it cannot split
// a frame the renderer writes at the same time.

// osc52 is the sequence that puts text on the system clipboard.
func osc52(text string) string {
	return "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07"
}

// copy copies, with the table focused, its selected event as one line
// (see eventLine); else the selection ("start end", absolute seconds as
// the go-to prompt reads them) or the cursor's absolute time.
func (b *Gantt) copy() tea.Cmd {
	w := b.sh.Clipboard
	if w == nil && b.sh.TmuxCopy == nil {
		b.setNote(noteInfo, "no terminal to copy through")
		return nil
	}
	text := core.FormatTimestamp(b.cursor)
	what := "cursor time"
	switch {
	case b.table.focused:
		r, ok := b.table.selected()
		if !ok {
			b.setNote(noteInfo, "no event selected (or not read yet): nothing copied")
			return nil
		}
		text, what = eventLine(&r), "event"
	case b.hasSel:
		text = core.FormatTimestamp(b.selStart) + " " + core.FormatTimestamp(b.selEnd)
		what = "selection"
	}
	if tc := b.sh.TmuxCopy; tc != nil {
		return func() tea.Msg {
			err := tc(text)
			if err == nil {
				return copiedMsg{"copied the " + what + " to tmux's buffer (prefix ] pastes): " + text, false}
			}
			if w == nil {
				return copiedMsg{fmt.Sprintf("could not copy: %v", err), true}
			}
			_, _ = io.WriteString(w, tmuxPassthrough(osc52(text)))
			return copiedMsg{fmt.Sprintf("%v; sent OSC 52 through tmux, which needs `set -g allow-passthrough on`: %s", err, text), true}
		}
	}
	b.setNote(noteInfo, "copied the "+what+" (OSC 52, if the terminal accepts it): "+text)
	seq := osc52(text)
	return func() tea.Msg {
		// A failed write to the terminal also fails the renderer's next
		// frame, which ends the program with the error: nothing to add.
		_, _ = io.WriteString(w, seq)
		return nil
	}
}

// copiedMsg reports a copy through tmux, for the note.
type copiedMsg struct {
	note string
	warn bool // the copy failed or may have
}

// tmuxPassthrough wraps an escape sequence for tmux's passthrough: DCS
// "tmux;", the sequence with each ESC doubled, ST.
func tmuxPassthrough(seq string) string {
	return "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
}

// eventLine is an event as one line of text: absolute time, [CPU],
// process/tid, event name and contents, e.g.
// "1179.000012345 [1] bash/18336 sched_switch: prev_comm=bash …".
// Unknown parts are left out; control characters (the trace's bytes)
// are replaced, as on screen.
func eventLine(r *frame.EventRow) string {
	var sb strings.Builder
	sb.WriteString(core.FormatTimestamp(r.Time))
	if r.CPU >= 0 {
		sb.WriteString(" [" + strconv.Itoa(int(r.CPU)) + "]")
	}
	if who := strings.Trim(r.Process+"/"+r.TID, "/"); who != "" {
		sb.WriteString(" " + who)
	}
	sb.WriteString(" " + r.Event + ":")
	if r.Contents != "" {
		sb.WriteString(" " + r.Contents)
	}
	return ui.Printable(sb.String())
}
