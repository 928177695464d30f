package tui

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
)

// Views of the row tree.
const (
	viewControlFlow = 0
	viewResources   = 1
)

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

	trees   [2]*rowTree // nil until the process tree is read
	pane    int         // viewControlFlow or viewResources
	loadErr error

	tv                timeView
	cursor            core.Time
	selAnchor         core.Time
	selStart, selEnd  core.Time
	selecting, hasSel bool
	mark              core.Time
	hasMark           bool
	focusTable        bool
	showTable         bool
	tableLines        int // preferred table height (events lines)

	stack []view // the views open above the base, bottom first (see view)

	frame    *frame        // last frame shown (may be for an older view)
	frames   job           // frame queries
	inflight bool          // a frame query is running
	dirty    bool          // the view changed while it ran: ask again when it ends
	rate     [2]float64    // measured interval density per view
	scratch  *frameScratch // lent to the running query, returned with its frame

	changeSeq uint64 // [ and ] queries

	density  density      // the strip's data
	ovCache  [2]*ovResult // the last overview of each kind (temporal, spatiotemporal), reused on reopening
	ovBudget float64      // the overview's work budget (tests lower it)

	table  *eventTable
	prompt prompt
	findRe *regexp.Regexp
	note   string // one-line message (errors, "no match"), cleared by the next key
	noteIs noteKind

	helpW    int    // width helpText was rendered for
	helpText string // the short help line
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
		ovBudget: defaultOverviewBudget}
	start, end := b.hist.Bounds()
	end = max(end, start) // an empty history still gets a one-instant view
	b.tv = timeView{Start: start, End: end, Cols: 1}.whole()
	b.cursor = start
	b.table = newEventTable(tr.Events())
	b.trees[viewResources] = buildResources(b.hist)
	b.prompt = newPrompt(sh)
	return b
}

// init reads the process tree (one 2D query over the whole trace).
func (b *browser) init() tea.Cmd {
	ctx, h := b.ctx, b.hist
	return tea.Batch(func() tea.Msg {
		t, err := buildControlFlow(ctx, h)
		return treeMsg{t, err}
	}, b.layout())
}

// tree is the current view's rows (never nil once loaded).
func (b *browser) tree() *rowTree { return b.trees[b.pane] }

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
		b.trees[viewControlFlow] = msg.tree
		return b.changed(false)
	case frameMsg:
		return b.gotFrame(msg.f)
	case densityMsg:
		b.gotDensity(msg)
		return nil
	case zoomMsg:
		return b.zoomTo(msg)
	case rowsMsg:
		b.table.gotRows(msg)
		return nil
	case rankMsg:
		if b.table.gotRank(msg) {
			return b.table.fetch(b.ctx)
		}
		return nil
	case filterMsg:
		cmd, err := b.table.gotFilter(msg)
		if err != nil {
			b.setNote(noteError, err.Error())
		}
		return tea.Batch(cmd, b.table.fetch(b.ctx))
	case changeMsg:
		if msg.seq != b.changeSeq {
			return nil
		}
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
	req := frameRequest{pane: b.pane, now: b.clock, scratch: b.scratch, hist: b.hist, view: b.tv, cursor: b.cursor, rate: b.rate[b.pane]}
	for i := t.top; i < min(t.top+l.ganttRows, len(t.visible)); i++ {
		n := &t.nodes[t.visible[i]]
		req.rows = append(req.rows, frameRow{key: n.key, domain: n.kind.domain()})
	}
	req.extra = b.detailKeys()
	return req, true
}

// detailKeys are the attributes the details line reads at the cursor.
func (b *browser) detailKeys() []core.Key {
	t := b.tree()
	sel := t.selected()
	if sel < 0 {
		return nil
	}
	n := &t.nodes[sel]
	at := b.hist.Attributes()
	var keys []core.Key
	if n.key >= 0 {
		keys = append(keys, n.key)
	}
	if n.thread >= 0 {
		for _, a := range []string{core.AttrExecName, core.AttrPPID, core.AttrSystemCall} {
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
			b.rate[b.pane] = f.rate
		}
	}
	if b.dirty {
		b.dirty = false
		return b.requestFrame()
	}
	return nil
}

func (b *browser) setNote(k noteKind, s string) { b.note, b.noteIs = s, k }

