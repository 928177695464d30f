package tui

import (
	"context"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
)

// Flows (Chrome s/t/f) and links (Pajé) are attributes of the threads
// they leave and reach (see ingest/chrome/flows.go): Flow_out holds
// "<label>" from the flow's start, Flow_in "<label> from <thread> at
// <ns>" from its arrival. The details line shows them; the flow key jumps
// from an arrival to its start (parsed from the value) or from a start to
// its arrival (a query for the Flow_in that names it).

// flowFrom parses a Flow_in value: the thread and time of the other end.
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

// flowFoundMsg is the other end of a flow start, found by a query.
type flowFoundMsg struct {
	tid   string
	t     core.Time
	found bool
	err   error
}

// jumpFlow moves the cursor to the other end of the flow at the cursor on
// the selected thread.
func (b *browser) jumpFlow() tea.Cmd {
	t := b.tree()
	sel := t.selected()
	f := b.frame
	if sel < 0 || f == nil || t.nodes[sel].thread < 0 {
		b.setNote(noteInfo, "no flow here: select a thread at a flow's slice")
		return nil
	}
	th := t.nodes[sel].thread
	at := b.hist.Attributes()
	at0 := func(name string) (core.Interval, bool) {
		k, ok := at.Child(th, name)
		if !ok {
			return core.Interval{}, false
		}
		iv, ok := f.atCursor[k]
		return iv, ok && iv.Contains(b.cursor) && !iv.Value.IsNull()
	}
	if iv, ok := at0(core.AttrFlowIn); ok {
		tid, ts, ok := flowFrom(iv.Value.Str())
		if ok {
			return func() tea.Msg { return flowFoundMsg{tid: tid, t: ts, found: true} }
		}
	}
	out, ok := at0(core.AttrFlowOut)
	if !ok {
		b.setNote(noteInfo, "no flow here: select a thread at a flow's slice")
		return nil
	}
	want := out.Value.Str() + " from " + at.Name(th) + " at " + strconv.FormatInt(int64(out.Start), 10)
	keys := at.Glob(core.AttrThreads + "/*/" + core.AttrFlowIn)
	hist, ctx := b.hist, b.ctx
	return func() tea.Msg {
		var m flowFoundMsg
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

// flowFound shows the other end of a flow.
func (b *browser) flowFound(m flowFoundMsg) tea.Cmd {
	if m.err != nil && m.err != context.Canceled {
		b.setNote(noteError, "finding the flow's end: "+m.err.Error())
		return nil
	}
	if !m.found {
		b.setNote(noteInfo, "this flow never arrives")
		return nil
	}
	b.setNote(noteInfo, "the flow's other end: "+m.tid+" at "+b.relTime(m.t))
	return b.gotoEvent(EventRow{TID: m.tid, Time: m.t, CPU: -1})
}
