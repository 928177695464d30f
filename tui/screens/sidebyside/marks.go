package sidebyside

import (
	"slices"
	"strings"
	"unicode"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/ui"
)

// Aligning at marks: BASE's marks are the Gantt's (the set-mark key then
// a letter, in the Gantt); NEW's are set here, the set-mark key then a
// letter marking NEW at the cursor. The align key then a letter shifts
// NEW so that its mark sits in the column of BASE's mark of that letter,
// the cursor on it: the same moment of both runs, one above the other.

// pending is what the next key (a letter) does.
type pending uint8

const (
	pendingNone  pending = iota
	pendingSet           // mark NEW at the cursor
	pendingAlign         // align NEW's mark with BASE's
)

// markKeys handles the set-mark and align keys and the letter after
// them; ok false: not a mark key.
func (s *Screen) markKeys(msg tea.KeyMsg) (ui.Step, bool) {
	km := &s.sh.Keys
	if p := s.pending; p != pendingNone {
		s.pending = pendingNone
		r := []rune(msg.String())
		if msg.Type != tea.KeyRunes || len(r) != 1 || r[0] > unicode.MaxASCII || !unicode.IsLetter(r[0]) {
			return ui.Step{Note: "mark cancelled: marks are letters a–z and A–Z"}, true
		}
		if p == pendingSet {
			return s.setMark(r[0]), true
		}
		return s.align(r[0]), true
	}
	switch {
	case key.Matches(msg, km.SetMark):
		s.pending = pendingSet
		return ui.Step{Note: "mark NEW at the cursor: a letter (then " + km.AlignMarks.Help().Key + " and the letter aligns it with BASE's)"}, true
	case key.Matches(msg, km.AlignMarks):
		if len(s.marks[0]) == 0 {
			return ui.Step{Note: "no marks in BASE: set one in the Gantt (" + km.SetMark.Help().Key + " then a letter), then one on NEW here"}, true
		}
		s.pending = pendingAlign
		return ui.Step{Note: "align at mark: a letter (BASE " + listMarks(s.marks[0], s.Sides[0].start) + ")"}, true
	}
	return ui.Step{}, false
}

// listMarks is the marks in letter order with their offsets.
func listMarks(m map[rune]core.Time, start core.Time) string {
	letters := make([]rune, 0, len(m))
	for r := range m {
		letters = append(letters, r)
	}
	slices.Sort(letters)
	items := make([]string, len(letters))
	for i, r := range letters {
		items[i] = string(r) + " +" + core.FormatDuration(m[r]-start)
	}
	return strings.Join(items, " · ")
}

// newCursor is the cursor's time in NEW.
func (s *Screen) newCursor() core.Time { return s.Sides[1].start + s.Cur + s.Shift }

// setMark marks NEW at the cursor.
func (s *Screen) setMark(letter rune) ui.Step {
	t := s.newCursor()
	s.marks[1][letter] = t
	return ui.Step{Note: "NEW's mark " + string(letter) + " set at +" + core.FormatDuration(t-s.Sides[1].start)}
}

// align shifts NEW so that its mark letter is in the column of BASE's,
// and puts the cursor and the middle of the window there.
func (s *Screen) align(letter rune) ui.Step {
	km := &s.sh.Keys
	l := string(letter)
	tb, okB := s.marks[0][letter]
	tn, okN := s.marks[1][letter]
	switch {
	case !okB:
		return ui.Step{Note: "no mark " + l + " in BASE: set it in the Gantt with " + km.SetMark.Help().Key + " " + l}
	case !okN:
		return ui.Step{Note: "no mark " + l + " on NEW: " + km.SetMark.Help().Key + " " + l + " here marks NEW at the cursor"}
	}
	b, n := tb-s.Sides[0].start, tn-s.Sides[1].start
	s.Shift, s.Cur = n-b, b
	s.Off = b - s.Span/2
	s.clamp()
	return ui.Step{Cmd: s.refresh(), Note: "aligned at mark " + l + ": BASE +" + core.FormatDuration(b) + ", NEW +" + core.FormatDuration(n)}
}