// key handles a key press: the prompt, quit and help keys, then the
// views by the routing rule (see view).
func (b *browser) key(msg tea.KeyMsg) tea.Cmd {
	km := &b.sh.keys
	if b.prompt.active() {
		return b.prompt.update(msg)
	}
	b.note = ""
	if key.Matches(msg, km.Quit) {
		b.close()
		return tea.Quit
	}
	if _, open := b.top().(*helpView); !open && key.Matches(msg, km.Help) {
		b.push(&helpView{sh: b.sh})
		return nil
	}
	return b.routeKey(msg)
}

// close cancels all background work (on quit and when the program ends).
func (b *browser) close() {
	b.table.stop()
	b.closeViews()
	b.frames.stop()
}

// baseKey handles a key that no view used.
func (b *browser) baseKey(msg tea.KeyMsg) tea.Cmd {
	km := &b.sh.keys
	if msg.Type == tea.KeyEsc {
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
	case key.Matches(msg, km.SortNext, km.SortReverse):
		b.setNote(noteInfo, "sorting applies to the statistics tables: open them with "+km.Stats.Help().Key)
		return nil
	case key.Matches(msg, km.Legend):
		b.push(&legendView{sh: b.sh, host: b, passEsc: true})
		return nil
	case key.Matches(msg, km.Focus):
		b.focusTable = !b.focusTable && b.showTable
		return nil
	case key.Matches(msg, km.ControlFlow, km.Resources):
		v := viewControlFlow
		if key.Matches(msg, km.Resources) {
			v = viewResources
		}
		if v == b.pane {
			return nil
		}
		b.pane, b.frame = v, nil
		b.ovCache = [2]*ovResult{} // the overviews were of the other view's rows
		return b.changed(false)
	case key.Matches(msg, km.ToggleTable):
		b.showTable = !b.showTable
		if !b.showTable {
			b.focusTable = false
		}
		return b.layout()
	case key.Matches(msg, km.GrowTable, km.ShrinkTable):
		d := 2
		if key.Matches(msg, km.ShrinkTable) {
			d = -2
		}
		b.tableLines = max(1, b.tableLines+d)
		b.showTable = true
		l := b.sh.layout(b.showTable, b.tableLines)
		b.tableLines = l.tableEvents // clamped to the screen
		return b.layout()
	case key.Matches(msg, km.GoTo):
		return b.prompt.open(promptGoTo, "go to (12.5ms, +200us, 1412670961.2): ", "")
	case key.Matches(msg, km.Find):
		return b.prompt.open(promptFind, "find row (regex): ", "")
	case key.Matches(msg, km.FindNext, km.FindPrev):
		return b.findNext(key.Matches(msg, km.FindPrev))
	case key.Matches(msg, km.Filter):
		b.focusTable, b.showTable = true, true
		col := b.table.col
		return tea.Batch(b.layout(), b.prompt.open(promptFilter, fmt.Sprintf("filter %s (regex): ", col), b.table.pattern[col]))
	case key.Matches(msg, km.Select):
		b.toggleSelection()
		return nil
	case key.Matches(msg, km.SetMark):
		b.mark, b.hasMark = b.cursor, true
		b.setNote(noteInfo, "mark set at "+b.relTime(b.cursor))
		return nil
	case key.Matches(msg, km.JumpMark):
		if !b.hasMark {
			b.setNote(noteInfo, "no mark: set one with "+km.SetMark.Help().Key)
			return nil
		}
		return b.moveCursor(b.mark, true)
	case key.Matches(msg, km.ZoomIn, km.ZoomOut):
		f := 0.5
		if key.Matches(msg, km.ZoomOut) {
			f = 2
		}
		b.tv = b.tv.zoom(b.cursor, f)
		return b.changed(false)
	case key.Matches(msg, km.ZoomSelection):
		if !b.hasSel {
			b.setNote(noteInfo, "no selection: start and end one with "+km.Select.Help().Key)
			return nil
		}
		b.tv = b.tv.withRange(b.selStart, b.selEnd-b.selStart+1)
		return b.moveCursor(min(max(b.cursor, b.tv.T0), b.tv.T1), false)
	case key.Matches(msg, km.ZoomAll):
		b.tv = b.tv.whole()
		return b.changed(false)
	case key.Matches(msg, km.PanLeft, km.PanRight):
		d := b.tv.Span() / 2
		if key.Matches(msg, km.PanLeft) {
			d = -d
		}
		old := b.tv.T0
		b.tv = b.tv.pan(d)
		return b.moveCursor(b.cursor+(b.tv.T0-old), false)
	case key.Matches(msg, km.PrevChange, km.NextChange):
		return b.stateChange(key.Matches(msg, km.PrevChange))
	}
	if b.focusTable {
		return b.tableKey(msg)
	}
	return b.ganttKey(msg)
}

