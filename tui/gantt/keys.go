package gantt

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/screens/overview/model"
	"github.com/tracetui/tracetui/tui/ui"
)

// The Gantt's keys: those no view above it used (the stack's rule; the
// quit and help keys are the stack's), by focus (Gantt or table).

// closeJobs cancels all background work (on quit and when the program
// ends).
func (b *Gantt) closeJobs() {
	b.table.stop()
	b.frames.Stop()
	b.finds.Stop()
	b.changes.Stop()
	b.flows.Stop()
	b.density.job.Stop()
	b.evNum.Stop()
	b.idle.job.Stop()
	b.procTree.job.Stop()
	b.opening.job.Stop()
}

// baseKey handles a key that no view above the Gantt used.
func (b *Gantt) baseKey(msg tea.KeyMsg) tea.Cmd {
	km := &b.sh.Keys
	if msg.Type == tea.KeyEsc {
		if b.cancelOpenNew() {
			return nil
		}
		if b.hasSel && !b.selecting {
			b.hasSel = false
		}
		return nil
	}
	if b.tree() == nil {
		return nil // still reading the process tree
	}
	switch {
	case key.Matches(msg, km.Stats):
		return b.openStats()
	case key.Matches(msg, km.Overview, km.OverviewST):
		return b.openOverview(key.Matches(msg, km.OverviewST))
	case key.Matches(msg, km.CallTree):
		return b.openCallTree()
	case key.Matches(msg, km.Compare):
		return b.openCompare()
	case key.Matches(msg, km.MarkThread):
		b.markThread()
		return nil
	case key.Matches(msg, km.SideBySide):
		return b.openSideBySide()
	case key.Matches(msg, km.FlowJump):
		return b.jumpFlow()
	case key.Matches(msg, km.AlignMarks):
		b.setNote(noteInfo, "aligning at marks is side by side's ("+km.SideBySide.Help().Key+"): "+km.SetMark.Help().Key+" and a letter marks BASE here")
		return nil
	case key.Matches(msg, km.SortNext, km.SortReverse):
		b.setNote(noteInfo, "sorting applies to the statistics tables: open them with "+km.Stats.Help().Key)
		return nil
	case key.Matches(msg, km.Legend):
		b.opened = &ui.LegendView{Sh: b.sh, Host: b, PassEsc: true}
		return nil
	case key.Matches(msg, km.Details):
		return b.openDetails()
	case key.Matches(msg, km.Focus):
		b.table.focused = !b.table.focused && b.showTable
		return nil
	case key.Matches(msg, km.ControlFlow, km.Resources):
		v := frame.PaneControlFlow
		if key.Matches(msg, km.Resources) {
			v = frame.PaneResources
		}
		if v == b.pane {
			return nil
		}
		b.pane, b.frame = v, nil
		b.ovCache = [2]*model.Result{} // the overviews were of the other pane's rows
		return b.changed(false)
	case key.Matches(msg, km.ToggleTable):
		b.showTable = !b.showTable
		if !b.showTable {
			b.table.focused = false
		}
		return b.layout()
	case key.Matches(msg, km.GrowTable, km.ShrinkTable):
		d := 2
		if key.Matches(msg, km.ShrinkTable) {
			d = -2
		}
		b.tableLines = max(1, b.tableLines+d)
		b.showTable = true
		l := b.sh.Layout(b.showTable, b.tableLines)
		b.tableLines = l.TableEvents // clamped to the screen
		return b.layout()
	case key.Matches(msg, km.GoTo):
		return b.openPrompt(ui.PromptGoTo, goToPrompt(b.win.Start, b.win.End), "")
	case key.Matches(msg, km.Find) && b.table.focused:
		return b.openPrompt(ui.PromptSearch, fmt.Sprintf("search %s (regex, highlights): ", b.table.col), "")
	case key.Matches(msg, km.FindNext, km.FindPrev) && b.table.focused && b.table.search.re != nil:
		b.setNote(noteInfo, b.table.searchMove(key.Matches(msg, km.FindPrev)))
		return b.table.fetch(b.ctx)
	case key.Matches(msg, km.Find):
		return b.openPrompt(ui.PromptFind, "find row (regex): ", "")
	case key.Matches(msg, km.FindNext, km.FindPrev):
		return b.findNext(key.Matches(msg, km.FindPrev))
	case key.Matches(msg, km.Filter):
		b.table.focused, b.showTable = true, true
		col := b.table.col
		return tea.Batch(b.layout(), b.openPrompt(ui.PromptFilter, fmt.Sprintf("filter %s (regex): ", col), b.table.pattern[col]))
	case key.Matches(msg, km.Select):
		b.toggleSelection()
		return nil
	case key.Matches(msg, km.FollowWaker):
		return b.followWaker()
	case key.Matches(msg, km.WakerBack):
		return b.wakerBack()
	case key.Matches(msg, km.CriticalPath):
		return b.openCritPath()
	case key.Matches(msg, km.GoToEvent):
		return b.openPrompt(ui.PromptEvent, fmt.Sprintf("go to event number (1–%d): ", b.table.total), "")
	case key.Matches(msg, km.AbsTimes):
		b.sh.AbsTimes = !b.sh.AbsTimes
		return nil
	case key.Matches(msg, km.Copy):
		return b.copy()
	case key.Matches(msg, km.SetMark, km.JumpMark):
		b.marks.pending = markSet
		if key.Matches(msg, km.JumpMark) {
			b.marks.pending = markJump
		}
		b.setNote(noteInfo, "mark letter (a–z, A–Z; A and B measure a delta), esc cancels")
		b.opened = &markView{b}
		return nil
	case key.Matches(msg, km.ZoomIn, km.ZoomOut):
		f := 0.5
		if key.Matches(msg, km.ZoomOut) {
			f = 2
		}
		b.win = b.win.Zoom(b.cursor, f)
		return b.changed(false)
	case key.Matches(msg, km.ZoomSelection):
		if !b.hasSel {
			b.setNote(noteInfo, "no selection: start and end one with "+km.Select.Help().Key)
			return nil
		}
		b.win = b.win.WithRange(b.selStart, b.selEnd-b.selStart+1)
		// The selection now spans the whole window: drawn, it would hide
		// every state under its colour, so it is done with.
		b.hasSel, b.selecting = false, false
		return b.moveCursor(min(max(b.cursor, b.win.T0), b.win.T1), false)
	case key.Matches(msg, km.ZoomAll):
		b.win = b.win.Whole()
		return b.changed(false)
	case key.Matches(msg, km.PanLeft, km.PanRight):
		d := b.win.Span() / 2
		if key.Matches(msg, km.PanLeft) {
			d = -d
		}
		old := b.win.T0
		b.win = b.win.Pan(d)
		return b.moveCursor(b.cursor+(b.win.T0-old), false)
	case key.Matches(msg, km.PrevChange, km.NextChange):
		return b.stateChange(key.Matches(msg, km.PrevChange))
	}
	if b.table.focused {
		return b.own(b.table.Update(msg))
	}
	return b.ganttKey(msg)
}

