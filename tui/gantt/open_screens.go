package gantt

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/calltree"
	"github.com/tracetui/tracetui/ingest/query/critpath"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/screens/critical"
	"github.com/tracetui/tracetui/tui/screens/details"
	"github.com/tracetui/tracetui/tui/screens/flame"
	"github.com/tracetui/tracetui/tui/screens/overview"
	"github.com/tracetui/tracetui/tui/screens/stats"
	"github.com/tracetui/tracetui/tui/ui"
)

// Opening the screens: the main screen copies what a screen needs (the
// window, the selection, the selected row) and pushes it on the stack.

// openDetails opens the details pane of the selected event and of the
// selected row at the cursor.
func (b *Gantt) openDetails() tea.Cmd {
	var event *core.EventRow
	if r, ok := b.table.cache[b.table.rankOf(b.table.sel)]; ok && b.table.sel < b.table.len() {
		event = &r
	}
	var n *frame.Node
	t := b.tree()
	if sel := t.Selected(); sel >= 0 {
		n = new(t.Node(sel))
	}
	d, cmd := details.New(b.ctx, b.sh, b.names, b.hist, b.win, b.cursor, event, n)
	b.opened = d
	return cmd
}

// openCallTree aggregates the call stacks of the selected row over the
// selection (else the visible range) and opens the screen.
func (b *Gantt) openCallTree() tea.Cmd {
	r := flame.Request{Hist: b.hist, Label: b.names.Name, Start: b.win.Start, From: b.win.T0, To: b.win.T1, Pane: b.pane, Node: -1}
	span := "visible range"
	if b.hasSel {
		r.From, r.To, span = b.selStart, b.selEnd, "selection"
	}
	row := "all threads"
	t := b.tree()
	if sel := t.Selected(); sel >= 0 && b.pane == frame.PaneControlFlow {
		n := new(t.Node(sel))
		if n.Kind == frame.KindProcess || n.Kind == frame.KindThread || n.Kind == frame.KindCallStack || n.Kind == frame.KindSamples {
			row = n.Label
			if n.Kind == frame.KindSamples && n.Parent >= 0 {
				row = t.Node(n.Parent).Label // its thread's samples
			}
			r.Threads = rowThreads(t, sel)
			r.Node = sel
		}
	}
	r.What = row + " over the " + span
	if p, ok := b.trace.(profiler); ok {
		r.Samples = func(ctx context.Context, from, to core.Time, threads []core.Key) (*calltree.Node, error) {
			return sampleTree(ctx, p, b.hist.Attributes(), from, to, threads)
		}
	}
	v, cmd := flame.New(b.ctx, b.sh, r)
	b.opened = v
	return cmd
}

// openCritPath opens the critical path of the selected Control Flow thread.
func (b *Gantt) openCritPath() tea.Cmd {
	t := b.tree()
	sel := -1
	if b.pane == frame.PaneControlFlow {
		sel = int(t.Selected())
		if sel >= 0 && t.Node(int32(sel)).Kind == frame.KindSamples {
			sel = int(t.Node(int32(sel)).Parent) // its thread's path
		}
	}
	if sel < 0 || t.Node(int32(sel)).Tid == "" {
		b.setNote(noteInfo, "select a thread in Control Flow first")
		return nil
	}
	n := new(t.Node(int32(sel)))
	w := critpath.Worker{CPU: -1}
	if c, ok := strings.CutPrefix(n.Tid, "0_"); ok {
		cpu, _ := strconv.Atoi(c)
		w.CPU = int32(cpu)
	} else if tid, err := strconv.Atoi(n.Tid); err == nil {
		w.TID = int32(tid)
	}
	from, to, what := b.win.T0, b.win.T1+1, "visible range"
	if b.hasSel {
		from, to, what = b.selStart, b.selEnd+1, "selection"
	}
	title := fmt.Sprintf("Critical path of %s over the %s %s–%s", n.Label, what, b.RelTime(from), b.RelTime(to))
	v, cmd := critical.New(b.ctx, b.sh, b, b.hist, w, from, to, b.win.Start, title)
	b.opened = v
	return cmd
}

// GoToSegment selects a thread's Control Flow row and the span [from,
// to) (a critical-path segment), framed whole with an eighth of context
// on each side, the cursor at its start.
func (b *Gantt) GoToSegment(w critpath.Worker, from, to core.Time) tea.Cmd {
	if n, ok := b.tree().ByTID(frame.WakerAttr(core.Waker{ID: w.TID, CPU: w.CPU})); ok && b.pane == frame.PaneControlFlow {
		b.tree().SelectNode(n)
	}
	last := max(to-1, from)
	b.hasSel, b.selecting, b.selStart, b.selEnd = true, false, from, last
	span := last - from + 1
	margin := span/8 + 1
	b.win = b.win.WithRange(max(from-margin, b.win.Start), span+2*margin)
	return b.moveCursor(from, true)
}

