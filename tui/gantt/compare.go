package gantt

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/calltree"
	"github.com/tracetui/tracetui/ingest/query/diff"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/screens/compare"
	"github.com/tracetui/tracetui/tui/screens/flame"
	"github.com/tracetui/tracetui/tui/screens/sidebyside"
	"github.com/tracetui/tracetui/tui/ui"
)

// Comparing (issue 34): the compare key opens the comparison screen on
// the two last selections of this trace, on the two last marked threads
// (the mark-thread key, when used after the last selection), or, when
// the browser was given two traces (`tracetui BASE NEW`), on BASE (this
// trace) and NEW; the
// side-by-side key shows both traces' Control Flow aligned at their
// starts.

// span is a finished selection, [from, to] inclusive.
type span struct{ from, to core.Time }

// maxSpans is how many finished selections the Gantt remembers.
const maxSpans = 2

// SetCompare gives the Gantt the NEW trace its trace (BASE) is compared
// with; nil: comparisons are of two selections.
func (b *Gantt) SetCompare(tr frame.Trace) {
	b.other, b.newMarks = tr, nil
	if tr != nil {
		b.otherNames = frame.NewFrameNames(tr)
		b.setNote(noteInfo, "comparing with NEW "+tr.Name()+": "+b.sh.Keys.Compare.Help().Key+" shows what changed")
	}
}

// rememberSelection keeps a finished selection for the compare key.
func (b *Gantt) rememberSelection() {
	b.spans = append(b.spans, span{b.selStart, b.selEnd})
	if len(b.spans) > maxSpans {
		b.spans = b.spans[len(b.spans)-maxSpans:]
	}
	b.lastThreads = false
}

// threadMark is a marked thread or process: its threads over a span.
type threadMark struct {
	span
	tids  []int32
	label string
}

// markThread marks the selected Control Flow thread (or a process's
// threads) over the selection, else the visible range, as A, then B:
// the compare key then compares B's figures with A's.
func (b *Gantt) markThread() {
	t := b.tree()
	sel := t.Selected()
	if b.pane != frame.PaneControlFlow || sel < 0 {
		b.setNote(noteInfo, "select a thread or process in Control Flow first")
		return
	}
	n := t.Node(sel)
	var tids []int32
	var add func(i int32)
	add = func(i int32) {
		switch nd := t.Node(i); nd.Kind {
		case frame.KindThread:
			if tid, err := strconv.ParseInt(nd.Tid, 10, 32); err == nil {
				tids = append(tids, int32(tid))
			}
		case frame.KindProcess:
			for _, c := range t.Children(i) {
				add(c)
			}
		}
	}
	add(sel)
	if len(tids) == 0 {
		b.setNote(noteInfo, "select a thread or process in Control Flow first (not a CPU's idle thread)")
		return
	}
	m := threadMark{span: span{b.win.T0, b.win.T1}, tids: tids, label: n.Label}
	if b.hasSel {
		m.span = span{b.selStart, b.selEnd}
	}
	b.threadMarks = append(b.threadMarks, m)
	if len(b.threadMarks) > maxSpans {
		b.threadMarks = b.threadMarks[len(b.threadMarks)-maxSpans:]
	}
	b.lastThreads = true
	km := &b.sh.Keys
	if len(b.threadMarks) == 1 {
		b.setNote(noteInfo, fmt.Sprintf("thread A: %s over %s; %s on another marks B", ui.Printable(n.Label), b.spanText(m.span), km.MarkThread.Help().Key))
		return
	}
	b.setNote(noteInfo, fmt.Sprintf("thread B: %s over %s; %s compares it with A", ui.Printable(n.Label), b.spanText(m.span), km.Compare.Help().Key))
}

// openCompare opens the comparison screen.
func (b *Gantt) openCompare() tea.Cmd {
	in := compare.Input{}
	if b.lastThreads {
		if len(b.threadMarks) < 2 {
			b.setNote(noteInfo, fmt.Sprintf("compare needs two marked threads (%s on one, then on another)", b.sh.Keys.MarkThread.Help().Key))
			return nil
		}
		a, c := b.threadMarks[0], b.threadMarks[1]
		side := func(letter string, m threadMark) diff.Side {
			return diff.Side{Name: letter + " " + m.label + " " + b.spanText(m.span), History: b.hist, From: m.from, To: m.to + 1,
				Label: b.names.Name, Profile: profileOf(b.trace), Threads: m.tids}
		}
		in.Base, in.New = side("A", a), side("B", c)
		in.What = "thread B against thread A"
	} else if b.other != nil {
		in.TwoTraces = true
		in.Base = diff.Side{Name: "BASE " + b.trace.Name(), History: b.hist, Label: b.names.Name, Profile: profileOf(b.trace)}
		in.New = diff.Side{Name: "NEW " + b.other.Name(), History: b.other.History(), Label: b.otherNames.Name, Profile: profileOf(b.other)}
		in.What = "two traces, whole: NEW against BASE"
	} else {
		if len(b.spans) < 2 {
			k := b.sh.Keys.Select.Help().Key
			return b.askNewTrace(fmt.Sprintf("compare needs two selections (%s … %s, twice), or two traces: tracetui BASE NEW", k, k))
		}
		a, c := b.spans[len(b.spans)-2], b.spans[len(b.spans)-1]
		in.Base = diff.Side{Name: "A " + b.spanText(a), History: b.hist, From: a.from, To: a.to + 1, Label: b.names.Name, Profile: profileOf(b.trace)}
		in.New = diff.Side{Name: "B " + b.spanText(c), History: b.hist, From: c.from, To: c.to + 1, Label: b.names.Name, Profile: profileOf(b.trace)}
		in.What = "the last selection (B) against the previous one (A)"
	}
	v, cmd := compare.New(b.ctx, b.sh, in)
	b.opened = v
	return cmd
}

