package gantt

import (
	"slices"
	"strings"
	"unicode"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/ui"
)

// Named marks, as in vim: the set-mark key then a letter remembers the
// cursor under that letter, the jump key then the letter moves back to it.
// Marks A and B are a pair whose delta the status line always shows.

// markAction is what the next key does to a mark (none: keys route as usual).
type markAction uint8

const (
	markNone markAction = iota
	markSet
	markJump
)

// namedMarks are the marks by letter and the action waiting for a letter.
type namedMarks struct {
	at      map[rune]core.Time
	pending markAction
}

// delta is B − A, formatted, when both marks are set.
func (m namedMarks) delta() (string, bool) {
	a, okA := m.at['A']
	bt, okB := m.at['B']
	if !okA || !okB {
		return "", false
	}
	if bt < a {
		return "-" + core.FormatDuration(a-bt), true
	}
	return core.FormatDuration(bt - a), true
}

// markKey takes the letter after the set or jump key; any other key
// cancels with a message.
func (b *Gantt) markKey(msg tea.KeyMsg) tea.Cmd {
	action := b.marks.pending
	b.marks.pending = markNone
	if action == markJump && msg.String() == "?" {
		return b.listMarks()
	}
	r := []rune(msg.String())
	if msg.Type != tea.KeyRunes || len(r) != 1 || r[0] > unicode.MaxASCII || !unicode.IsLetter(r[0]) {
		b.setNote(noteInfo, "mark cancelled: marks are letters a–z and A–Z")
		return nil
	}
	letter := r[0]
	if action == markSet {
		if b.marks.at == nil {
			b.marks.at = map[rune]core.Time{}
		}
		b.marks.at[letter] = b.cursor
		b.setNote(noteInfo, "mark "+string(letter)+" set at "+b.RelTime(b.cursor))
		return nil
	}
	t, ok := b.marks.at[letter]
	if !ok {
		b.setNote(noteInfo, "no mark "+string(letter)+": set it with "+b.sh.Keys.SetMark.Help().Key+" "+string(letter))
		return nil
	}
	return b.moveCursor(t, true)
}

// listMarks shows the marks on the note line, in letter order with their
// times, and waits for the letter of the one to jump to.
func (b *Gantt) listMarks() tea.Cmd {
	if len(b.marks.at) == 0 {
		b.setNote(noteInfo, "no marks yet: "+b.sh.Keys.SetMark.Help().Key+" then a letter marks the cursor")
		return nil
	}
	letters := make([]rune, 0, len(b.marks.at))
	for r := range b.marks.at {
		letters = append(letters, r)
	}
	slices.Sort(letters)
	items := make([]string, len(letters))
	for i, r := range letters {
		items[i] = string(r) + " " + b.RelTime(b.marks.at[r])
	}
	b.marks.pending = markJump // markView stays open for the letter
	b.setNote(noteInfo, "go to mark: "+strings.Join(items, " · "))
	return nil
}

// markView takes the letter after the set-mark or jump-mark key: a modal
// view the Gantt opens on the stack, closed by that next key.
type markView struct{ b *Gantt }

// Update gives the next key to the marks.
func (v *markView) Update(msg tea.Msg) ui.Step {
	k, ok := msg.(tea.KeyMsg)
	if !ok || v.b.marks.pending == markNone {
		return ui.Step{}
	}
	cmd := v.b.markKey(k)
	return ui.Step{Cmd: cmd, Done: v.b.marks.pending == markNone}
}

// View is never called: a Modal draws no body.
func (v *markView) View(a ui.Area) []string { return ui.FillLines(nil, a.Height) }

// Help leaves the Gantt's line (its note asks for the letter).
func (v *markView) Help() string { return "" }

// Close cancels the pending mark (quit, or a view closing it).
func (v *markView) Close() {}

// Typing: the quit key still quits.
func (v *markView) Typing() bool { return false }

// Closed reports that the letter came.
func (v *markView) Closed() bool { return v.b.marks.pending == markNone }

// Line leaves the help line to the note.
func (v *markView) Line() string { return "" }