// openStats opens the statistics of the selection (or the visible
// range) and starts computing them.
func (b *Gantt) openStats() tea.Cmd {
	in := stats.Input{Hist: b.hist, Events: b.trace.Events(), Start: b.win.Start, Pane: b.pane, Tree: b.tree(),
		Threads: b.panes[frame.PaneControlFlow].tree}
	in.From, in.To, in.What = b.win.T0, b.win.T1, "visible range"
	if b.hasSel {
		in.From, in.To, in.What = b.selStart, b.selEnd, "selection"
	}
	s, cmd := stats.New(b.ctx, b.sh, in)
	b.opened = s
	return cmd
}

// openOverview opens (or reuses) the overview of the visible range.
func (b *Gantt) openOverview(spatial bool) tea.Cmd {
	l := b.sh.Layout(b.showTable, b.tableLines)
	ov, cmd, ok := overview.New(b.ctx, b.sh, overview.Input{Window: &b.win, Tree: b.tree(), Cache: &b.ovCache, Spatial: spatial,
		Pane: b.pane, Hist: b.hist, GanttW: l.GanttW, Budget: b.ovBudget, Now: b.clock})
	if !ok {
		b.setNote(noteInfo, "no rows to aggregate in this view")
		return nil
	}
	b.opened = ov
	return cmd
}

// zoomTo applies a zoomMsg.
func (b *Gantt) zoomTo(z ui.ZoomMsg) tea.Cmd {
	if z.Node >= 0 && z.Pane == b.pane {
		t := b.tree()
		t.SelectNode(z.Node)
		t.Top = t.Sel
	}
	if z.Select {
		span := z.T1 - z.T0 + 1
		margin := span/8 + 1
		b.hasSel, b.selecting, b.selStart, b.selEnd = true, false, z.T0, z.T1
		b.win = b.win.WithRange(max(z.T0-margin, b.win.Start), span+2*margin)
		b.setNote(noteInfo, "selected "+z.What+" "+b.RelTime(z.T0)+"–"+b.RelTime(z.T1)+" ("+core.FormatDuration(span)+")")
		return b.moveCursor(z.T0, false)
	}
	b.win = b.win.WithRange(z.T0, z.T1-z.T0+1)
	b.setNote(noteInfo, "zoomed to "+z.What+" "+b.RelTime(z.T0)+"–"+b.RelTime(z.T1))
	return b.moveCursor(z.T0, false)
}

// rowThreads returns the threads of row sel of t (a process, thread,
// call-stack or samples row) whose call stacks F sums: a thread's or
// its rows' own thread; for a process, its leader thread (the process
// row draws it) and the threads below it, at any depth.
func rowThreads(t *frame.RowTree, sel int32) []core.Key {
	out := []core.Key{}
	n := t.Node(sel)
	if n.Kind == frame.KindCallStack || n.Kind == frame.KindSamples {
		return append(out, n.Thread)
	}
	var add func(i int32)
	add = func(i int32) {
		nd := t.Node(i)
		if nd.Thread >= 0 && (nd.Kind == frame.KindThread || nd.Kind == frame.KindProcess) {
			out = append(out, nd.Thread)
		}
		if nd.Kind == frame.KindProcess {
			for _, c := range t.Children(i) {
				add(c)
			}
		}
	}
	add(sel)
	return out
}

// profiler is a trace whose sampled stacks give profiles (ingest/trace's
// Profile: perf.data).
type profiler interface {
	Profile(ctx context.Context) (*trace.Profile, error)
}

// sampleTree is the call tree of p's sampled stacks of threads (nil: all)
// over [from, to); nil when the trace has none.
func sampleTree(ctx context.Context, p profiler, tree *core.AttributeTree, from, to core.Time, threads []core.Key) (*calltree.Node, error) {
	prof, err := p.Profile(ctx)
	if err != nil || prof.Samples() == 0 {
		return nil, err
	}
	var tids []int64
	if threads != nil {
		tids = trace.ThreadIDs(tree, threads)
	}
	self, err := prof.Count(ctx, from, to, tids)
	if err != nil {
		return nil, err
	}
	return calltree.FromSamples(ctx, prof, self)
}
