package tui

import (
	"context"
	"errors"
	"regexp"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/overview"
)

// Views of the rows, indexes in browser.panes.
const (
	viewControlFlow = iota
	viewResources
)

// rowView is one view of the rows: threads (Control Flow) or CPUs
// (Resources).
type rowView struct {
	title string
	tree  *rowTree // nil until read
	rate  float64  // intervals per row per ns measured by its frames (0: unknown)
}

// browser is the main screen: ruler, row tree, Gantt, details line, event
// table, status and help lines. It owns the view state (time range, cursor,
// selection, rows) and issues the queries; results come back as tagged
// messages.
type browser struct {
	sh    *shared
	ctx   context.Context
	clock func() time.Time // query timings (pinned in tests)
	trace Trace
	hist  core.History
	info  TraceInfo
	names *frameNames // call-stack frames by symbol

	panes   []rowView // viewControlFlow, viewResources
	pane    int       // the one shown
	loadErr error

	tv                timeView
	cursor            core.Time
	selAnchor         core.Time
	selStart, selEnd  core.Time
	selecting, hasSel bool
	marks             namedMarks
	showTable         bool
	tableLines        int // preferred table height (events lines)

	stack []view // the views open above the base, bottom first (see view)

	frame    *frame        // last frame shown (may be for an older view)
	frames   job           // frame queries
	finds    job           // row finds (find.go)
	inflight bool          // a frame query is running
	dirty    bool          // the view changed while it ran: ask again when it ends
	scratch  *frameScratch // lent to the running query, returned with its frame

	changes job // [ and ] queries
	flows   job // flow key queries: the last one's result only is shown

	wakerJumps []wakerJump // where the follow-waker key left, for the back key

	density  density             // the strip's data
	ovCache  [2]*overview.Result // the last overview of each kind (temporal, spatiotemporal), reused on reopening
	ovBudget float64             // the overview's work budget (tests lower it)

	table  *eventTable
	prompt prompt
	findRe *regexp.Regexp
	note   string // one-line message (errors, "no match"), cleared by the next key
	noteIs noteKind

	helpW     int    // width helpText was rendered for
	helpText  string // the short help line
	helpFocus string // the focus helpText is the hint of
}

type noteKind uint8

const (
	noteInfo noteKind = iota
	noteError
)

// Messages of the browser's commands.
type (
	treeMsg struct {
		tree *rowTree
		err  error
	}
	changeMsg struct {
		seq uint64
		t   core.Time
		ok  bool
		err error
	}
)

func newBrowser(ctx context.Context, sh *shared, tr Trace, clock func() time.Time) *browser {
	b := &browser{sh: sh, ctx: ctx, clock: clock, trace: tr, hist: tr.History(), info: tr.Info(), showTable: true, tableLines: 5,
		ovBudget: overview.DefaultBudget,
		panes:    []rowView{viewControlFlow: {title: "Control Flow"}, viewResources: {title: "Resources"}}}
	start, end := b.hist.Bounds()
	end = max(end, start) // an empty history still gets a one-instant view
	b.tv = timeView{Start: start, End: end, Cols: 1}.whole()
	b.names = newFrameNames(tr)
	b.cursor = start
	b.table = newEventTable(ctx, sh, tr.Events(), start)
	b.panes[viewResources].tree = buildResources(b.hist)
	b.prompt = newPrompt(sh)
	return b
}

// init reads the process tree (stored with the index, else one 2D query
// over the whole trace).
func (b *browser) init() tea.Cmd {
	ctx, h, tr := b.ctx, b.hist, b.trace
	return tea.Batch(func() tea.Msg {
		t, err := buildControlFlow(ctx, h, storedRows(tr))
		return treeMsg{t, err}
	}, b.layout(), findEventsPart(ctx, b.trace.Events(), b.tv.Start, b.tv.End))
}

// tree is the current view's rows (never nil once loaded).
func (b *browser) tree() *rowTree { return b.panes[b.pane].tree }

// update routes one message.
func (b *browser) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return b.layout()
	case treeMsg:
		if msg.err != nil {
			b.loadErr = msg.err
			return nil
		}
		b.panes[viewControlFlow].tree = msg.tree
		return b.changed(false)
	case frameMsg:
		return b.gotFrame(msg.f)
	case densityMsg:
		b.gotDensity(msg)
		return nil
	case gapMsg:
		return b.gotEventsPart(msg)
	case zoomMsg:
		return b.zoomTo(msg)
	case rowsMsg, rankMsg, filterMsg:
		return b.apply(len(b.stack), b.table.Update(msg))
	case flowFoundMsg:
		return b.flowFound(msg)
	case gotoEventMsg:
		return b.gotoEvent(msg.row)
	case findMsg:
		return b.found(msg)
	case changeMsg:
		if !b.changes.current(msg.seq) {
			return nil
		}
		b.changes.finish()
		if msg.err != nil {
			b.setNote(noteError, msg.err.Error())
			return nil
		}
		if !msg.ok {
			b.setNote(noteInfo, "no other state change on this row")
			return nil
		}
		return b.moveCursor(msg.t, true)
	case promptDoneMsg:
		return b.promptDone(msg)
	case tea.KeyMsg:
		return b.key(msg)
	}
	cmd := b.routeMsg(msg)
	if b.prompt.active() {
		return tea.Batch(cmd, b.prompt.update(msg))
	}
	return cmd
}

