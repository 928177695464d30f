package gantt

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/ui"
)

// Moving on the main screen: the cursor, the selection, state changes,
// row search and the prompts' actions.

// moveCursor puts the cursor at t (clamped to the trace), scrolls the
// view if needed (centring when it jumped out of the window), and scrolls the
// table to it.
func (b *Gantt) moveCursor(t core.Time, jump bool) tea.Cmd {
	t = min(max(t, b.win.Start), b.win.End)
	if jump && (t < b.win.T0 || t > b.win.T1) {
		b.win = b.win.CentredOn(t)
	} else {
		b.win = b.win.Showing(t)
	}
	b.cursor = t
	b.extendSelection()
	return b.changed(true)
}

func (b *Gantt) toggleSelection() {
	if b.selecting {
		b.selecting = false
		b.rememberSelection()
		b.setNote(noteInfo, "selection "+core.FormatDuration(b.selEnd-b.selStart+1))
		return
	}
	b.selecting, b.hasSel = true, true
	b.selAnchor = b.cursor
	b.extendSelection()
}

func (b *Gantt) extendSelection() {
	if b.selecting {
		b.selStart, b.selEnd = min(b.selAnchor, b.cursor), max(b.selAnchor, b.cursor)
	}
}

// stateChange asks for the previous or next state change of the selected
// row from the cursor.
func (b *Gantt) stateChange(prev bool) tea.Cmd {
	sel := b.tree().Selected()
	if sel < 0 || b.tree().Node(sel).Key < 0 {
		return nil
	}
	ctx, seq := b.changes.Start(b.ctx)
	h, k, cur := b.hist, b.tree().Node(sel).Key, b.cursor
	return func() tea.Msg {
		t, ok, err := findChange(ctx, h, k, cur, prev)
		return changeMsg{seq: seq, t: t, ok: ok, err: err}
	}
}

// findChange returns the start of the next state after cur, or the start
// of the current state (of the previous one when cur is already at a
// start).
func findChange(ctx context.Context, h core.History, k core.Key, cur core.Time, prev bool) (core.Time, bool, error) {
	start, end := h.Bounds()
	iv, _, err := h.Single(ctx, k, cur)
	if err != nil {
		return 0, false, err
	}
	if !prev {
		return iv.End + 1, iv.End < end, nil
	}
	if iv.Start < cur {
		return iv.Start, true, nil
	}
	if iv.Start <= start {
		return 0, false, nil
	}
	p, _, err := h.Single(ctx, k, iv.Start-1)
	return p.Start, err == nil, err
}

// parseGoTo reads the go-to prompt: a duration with a unit is an offset
// from the trace start, with or without '+' ("12.5ms", "+200us"); a bare
// number is absolute seconds, as the table prints times ("1412670961.2",
// "1179"), and with '+' and a decimal point an offset in seconds, as the
// table prints relative times ("+0.116740509").
func parseGoTo(text string, start core.Time) (core.Time, error) {
	s := strings.TrimSpace(text)
	if rel, ok := strings.CutPrefix(s, "+"); ok && strings.Contains(rel, ".") && rel[len(rel)-1] >= '0' && rel[len(rel)-1] <= '9' {
		d, err := core.ParseTime(rel, 0)
		return start + d, err
	}
	if s == "" || strings.HasPrefix(s, "+") {
		return core.ParseTime(s, start)
	}
	if last := s[len(s)-1]; last < '0' || last > '9' {
		return core.ParseTime("+"+s, start)
	}
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return core.ParseTime(s, start)
}

// promptDone applies a confirmed prompt; an invalid entry reopens it with
// the error shown inline.
func (b *Gantt) promptDone(m ui.PromptDoneMsg) tea.Cmd {
	switch m.Kind {
	case ui.PromptGoTo:
		return b.goToDone(m.Text)
	case ui.PromptFind:
		re, err := regexp.Compile(m.Text)
		if err != nil {
			return b.prompt.Fail(err)
		}
		b.prompt.Close()
		b.findRe = re
		return b.findNext(false)
	case ui.PromptSearch:
		cmd, err := b.table.startSearch(b.table.col, m.Text)
		if err != nil {
			return b.prompt.Fail(err)
		}
		b.prompt.Close()
		b.setNote(noteInfo, fmt.Sprintf("/%s/ in %s: searching…", m.Text, b.table.col))
		return cmd
	case ui.PromptEvent:
		return b.goToEventNumber(m.Text)
	case ui.PromptOpen:
		return b.openNewDone(m.Text)
	case ui.PromptFilter:
		if err := b.table.setPattern(b.table.col, m.Text); err != nil {
			return b.prompt.Fail(err)
		}
		b.prompt.Close()
		return tea.Batch(b.table.startFilter(b.ctx, b.cursor), b.table.fetch(b.ctx))
	}
	return nil
}
