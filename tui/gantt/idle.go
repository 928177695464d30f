package gantt

import (
	"context"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index/pstree"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// Hiding the rows idle in the window (the hide-idle key, a toggle). A row
// is active in [T0, T1] when it holds a busy value there (busyIn): a
// thread that runs; any other row that holds a value (a call on a stack
// depth, an IRQ handled). A row is shown when it or a
// row under it is active; the outermost idle rows are hidden with their
// subtrees. The rows are read and the window queried in a background
// job, again whenever the window changes while the toggle is on.

// idleMsg is the rows found idle for a window of a pane.
type idleMsg struct {
	seq    uint64
	tree   *frame.RowTree
	t0, t1 core.Time
	hidden []int32
	err    error
}

// idleState is the toggle and its last answer.
type idleState struct {
	on     bool
	job    ui.Job
	t0, t1 core.Time      // the window of the rows hidden
	tree   *frame.RowTree // the tree they were computed for
}

// toggleIdle turns hiding idle rows on or off.
func (b *Gantt) toggleIdle() tea.Cmd {
	b.idle.on = !b.idle.on
	if !b.idle.on {
		b.idle.job.Stop()
		for _, t := range []*frame.RowTree{b.panes[frame.PaneControlFlow].tree, b.panes[frame.PaneResources].tree, b.procTree.flat} {
			if t != nil { // the rows put aside by the process tree too
				t.SetHidden(nil)
			}
		}
		b.idle.tree = nil
		b.setNote(noteInfo, "every row shown")
		return b.changed(false)
	}
	b.setNote(noteInfo, "hiding the rows idle in the window…")
	return b.refreshIdle()
}

// refreshIdle starts finding the idle rows of the window when the toggle
// is on and the last answer is of another window or pane.
func (b *Gantt) refreshIdle() tea.Cmd {
	t := b.tree()
	if !b.idle.on || t == nil || (b.idle.tree == t && b.idle.t0 == b.win.T0 && b.idle.t1 == b.win.T1) {
		return nil
	}
	b.idle.tree, b.idle.t0, b.idle.t1 = t, b.win.T0, b.win.T1
	ctx, seq := b.idle.job.Start(b.ctx)
	h, t0, t1 := b.hist, b.win.T0, b.win.T1
	return func() tea.Msg {
		hidden, err := idleRows(ctx, h, t.Rows, t0, t1)
		return idleMsg{seq: seq, tree: t, t0: t0, t1: t1, hidden: hidden, err: err}
	}
}

// gotIdle hides the idle rows found.
func (b *Gantt) gotIdle(m idleMsg) tea.Cmd {
	if !b.idle.job.Current(m.seq) {
		return nil
	}
	b.idle.job.Finish()
	if m.err != nil {
		b.setNote(noteError, fmt.Errorf("finding the idle rows: %w", m.err).Error())
		return nil
	}
	m.tree.SetHidden(m.hidden)
	b.setNote(noteInfo, fmt.Sprintf("%d rows idle in the window hidden (%s shows them)", len(m.hidden), b.sh.Keys.HideIdle.Help().Key))
	return b.changed(false)
}

// idleRows returns the outermost rows of rows idle in [t0, t1], ascending.
func idleRows(ctx context.Context, h core.History, rows *pstree.Rows, t0, t1 core.Time) ([]int32, error) {
	n := int32(rows.Len())
	info := make([]pstree.RowInfo, n)
	var keys []core.Key
	byKey := map[core.Key][]int32{}
	rows.ScanRecords(0, n, func(i int32, r pstree.RowInfo) bool {
		info[i] = r
		if r.Key >= 0 {
			k := core.Key(r.Key)
			if len(byKey[k]) == 0 {
				keys = append(keys, k)
			}
			byKey[k] = append(byKey[k], i)
		}
		return true
	})
	if err := rows.Err(); err != nil {
		return nil, err
	}
	active := make([]bool, n)
	_, err := h.Query2D(ctx, keys, t0, t1, func(iv core.Interval) bool {
		for _, i := range byKey[iv.Key] {
			if !active[i] && busyIn(iv, info[i].Kind) {
				active[i] = true
			}
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	for i := n - 1; i >= 0; i-- { // children follow their parent: bottom-up
		if p := info[i].Parent; active[i] && p >= 0 {
			active[p] = true
		}
	}
	var hidden []int32
	for i := int32(0); i < n; {
		if !active[i] {
			hidden = append(hidden, i)
			i = info[i].End // its subtree goes with it
			continue
		}
		i++
	}
	return hidden, nil
}

// busyIn reports whether interval iv of a row of kind makes the row
// active in [t0, t1]: a thread (or process leader) that runs there (in
// user mode, a system call or an interrupt: waiting and unknown are
// idle, even when they change, as every thread's first state does at the
// trace start); any other row that holds a value there or changes value
// inside the window.
func busyIn(iv core.Interval, kind pstree.Kind) bool {
	if iv.Value.IsNull() {
		return false
	}
	if kind != pstree.KindThread && kind != pstree.KindProcess || iv.Value.Kind() != core.KindInt32 {
		return true
	}
	switch core.ThreadStatus(iv.Value.Int()) {
	case core.ThreadRunUser, core.ThreadRunSyscall, core.ThreadInterrupted:
		return true
	}
	return false
}