// ganttKey handles the keys whose meaning depends on focus, for the Gantt.
func (b *Gantt) ganttKey(msg tea.KeyMsg) tea.Cmd {
	km := &b.sh.Keys
	t := b.tree()
	page := b.sh.Layout(b.showTable, b.tableLines).GanttRows
	if d, ok := ui.LineMove(km, msg, int64(page)); ok {
		t.Move(int(max(min(d, int64(t.VisibleLen())), -int64(t.VisibleLen()))))
		return b.changed(false)
	}
	switch {
	case key.Matches(msg, km.Toggle):
		if !t.Toggle() {
			return nil
		}
	case key.Matches(msg, km.ProcessTree):
		if b.pane != frame.PaneControlFlow {
			b.setNote(noteInfo, "the process tree is Control Flow's: "+km.ControlFlow.Help().Key+" shows it")
			return nil
		}
		return b.toggleProcTree()
	case key.Matches(msg, km.HideIdle):
		return b.toggleIdle()
	case key.Matches(msg, km.ExpandAll):
		t.ExpandAll()
		b.setNote(noteInfo, fmt.Sprintf("all rows expanded: %d shown", t.VisibleLen()))
	case key.Matches(msg, km.CollapseAll):
		t.CollapseAll()
		b.setNote(noteInfo, fmt.Sprintf("all rows collapsed: %d shown", t.VisibleLen()))
	case key.Matches(msg, km.Left, km.Right):
		c := b.win.ColOf(b.cursor)
		if key.Matches(msg, km.Left) {
			c--
		} else {
			c++
		}
		var tm core.Time
		switch {
		case c < 0:
			tm = b.cursor - b.win.ColWidth()
		case c >= b.win.Cols:
			tm = b.win.T1 + 1
		default:
			tm = b.win.ColStart(c)
		}
		return b.moveCursor(min(max(tm, b.win.Start), b.win.End), false)
	default:
		return nil
	}
	return b.changed(false)
}

// gotoEvent moves the Gantt cursor to the selected event and selects its
// thread (Control Flow) or CPU (Resources).
func (b *Gantt) gotoEvent(r frame.EventRow) tea.Cmd {
	t := b.tree()
	if b.pane == frame.PaneControlFlow {
		if n, ok := t.ByTID(r.TID); ok {
			t.SelectNode(n)
		}
	} else if r.CPU >= 0 {
		for _, i := range t.Roots() {
			if n := t.Node(i); n.Kind == frame.KindCPU && n.Label == fmt.Sprintf("CPU %d", r.CPU) {
				t.SelectNode(i)
			}
		}
	}
	b.win = b.win.Showing(r.Time)
	b.cursor = min(max(r.Time, b.win.Start), b.win.End)
	b.extendSelection()
	return b.changed(false) // the table already shows the event
}

// openPrompt opens the prompt, a modal view over the Gantt.
func (b *Gantt) openPrompt(kind ui.PromptKind, label, text string) tea.Cmd {
	cmd := b.prompt.Open(kind, label, text)
	b.opened = &ui.PromptView{P: &b.prompt}
	return cmd
}
