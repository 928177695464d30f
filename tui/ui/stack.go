package ui

import (
	"slices"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// The browser is a stack of views. The main screen (the Gantt: density
// strip, ruler, row tree, Gantt, details line, event table, status and
// help lines) is the bottom view, never popped; every other screen or
// overlay (statistics, overviews, call tree, critical path, details,
// help, legend) is a view pushed above it. Routing has one rule:
//
//	A key goes to the top view of the stack. A view either uses it or
//	passes it down (Step.Pass) to the view below, down to the bottom.
//	Any other message goes to every view, top down, the bottom last:
//	each keeps only the reports of its own jobs (see Job) and ignores
//	the rest.
//
// Only the quit key and the help key are handled before the rule. The
// prompt and a pending mark are views too (Modal): on top of the stack
// they take every key (the help key included; the quit key is text to a
// prompt), draw no body, and are dropped once the view that opened them
// closes them. A view closes itself with Step.Done: the stack closes and
// pops it together with the views above it. It opens another view with
// Step.Open: the stack pushes it on top. The body area (between the ruler
// and the status line) shows the top view that draws one; the help line
// and the ruler marks come from the top-most view that has them.

// Base is the bottom view of a stack: the main screen, whose status line
// shows the views' notes.
type Base interface {
	View
	// Note shows a view's Step.Note.
	Note(text string, warn bool)
	// KeyPressed is told of every key but the quit key, before it is
	// routed (typing: a prompt is open).
	KeyPressed(typing bool)
}

// Stack is the open views, the base first.
type Stack struct {
	sh       *Shared
	views    []View
	base     Base
	help     func() View // the full help, which the help key opens
	helpOpen View        // the last one opened
}

// NewStack returns the stack of base; help returns the help screen.
func NewStack(sh *Shared, base Base, help func() View) *Stack {
	return &Stack{sh: sh, views: []View{base}, base: base, help: help}
}

// Route gives msg to the views: a key by the rule above after the quit
// and help keys, any other message to every view. On the quit key it
// closes every view, the base included, and returns tea.Quit.
func (s *Stack) Route(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return s.broadcast(msg)
	}
	modal, isModal := s.Top().(Modal)
	typing := isModal && modal.Typing()
	if s.sh.Quits(k) && (k.Type == tea.KeyCtrlC || !typing) {
		s.CloseAll()
		s.base.Close()
		return tea.Quit
	}
	s.base.KeyPressed(typing)
	if top := s.Top(); (s.helpOpen == nil || top != s.helpOpen) && !isModal && key.Matches(k, s.sh.Keys.Help) {
		s.helpOpen = s.help()
		s.Push(s.helpOpen)
		return nil
	}
	return s.key(k)
}

// Push opens v on top of the stack.
func (s *Stack) Push(v View) { s.views = append(s.views, v) }

// Len is the number of views, the base included.
func (s *Stack) Len() int { return len(s.views) }

// At is the view at index i (0: the base).
func (s *Stack) At(i int) View { return s.views[i] }

// popFrom closes the views from index i up (never the base) and removes
// them.
func (s *Stack) popFrom(i int) {
	i = max(i, 1)
	for j := len(s.views) - 1; j >= i; j-- {
		s.views[j].Close()
		s.views[j] = nil
	}
	s.views = s.views[:min(i, len(s.views))]
}

// CloseAll closes every view above the base.
func (s *Stack) CloseAll() { s.popFrom(1) }

// Top is the view on top of the stack.
func (s *Stack) Top() View { return s.views[len(s.views)-1] }

// apply carries out what the view at index i asked, and returns its
// command.
func (s *Stack) apply(i int, st Step) tea.Cmd {
	if st.Note != "" {
		s.base.Note(st.Note, st.Warn)
	}
	if st.Done && i > 0 && i < len(s.views) {
		s.popFrom(i)
	}
	if st.Open != nil {
		s.Push(st.Open)
	}
	return st.Cmd
}

// key offers a key to the views top down by the rule above.
func (s *Stack) key(msg tea.KeyMsg) tea.Cmd {
	var cmds []tea.Cmd
	for i := len(s.views) - 1; i >= 0; i-- {
		st := s.views[i].Update(msg)
		cmds = append(cmds, s.apply(i, st))
		if !st.Pass {
			break
		}
	}
	s.prune()
	return tea.Batch(cmds...)
}

// broadcast gives a message to every view, top down.
func (s *Stack) broadcast(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for i := len(s.views) - 1; i >= 0; i-- {
		if i < len(s.views) {
			cmds = append(cmds, s.apply(i, s.views[i].Update(msg)))
		}
	}
	s.prune()
	return tea.Batch(cmds...)
}

// prune drops the modal views their openers closed.
func (s *Stack) prune() {
	for i := len(s.views) - 1; i >= 1; i-- {
		if m, ok := s.views[i].(Modal); ok && m.Closed() {
			m.Close()
			s.views = slices.Delete(s.views, i, i+1)
		}
	}
}

// Body draws the top view that draws a body (a modal view shows the one
// below it).
func (s *Stack) Body(a Area) []string {
	for i := len(s.views) - 1; i > 0; i-- {
		if _, ok := s.views[i].(Modal); !ok {
			return s.views[i].View(a)
		}
	}
	return s.views[0].View(a)
}

// Line is the help line of the top-most modal view ("": none).
func (s *Stack) Line() string {
	for i := len(s.views) - 1; i >= 1; i-- {
		if m, ok := s.views[i].(Modal); ok {
			return m.Line()
		}
	}
	return ""
}

// Help is the help line of the top-most view above the base that has
// one ("": the base's own).
func (s *Stack) Help() string {
	for i := len(s.views) - 1; i >= 1; i-- {
		if h := s.views[i].Help(); h != "" {
			return h
		}
	}
	return ""
}

// Marks are the ruler marks of the top-most view that has them.
func (s *Stack) Marks() (RulerMarks, bool) {
	for i := len(s.views) - 1; i >= 0; i-- {
		if rm, ok := s.views[i].(RulerMarker); ok {
			if m, ok := rm.RulerMarks(); ok {
				return m, true
			}
		}
	}
	return RulerMarks{}, false
}