// ganttKey handles the keys whose meaning depends on focus, for the Gantt.
func (b *browser) ganttKey(msg tea.KeyMsg) tea.Cmd {
	km := &b.sh.keys
	t := b.tree()
	page := b.sh.layout(b.showTable, b.tableLines).ganttRows
	switch {
	case key.Matches(msg, km.Up):
		t.move(-1)
	case key.Matches(msg, km.Down):
		t.move(1)
	case key.Matches(msg, km.PageUp):
		t.move(-page)
	case key.Matches(msg, km.PageDown):
		t.move(page)
	case key.Matches(msg, km.Top):
		t.move(-len(t.visible))
	case key.Matches(msg, km.Bottom):
		t.move(len(t.visible))
	case key.Matches(msg, km.Toggle):
		if !t.toggle() {
			return nil
		}
	case key.Matches(msg, km.Left, km.Right):
		c := b.tv.ColOf(b.cursor)
		if key.Matches(msg, km.Left) {
			c--
		} else {
			c++
		}
		var tm core.Time
		switch {
		case c < 0:
			tm = b.cursor - b.tv.colWidth()
		case c >= b.tv.Cols:
			tm = b.tv.T1 + 1
		default:
			tm = b.tv.ColStart(c)
		}
		return b.moveCursor(min(max(tm, b.tv.Start), b.tv.End), false)
	default:
		return nil
	}
	return b.changed(false)
}

// tableKey handles the focus-dependent keys for the event table.
func (b *browser) tableKey(msg tea.KeyMsg) tea.Cmd {
	km := &b.sh.keys
	tb := b.table
	page := int64(max(tb.height, 1))
	switch {
	case key.Matches(msg, km.Up):
		tb.move(-1)
	case key.Matches(msg, km.Down):
		tb.move(1)
	case key.Matches(msg, km.PageUp):
		tb.move(-page)
	case key.Matches(msg, km.PageDown):
		tb.move(page)
	case key.Matches(msg, km.Top):
		tb.moveTo(0)
	case key.Matches(msg, km.Bottom):
		tb.moveTo(tb.len() - 1)
	case key.Matches(msg, km.Left):
		tb.col = max(tb.col-1, 0)
	case key.Matches(msg, km.Right):
		tb.col = min(tb.col+1, NumColumns-1)
	case key.Matches(msg, km.Toggle):
		return b.gotoEvent()
	default:
		return nil
	}
	return tb.fetch(b.ctx)
}

// gotoEvent moves the Gantt cursor to the selected event and selects its
// thread (Control Flow) or CPU (Resources).
func (b *browser) gotoEvent() tea.Cmd {
	tb := b.table
	if tb.len() == 0 {
		return nil
	}
	r, ok := tb.cache[tb.rankOf(tb.sel)]
	if !ok {
		b.setNote(noteInfo, "event not loaded yet")
		return nil
	}
	t := b.tree()
	if b.pane == viewControlFlow {
		if n, ok := t.byTID[r.TID]; ok {
			t.selectNode(n)
		}
	} else if r.CPU >= 0 {
		for i := range t.nodes {
			if t.nodes[i].kind == kindCPU && t.nodes[i].label == fmt.Sprintf("CPU %d", r.CPU) {
				t.selectNode(int32(i))
			}
		}
	}
	b.tv = b.tv.showing(r.Time)
	b.cursor = min(max(r.Time, b.tv.Start), b.tv.End)
	b.extendSelection()
	return b.changed(false) // the table already shows the event
}

