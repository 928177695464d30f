package gantt

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// The process tree (a toggle): Control Flow's processes nested under the
// processes that started them (frame.ProcessTree), built in a background
// job from the rows as stored; off, the stored rows come back. The
// selected thread stays selected either way.

// procTreeState is the toggle, the stored rows it replaced and its job.
type procTreeState struct {
	on   bool
	flat *frame.RowTree // the rows as stored, while the tree is shown
	job  ui.Job
}

// procTreeMsg is the process tree built.
type procTreeMsg struct {
	seq  uint64
	tree *frame.RowTree
	err  error
}

// toggleProcTree shows the process tree, or the rows as stored again.
func (b *Gantt) toggleProcTree() tea.Cmd {
	cf := &b.panes[frame.PaneControlFlow]
	if cf.tree == nil {
		return nil
	}
	pt := &b.procTree
	if pt.on {
		pt.on = false
		pt.job.Stop()
		if pt.flat != nil {
			b.swapRows(pt.flat)
			pt.flat = nil
		}
		b.setNote(noteInfo, "processes as stored: threads under their process")
		return b.changed(false)
	}
	pt.on = true
	ctx, seq := pt.job.Start(b.ctx)
	h, flat := b.hist, cf.tree
	b.setNote(noteInfo, "arranging the process tree…")
	return func() tea.Msg {
		t, err := frame.ProcessTree(ctx, h, flat)
		return procTreeMsg{seq: seq, tree: t, err: err}
	}
}

// gotProcTree shows the process tree built.
func (b *Gantt) gotProcTree(m procTreeMsg) tea.Cmd {
	pt := &b.procTree
	if !pt.job.Current(m.seq) || !pt.on {
		return nil
	}
	pt.job.Finish()
	if m.err != nil {
		pt.on = false
		b.setNote(noteError, fmt.Errorf("arranging the process tree: %w", m.err).Error())
		return nil
	}
	pt.flat = b.panes[frame.PaneControlFlow].tree
	b.swapRows(m.tree)
	b.setNote(noteInfo, fmt.Sprintf("process tree: child processes under their parent (%s: as stored)", b.sh.Keys.ProcessTree.Help().Key))
	return b.changed(false)
}

// swapRows shows t as Control Flow's rows, the selected thread (or
// process) still selected.
func (b *Gantt) swapRows(t *frame.RowTree) {
	cf := &b.panes[frame.PaneControlFlow]
	if old := cf.tree; old != nil {
		if n := old.Selected(); n >= 0 {
			if tid := old.Node(n).Tid; tid != "" {
				if i, ok := t.ByTID(tid); ok {
					t.SelectNode(i)
				}
			}
		}
	}
	cf.tree = t
}
