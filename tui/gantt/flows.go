package gantt

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
)

// Flows (Chrome s/t/f) and links (Pajé) are attributes of the threads
// they leave and reach (see ingest/chrome/flows.go): Flow_out holds
// "<label>" from the flow's start or a step, Flow_in "<label> from
// <thread> at <ns>" from a step or its end, naming the previous step. The
// details line shows them; the flow key follows the flow at the cursor
// forward, step by step: from a Flow_out to where the flow arrives next
// (a query for the Flow_in that names it), and from the last step (a
// Flow_in alone) back to the first, walking the Flow_in chain, so that
// pressing it again and again cycles through the flow.

// flowFrom parses a Flow_in value: the thread and time of the previous step.
func flowFrom(v string) (tid string, t core.Time, ok bool) {
	i := strings.LastIndex(v, " from ")
	j := strings.LastIndex(v, " at ")
	if i < 0 || j < i {
		return "", 0, false
	}
	n, err := strconv.ParseInt(v[j+4:], 10, 64)
	if err != nil {
		return "", 0, false
	}
	return v[i+6 : j], core.Time(n), true
}

// flowFoundMsg is the step of a flow to go to, found by a query.
type flowFoundMsg struct {
	seq   uint64
	tid   string
	t     core.Time
	found bool
	first bool // the flow's first step (back from its last)
	err   error
}

// maxFlowSteps bounds the steps walked back to a flow's first.
const maxFlowSteps = 1 << 12

// jumpFlow moves the cursor along the flow at the cursor on the selected
// thread: to its next step, or from its last step to its first.
func (b *Gantt) jumpFlow() tea.Cmd {
	t := b.tree()
	sel := t.Selected()
	f := b.frame
	if sel < 0 || f == nil || t.Node(sel).Thread < 0 {
		b.setNote(noteInfo, "no flow here: select a thread at a flow's slice")
		return nil
	}
	th := t.Node(sel).Thread
	at := b.hist.Attributes()
	at0 := func(name string) (core.Interval, bool) {
		k, ok := at.Child(th, name)
		if !ok {
			return core.Interval{}, false
		}
		iv, ok := f.AtCursor[k]
		return iv, ok && iv.Contains(b.cursor) && !iv.Value.IsNull()
	}
	hist := b.hist
	out, ok := at0(core.AttrFlowOut)
	if !ok {
		in, ok := at0(core.AttrFlowIn)
		if !ok {
			b.setNote(noteInfo, "no flow here: select a thread at a flow's slice")
			return nil
		}
		ctx, seq := b.flows.Start(b.ctx)
		return func() tea.Msg {
			m := firstFlowStep(ctx, hist, in.Value.Str())
			m.seq = seq
			return m
		}
	}
	want := out.Value.Str() + " from " + at.Name(th) + " at " + strconv.FormatInt(int64(out.Start), 10)
	keys := at.Glob(core.AttrThreads + "/*/" + core.AttrFlowIn)
	ctx, seq := b.flows.Start(b.ctx)
	return func() tea.Msg {
		m := flowFoundMsg{seq: seq}
		_, end := hist.Bounds()
		_, m.err = hist.Query2D(ctx, keys, out.Start, end, func(iv core.Interval) bool {
			if iv.Value.Kind() == core.KindString && iv.Value.Str() == want && (!m.found || iv.Start < m.t) {
				m.tid, m.t, m.found = at.Name(at.Parent(iv.Key)), iv.Start, true
			}
			return true
		})
		return m
	}
}

// firstFlowStep walks a flow back from the Flow_in value in to its first
// step: each step's Flow_in, set at the step's own time, names the one
// before it; the first step has none.
func firstFlowStep(ctx context.Context, hist core.History, in string) flowFoundMsg {
	prefix := in[:strings.LastIndex(in, " from ")+len(" from ")] // "<label> from "
	m := flowFoundMsg{first: true}
	if m.tid, m.t, m.found = flowFrom(in); !m.found {
		m.err = fmt.Errorf("the flow's value %q names no step", in)
		return m
	}
	at := hist.Attributes()
	threads, ok := at.Child(core.Root, core.AttrThreads)
	if !ok {
		return m
	}
	for range maxFlowSteps {
		th, ok := at.Child(threads, m.tid)
		if !ok {
			return m
		}
		k, ok := at.Child(th, core.AttrFlowIn)
		if !ok {
			return m // the first step
		}
		prev, found := "", false
		if _, m.err = hist.Query2D(ctx, []core.Key{k}, m.t, m.t, func(iv core.Interval) bool {
			if iv.Start == m.t && iv.Value.Kind() == core.KindString && strings.HasPrefix(iv.Value.Str(), prefix) {
				prev, found = iv.Value.Str(), true
			}
			return true
		}); m.err != nil || !found {
			return m
		}
		tid, t, ok := flowFrom(prev)
		if !ok {
			return m
		}
		m.tid, m.t = tid, t
	}
	return m
}

// flowFound shows the flow's step found.
func (b *Gantt) flowFound(m flowFoundMsg) tea.Cmd {
	if !b.flows.Current(m.seq) {
		return nil // a later flow key press is running
	}
	b.flows.Finish()
	if m.err != nil && m.err != context.Canceled {
		b.setNote(noteError, "following the flow: "+m.err.Error())
		return nil
	}
	if !m.found {
		b.setNote(noteInfo, "this flow never arrives")
		return nil
	}
	what := "the flow's next step: "
	if m.first {
		what = "the flow's first step (from its last): "
	}
	b.setNote(noteInfo, what+m.tid+" at "+b.RelTime(m.t))
	return b.gotoEvent(frame.EventRow{TID: m.tid, Time: m.t, CPU: -1})
}