// moveCursor puts the cursor at t (clamped to the trace), scrolls the
// view if needed (centring when it jumped out of view), and scrolls the
// table to it.
func (b *browser) moveCursor(t core.Time, jump bool) tea.Cmd {
	t = min(max(t, b.tv.Start), b.tv.End)
	if jump && (t < b.tv.T0 || t > b.tv.T1) {
		b.tv = b.tv.centredOn(t)
	} else {
		b.tv = b.tv.showing(t)
	}
	b.cursor = t
	b.extendSelection()
	return b.changed(true)
}

func (b *browser) toggleSelection() {
	if b.selecting {
		b.selecting = false
		b.setNote(noteInfo, "selection "+core.FormatDuration(b.selEnd-b.selStart+1))
		return
	}
	b.selecting, b.hasSel = true, true
	b.selAnchor = b.cursor
	b.extendSelection()
}

func (b *browser) extendSelection() {
	if b.selecting {
		b.selStart, b.selEnd = min(b.selAnchor, b.cursor), max(b.selAnchor, b.cursor)
	}
}

// stateChange asks for the previous or next state change of the selected
// row from the cursor.
func (b *browser) stateChange(prev bool) tea.Cmd {
	sel := b.tree().selected()
	if sel < 0 || b.tree().nodes[sel].key < 0 {
		return nil
	}
	b.changeSeq++
	seq, h, k, cur := b.changeSeq, b.hist, b.tree().nodes[sel].key, b.cursor
	ctx := b.ctx
	return func() tea.Msg {
		t, ok, err := findChange(ctx, h, k, cur, prev)
		return changeMsg{seq: seq, t: t, ok: ok, err: err}
	}
}

// findChange returns the start of the next state after cur, or the start
// of the current state (of the previous one when cur is already at a
// start).
func findChange(ctx context.Context, h core.History, k core.Key, cur core.Time, prev bool) (core.Time, bool, error) {
	start, end := h.Bounds()
	iv, _, err := h.Single(ctx, k, cur)
	if err != nil {
		return 0, false, err
	}
	if !prev {
		return iv.End + 1, iv.End < end, nil
	}
	if iv.Start < cur {
		return iv.Start, true, nil
	}
	if iv.Start <= start {
		return 0, false, nil
	}
	p, _, err := h.Single(ctx, k, iv.Start-1)
	return p.Start, err == nil, err
}

// findNext searches the rows with the last find regex.
func (b *browser) findNext(back bool) tea.Cmd {
	if b.findRe == nil {
		return b.prompt.open(promptFind, "find row (regex): ", "")
	}
	t := b.tree()
	n := t.find(b.findRe, back)
	if n < 0 {
		b.setNote(noteInfo, fmt.Sprintf("no row matches /%s/", b.findRe))
		return nil
	}
	t.selectNode(n)
	return b.changed(false)
}

// promptDone applies a confirmed prompt; an invalid entry reopens it with
// the error shown inline.
func (b *browser) promptDone(m promptDoneMsg) tea.Cmd {
	switch m.kind {
	case promptGoTo:
		t, err := core.ParseTime(m.text, b.tv.Start)
		if err == nil && (t < b.tv.Start || t > b.tv.End) {
			err = fmt.Errorf("%s is outside the trace [%s, %s]", m.text, core.FormatTimestamp(b.tv.Start), core.FormatTimestamp(b.tv.End))
		}
		if err != nil {
			return b.prompt.fail(err)
		}
		b.prompt.close()
		return b.moveCursor(t, true)
	case promptFind:
		re, err := regexp.Compile(m.text)
		if err != nil {
			return b.prompt.fail(err)
		}
		b.prompt.close()
		b.findRe = re
		return b.findNext(false)
	case promptFilter:
		if err := b.table.setPattern(b.table.col, m.text); err != nil {
			return b.prompt.fail(err)
		}
		b.prompt.close()
		return tea.Batch(b.table.startFilter(b.ctx), b.table.fetch(b.ctx))
	}
	return nil
}

// relTime prints t as an offset from the trace start.
func (b *browser) relTime(t core.Time) string { return "+" + core.FormatDuration(t-b.tv.Start) }

// lastQuery is the last frame's query time.
func (b *browser) lastQuery() time.Duration {
	if b.frame == nil {
		return 0
	}
	return b.frame.elapsed
}
