package tui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/tui/ui"
)

// Views as components. The browser's main screen (density strip, ruler,
// Gantt, details line, event table, status and help lines) is the base;
// every other screen or overlay (statistics, overviews, help, legend) is a
// view pushed on a stack above it. Routing has one rule:
//
//	A key goes to the top view of the stack. A view either uses it or
//	passes it down (step.pass) to the view below, and finally to the base.
//	Any other message goes to every open view, top down, and to the base:
//	each keeps only the reports of its own jobs (see job) and ignores the
//	rest.
//
// Only the quit key, the help key and an open prompt are handled by the
// root before the rule. A view closes itself with step.done: the root
// closes and pops it together with the views above it. It opens another
// view with step.open: the root pushes it on top. The body area (between
// the ruler and the status line) shows the top view; the help line and
// the ruler marks come from the top-most view that has them.

// push opens v on top of the stack.
func (b *browser) push(v ui.View) { b.stack = append(b.stack, v) }

// popFrom closes the views from index i up and removes them.
func (b *browser) popFrom(i int) {
	for j := len(b.stack) - 1; j >= i; j-- {
		b.stack[j].Close()
		b.stack[j] = nil
	}
	b.stack = b.stack[:i]
}

// closeViews closes every view above the base.
func (b *browser) closeViews() { b.popFrom(0) }

// top is the view on top of the stack (nil: the base).
func (b *browser) top() ui.View {
	if len(b.stack) == 0 {
		return nil
	}
	return b.stack[len(b.stack)-1]
}

// apply carries out what the view at index i asked, and returns its
// command.
func (b *browser) apply(i int, s ui.Step) tea.Cmd {
	if s.Note != "" {
		k := noteInfo
		if s.Warn {
			k = noteError
		}
		b.setNote(k, s.Note)
	}
	if s.Done && i < len(b.stack) {
		b.popFrom(i)
	}
	if s.Open != nil {
		b.push(s.Open)
	}
	return s.Cmd
}

// routeKey offers a key to the views top down by the rule above, and to
// the base when every view passes it.
func (b *browser) routeKey(msg tea.KeyMsg) tea.Cmd {
	var cmds []tea.Cmd
	for i := len(b.stack) - 1; i >= 0; i-- {
		s := b.stack[i].Update(msg)
		cmds = append(cmds, b.apply(i, s))
		if !s.Pass {
			return tea.Batch(cmds...)
		}
	}
	return tea.Batch(append(cmds, b.baseKey(msg))...)
}

// routeMsg gives a message to every open view, top down (the base gets it
// after them).
func (b *browser) routeMsg(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for i := len(b.stack) - 1; i >= 0; i-- {
		if i < len(b.stack) {
			cmds = append(cmds, b.apply(i, b.stack[i].Update(msg)))
		}
	}
	return tea.Batch(cmds...)
}

// viewHelp is the help line of the top-most view that has one.
func (b *browser) viewHelp() string {
	for i := len(b.stack) - 1; i >= 0; i-- {
		if h := b.stack[i].Help(); h != "" {
			return h
		}
	}
	return ""
}

// viewMarks are the ruler marks of the top-most view that has them.
func (b *browser) viewMarks() (ui.RulerMarks, bool) {
	for i := len(b.stack) - 1; i >= 0; i-- {
		if rm, ok := b.stack[i].(ui.RulerMarker); ok {
			if m, ok := rm.RulerMarks(); ok {
				return m, true
			}
		}
	}
	return ui.RulerMarks{}, false
}