// openSideBySide shows BASE and NEW's Control Flow one above the other,
// from the Gantt's window (as an offset from the start and a span) and
// cursor, with the Gantt's marks (BASE's) and NEW's marks (set there,
// kept here) to align them at.
func (b *Gantt) openSideBySide() tea.Cmd {
	if b.other == nil {
		b.setNote(noteInfo, "side by side needs two traces: tracetui BASE NEW")
		return nil
	}
	if b.newMarks == nil {
		b.newMarks = map[rune]core.Time{}
	}
	v, cmd := sidebyside.New(b.ctx, b.sh, sidebyside.Input{Base: b.trace, New: b.other, Off: b.win.T0 - b.win.Start, Span: b.win.Span(), Clock: b.clock,
		Focus: b.compared, Cur: b.cursor - b.win.Start, Marks: b.marks.at, NewMarks: b.newMarks})
	b.opened = v
	return cmd
}

// spanText is a selection as the comparison's title prints it.
func (b *Gantt) spanText(s span) string {
	return b.RelTime(s.from) + "–" + b.RelTime(s.to) + " (" + core.FormatDuration(s.to-s.from+1) + ")"
}

// goToCompared selects a compared thread or process in Control Flow: its
// BASE one with two traces (a row only in NEW is not in this Gantt), else
// its B one (or A's when absent from B), and says where it is on each side.
func (b *Gantt) goToCompared(g compare.GoToMsg) tea.Cmd {
	id, ok := g.NewID, g.InNew
	if g.TwoTraces || !ok {
		id, ok = g.BaseID, g.InBase
	}
	note := g.Describe()
	if g.TwoTraces {
		b.compared = [2]int32{}
		if g.InBase {
			b.compared[0] = g.BaseID
		}
		if g.InNew {
			b.compared[1] = g.NewID
		}
		note += " (" + b.sh.Keys.SideBySide.Help().Key + ": both side by side)"
	}
	if !ok {
		b.setNote(noteInfo, note+": not in this trace (the Gantt shows BASE)")
		return nil
	}
	t := b.panes[frame.PaneControlFlow].tree
	n, found := t.ByTID(core.ThreadName(int64(id), -1))
	if !found {
		b.setNote(noteInfo, note+fmt.Sprintf(": no Control Flow row for %d", id))
		return nil
	}
	if b.pane != frame.PaneControlFlow {
		b.pane, b.frame = frame.PaneControlFlow, nil
	}
	t.SelectNode(n)
	t.Top = t.Sel
	b.setNote(noteInfo, note)
	return b.changed(false)
}

// profileOf returns what reads a trace's sampled stacks for a diff side
// (perf.data: the call tree counts samples); nil when the trace has none.
func profileOf(tr frame.Trace) func(ctx context.Context) (diff.Profile, error) {
	p, ok := tr.(profiler)
	if !ok {
		return nil
	}
	return func(ctx context.Context) (diff.Profile, error) {
		prof, err := p.Profile(ctx)
		if err != nil {
			return nil, err
		}
		return prof, nil
	}
}

// openComparedPath opens the call tree screen above the comparison at a
// call path: NEW's tree (B's for two selections), BASE's behind the
// Focus key, each over its side's range.
func (b *Gantt) openComparedPath(m compare.PathMsg) tea.Cmd {
	path := strings.Join(m.Path, " > ")
	req := func(sd diff.Side, inGantt bool) flame.Request {
		start, end := sd.History.Bounds()
		from, to := sd.From, sd.To-1
		if sd.To <= sd.From {
			from, to = start, end
		}
		r := flame.Request{Hist: sd.History, Label: sd.Label, Start: start, From: from, To: to, Pane: b.pane, Node: -1,
			What: sd.Name + " at " + path, Path: m.Path, NoZoom: !inGantt}
		if sd.Threads != nil { // two marked threads
			r.Threads = []core.Key{}
			for _, tid := range sd.Threads {
				if k, ok := sd.History.Attributes().Lookup(core.AttrThreads + "/" + strconv.Itoa(int(tid))); ok {
					r.Threads = append(r.Threads, k)
				}
			}
		}
		if sd.Profile != nil {
			r.Samples = func(ctx context.Context, from, to core.Time, _ []core.Key) (*calltree.Node, error) {
				return sd.SampledTree(ctx, from, to)
			}
		}
		return r
	}
	base := req(m.Base, true)
	r := req(m.New, !m.TwoTraces)
	r.Other = &base
	v, cmd := flame.New(b.ctx, b.sh, r)
	b.opened = v
	return cmd
}