// layout recomputes sizes after a resize or a change of the table.
func (b *browser) layout() tea.Cmd {
	l := b.sh.layout(b.showTable, b.tableLines)
	b.tv.Cols = max(l.ganttW, 1)
	b.tv = b.tv.withRange(b.tv.T0, b.tv.Span())
	b.table.height = l.tableEvents
	b.table.scroll()
	return tea.Batch(b.changed(false), b.requestDensity(l))
}

// changed is called after anything that changes the frame: it asks for a
// new frame (and the table rows), and when the cursor moved, scrolls the
// table to it.
func (b *browser) changed(cursorMoved bool) tea.Cmd {
	if b.tree() == nil {
		return nil
	}
	l := b.sh.layout(b.showTable, b.tableLines)
	b.tree().scroll(l.ganttRows)
	cmds := []tea.Cmd{b.requestFrame()}
	if cursorMoved {
		cmds = append(cmds, b.table.syncTo(b.ctx, b.cursor))
	}
	cmds = append(cmds, b.table.fetch(b.ctx))
	return tea.Batch(cmds...)
}

// requestFrame starts a frame query, or marks the view dirty when one is
// running (at most one query at a time; the newest view is asked as soon
// as it ends, so holding a key never queues stale work).
func (b *browser) requestFrame() tea.Cmd {
	if b.inflight {
		b.dirty = true
		return nil
	}
	req, ok := b.frameRequest()
	if !ok {
		return nil
	}
	b.inflight = true
	b.scratch = nil // the query owns it until its frame comes back
	ctx, seq := b.frames.start(b.ctx)
	req.seq = seq
	return queryFrameCmd(ctx, req)
}

// frameRequest copies what the query needs.
func (b *browser) frameRequest() (frameRequest, bool) {
	t := b.tree()
	if t == nil || b.sh.tooSmall() {
		return frameRequest{}, false
	}
	l := b.sh.layout(b.showTable, b.tableLines)
	req := frameRequest{summary: true, pane: b.pane, now: b.clock, scratch: b.scratch, hist: b.hist, view: b.tv, cursor: b.cursor, rate: b.panes[b.pane].rate, names: b.names}
	if req.rate == 0 {
		req.rate, req.guessed = densityPrior(b.info, t.len()), true
	}
	at := b.hist.Attributes()
	for i := t.top; i < min(t.top+l.ganttRows, t.visibleLen()); i++ {
		n := new(t.node(t.visibleRow(i)))
		if rk, ok := runKeyOf(at, n, len(req.rows)); ok {
			req.runs = append(req.runs, rk)
		}
		req.rows = append(req.rows, frameRow{key: n.key, domain: n.kind.domain()})
	}
	req.extra = b.detailKeys()
	req.wake = b.wakeKeysOf()
	if req.reusable(b.frame) {
		req.prev = b.frame
	}
	return req, true
}

// detailKeys are the attributes the details line reads at the cursor.
func (b *browser) detailKeys() []core.Key {
	t := b.tree()
	sel := t.selected()
	if sel < 0 {
		return nil
	}
	n := new(t.node(sel))
	at := b.hist.Attributes()
	var keys []core.Key
	if n.key >= 0 {
		keys = append(keys, n.key)
	}
	if n.thread >= 0 {
		for _, a := range []string{core.AttrExecName, core.AttrPPID, core.AttrSystemCall, core.AttrFlowIn, core.AttrFlowOut} {
			if k, ok := at.Child(n.thread, a); ok {
				keys = append(keys, k)
			}
		}
	}
	if n.kind == kindCPU {
		if k, ok := at.Child(n.key, core.AttrCurrentThread); ok {
			keys = append(keys, k)
		}
	}
	return keys
}

// gotFrame shows a frame unless an even newer one is shown, and asks
// again if the view changed meanwhile.
func (b *browser) gotFrame(f *frame) tea.Cmd {
	if !b.frames.current(f.seq) {
		return nil // not the query in flight
	}
	b.inflight = false
	b.frames.finish()
	b.scratch, f.scratch = f.scratch, nil
	if f.err != nil && !errors.Is(f.err, context.Canceled) {
		b.setNote(noteError, "query failed: "+f.err.Error())
	}
	if f.err == nil && f.pane == b.pane {
		b.frame = f
		if f.rate > 0 {
			b.panes[b.pane].rate = f.rate
		}
	}
	if b.dirty {
		b.dirty = false
		return b.requestFrame()
	}
	return nil
}

func (b *browser) setNote(k noteKind, s string) { b.note, b.noteIs = s, k }

// relTime prints t as an offset from the trace start, precise to a
// column of the view.
func (b *browser) relTime(t core.Time) string { return b.sh.relTime(b.tv.Start, t, b.tv.colWidth()) }
