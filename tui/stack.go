package tui

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/tui/ui"
)

// The browser is a stack of views (ui.View). The main screen's Gantt
// (density strip, ruler, row tree, Gantt, details line, event table,
// status and help lines) is the bottom view, never popped; every other
// screen or overlay (statistics, overviews, call tree, critical path,
// details, help, legend) is a view pushed above it. Routing has one rule:
//
//	A key goes to the top view of the stack. A view either uses it or
//	passes it down (Step.Pass) to the view below, down to the Gantt.
//	Any other message goes to every view, top down, the Gantt last: each
//	keeps only the reports of its own jobs (see ui.Job) and ignores the
//	rest.
//
// Only the quit key and the help key are handled by the root before the
// rule (see Model.key). The prompt and a pending mark are views too
// (ui.Modal): on top of the stack they take every key, draw no body, and
// are dropped once the view that opened them closes them. A view closes itself with
// Step.Done: the stack closes and pops it together with the views above
// it. It opens another view with Step.Open: the stack pushes it on top.
// The body area (between the ruler and the status line) shows the top
// view; the help line and the ruler marks come from the top-most view
// that has them.

// stack is the open views, the Gantt first.
type stack struct {
	views []ui.View
	// note shows a view's Step.Note on the status line (the Gantt's).
	note func(text string, warn bool)
}

// newStack returns the stack with its bottom view.
func newStack(base ui.View, note func(text string, warn bool)) *stack {
	return &stack{views: []ui.View{base}, note: note}
}

// push opens v on top of the stack.
func (s *stack) push(v ui.View) { s.views = append(s.views, v) }

// popFrom closes the views from index i up (never the bottom one) and
// removes them.
func (s *stack) popFrom(i int) {
	i = max(i, 1)
	for j := len(s.views) - 1; j >= i; j-- {
		s.views[j].Close()
		s.views[j] = nil
	}
	s.views = s.views[:min(i, len(s.views))]
}

// closeAll closes every view above the bottom one.
func (s *stack) closeAll() { s.popFrom(1) }

// top is the view on top of the stack.
func (s *stack) top() ui.View { return s.views[len(s.views)-1] }

// apply carries out what the view at index i asked, and returns its
// command.
func (s *stack) apply(i int, st ui.Step) tea.Cmd {
	if st.Note != "" {
		s.note(st.Note, st.Warn)
	}
	if st.Done && i > 0 && i < len(s.views) {
		s.popFrom(i)
	}
	if st.Open != nil {
		s.push(st.Open)
	}
	return st.Cmd
}

// key offers a key to the views top down by the rule above.
func (s *stack) key(msg tea.KeyMsg) tea.Cmd {
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

// prune drops the modal views their openers closed.
func (s *stack) prune() {
	for i := len(s.views) - 1; i >= 1; i-- {
		if m, ok := s.views[i].(ui.Modal); ok && m.Closed() {
			m.Close()
			s.views = slices.Delete(s.views, i, i+1)
		}
	}
}

// body draws the top view that draws a body (a modal view shows the one
// below it).
func (s *stack) body(a ui.Area) []string {
	for i := len(s.views) - 1; i > 0; i-- {
		if _, ok := s.views[i].(ui.Modal); !ok {
			return s.views[i].View(a)
		}
	}
	return s.views[0].View(a)
}

// line is the help line of the top-most modal view ("": none).
func (s *stack) line() string {
	for i := len(s.views) - 1; i >= 1; i-- {
		if m, ok := s.views[i].(ui.Modal); ok {
			return m.Line()
		}
	}
	return ""
}

// broadcast gives a message to every view, top down.
func (s *stack) broadcast(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for i := len(s.views) - 1; i >= 0; i-- {
		if i < len(s.views) {
			cmds = append(cmds, s.apply(i, s.views[i].Update(msg)))
		}
	}
	s.prune()
	return tea.Batch(cmds...)
}

// help is the help line of the top-most view above the Gantt that has
// one ("": the Gantt's own).
func (s *stack) help() string {
	for i := len(s.views) - 1; i >= 1; i-- {
		if h := s.views[i].Help(); h != "" {
			return h
		}
	}
	return ""
}

// marks are the ruler marks of the top-most view that has them.
func (s *stack) marks() (ui.RulerMarks, bool) {
	for i := len(s.views) - 1; i >= 0; i-- {
		if rm, ok := s.views[i].(ui.RulerMarker); ok {
			if m, ok := rm.RulerMarks(); ok {
				return m, true
			}
		}
	}
	return ui.RulerMarks{}, false
}
