package gantt

import (
	"context"
	"errors"
	"github.com/tracetui/tracetui/tui/screens/compare"
	"regexp"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/screens/overview/model"
	"github.com/tracetui/tracetui/tui/ui"
)

// pane is one arrangement of the rows: threads (Control Flow) or CPUs
// (Resources).
type pane struct {
	title string
	tree  *frame.RowTree // nil until read
	rate  float64        // intervals per row per ns measured by its frames (0: unknown)
}

// Gantt is the main screen, the bottom view of the stack: density strip,
// ruler, row tree, Gantt, details line, event table, status and help
// lines. It owns the window, the cursor, the selection and the rows, and
// issues the queries; results come back as tagged messages.
type Gantt struct {
	sh    *ui.Shared
	ctx   context.Context
	clock func() time.Time // query timings (pinned in tests)
	trace frame.Trace
	hist  core.History
	info  frame.TraceInfo
	names *frame.FrameNames // call-stack frames by symbol
	evNum ui.Job            // reading the event '#' asked for
	// restoreTID: the thread of the last session's view, selected once
	// the rows are read (session.go).
	restoreTID string
	idle       idleState     // hiding the rows idle in the window (idle.go)
	procTree   procTreeState // the process tree (proctree.go)

	panes   []pane // paneControlFlow, paneResources
	pane    int    // the one shown
	loadErr error

	win               frame.Window
	cursor            core.Time
	selAnchor         core.Time
	selStart, selEnd  core.Time
	selecting, hasSel bool
	marks             namedMarks
	spans             []span             // the last finished selections (compare.go)
	threadMarks       []threadMark       // the last marked threads (compare.go)
	lastThreads       bool               // a thread was marked after the last selection: compare threads
	other             frame.Trace        // the NEW trace compared with this one (nil: none)
	otherNames        *frame.FrameNames  // its call-stack frames
	compared          [2]int32           // the comparison's last go-to: its thread in BASE and in NEW (0: none)
	newMarks          map[rune]core.Time // NEW's marks, set side by side (compare.go)
	opening           newOpening         // opening a NEW trace from the prompt (opennew.go)
	showTable         bool
	tableLines        int // preferred table height (events lines)

	views  *ui.Stack // the stack the Gantt is the bottom of (the root's): its chrome draws the top view
	opened ui.View   // a view a key opened, pushed by the Step of this Update

	frame    *frame.Frame        // last frame shown (may be for an older window)
	frames   ui.Job              // frame queries
	finds    ui.Job              // row finds (find.go)
	inflight bool                // a frame query is running
	dirty    bool                // the window or rows changed while it ran: ask again when it ends
	scratch  *frame.FrameScratch // lent to the running query, returned with its frame

	changes ui.Job // [ and ] queries
	flows   ui.Job // flow key queries: the last one's result only is shown

	wakerJumps []wakerJump // where the follow-waker key left, for the back key

	density  density          // the strip's data
	ovCache  [2]*model.Result // the last overview of each kind (temporal, spatiotemporal), reused on reopening
	ovBudget float64          // the overview's work budget (tests lower it)

	table  *eventTable
	prompt ui.Prompt
	findRe *regexp.Regexp
	// focusing: the find in flight is Focus's
	focusing bool
	note     string // one-line message (errors, "no match"), cleared by the next key
	noteIs   noteKind

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
		tree *frame.RowTree
		err  error
	}
	changeMsg struct {
		seq uint64
		t   core.Time
		ok  bool
		err error
	}
)

// New returns the main screen of an opened trace; ctx bounds its queries,
// clock times them (the status line).
func New(ctx context.Context, sh *ui.Shared, tr frame.Trace, clock func() time.Time) *Gantt {
	b := &Gantt{sh: sh, ctx: ctx, clock: clock, trace: tr, hist: tr.History(), info: tr.Info(), showTable: true, tableLines: 5,
		ovBudget: model.DefaultBudget,
		panes:    []pane{frame.PaneControlFlow: {title: "Control Flow"}, frame.PaneResources: {title: "Resources"}}}
	start, end := b.hist.Bounds()
	end = max(end, start) // an empty history still gets a one-instant window
	b.win = frame.Window{Start: start, End: end, Cols: 1}.Whole()
	b.names = frame.NewFrameNames(tr)
	b.cursor = start
	b.table = newEventTable(ctx, sh, tr.Events(), start)
	b.panes[frame.PaneResources].tree = frame.BuildResources(b.hist)
	b.prompt = ui.NewPrompt(sh)
	return b
}

// init reads the process tree (stored with the index, else one 2D query
// over the whole trace).
func (b *Gantt) Init() tea.Cmd {
	ctx, h, tr := b.ctx, b.hist, b.trace
	restored := b.restoreView()
	return tea.Batch(func() tea.Msg {
		t, err := frame.BuildControlFlow(ctx, h, frame.StoredRows(tr))
		return treeMsg{t, err}
	}, b.layout(), findEventsPart(ctx, b.trace.Events(), b.win.Start, b.win.End), restored)
}

// opensExpanded reports whether a trace of format opens with every row
// expanded: Chrome's and Pajé's rows are few and their contents (slices
// on call stack depths, containers' states) sit under collapsed rows.
func opensExpanded(format string) bool { return format == "chrome" || format == "paje" }

// tree is the shown pane's rows (never nil once loaded).
func (b *Gantt) tree() *frame.RowTree { return b.panes[b.pane].tree }

// Update handles a key no view above used, or a message (the Gantt's
// own reports; it ignores the others).
func (b *Gantt) Update(msg tea.Msg) ui.Step {
	var cmd tea.Cmd
	if k, ok := msg.(tea.KeyMsg); ok {
		cmd = b.baseKey(k)
	} else {
		cmd = b.handle(msg)
	}
	s := ui.Step{Cmd: cmd, Open: b.opened}
	b.opened = nil
	return s
}

// View draws the Gantt, the details line and the table.
func (b *Gantt) View(ui.Area) []string {
	return b.body(b.sh.Layout(b.showTable, b.tableLines), false)
}

// Help is the Gantt's short help line (of the focus: Gantt or table).
func (b *Gantt) Help() string { return b.shortHelp() }

// SetViews tells the Gantt the stack it is the base of: its chrome draws
// the stack's top view, help line and ruler marks.
func (b *Gantt) SetViews(s *ui.Stack) { b.views = s }

// Tree is the shown pane's rows (nil until read).
func (b *Gantt) Tree() *frame.RowTree { return b.tree() }

// Window is the time window on screen.
func (b *Gantt) Window() frame.Window { return b.win }

// Close cancels the Gantt's background work (on quit and when the
// program ends).
func (b *Gantt) Close() {
	b.closeJobs()
	b.closeOwned()
	_ = b.saveView() // nowhere left to say a failure: the next open starts as new
}

// own carries out a step of a part of the main screen (the table): its
// note, the view it opens, its command.
func (b *Gantt) own(s ui.Step) tea.Cmd {
	if s.Note != "" {
		b.Note(s.Note, s.Warn)
	}
	if s.Open != nil {
		b.opened = s.Open
	}
	return s.Cmd
}

// KeyPressed clears the status note: it lasts until the next key, except
// while typing.
func (b *Gantt) KeyPressed(typing bool) {
	if !typing {
		b.note = ""
	}
}

// Note shows a view's note on the status line.
func (b *Gantt) Note(text string, warn bool) {
	k := noteInfo
	if warn {
		k = noteError
	}
	b.setNote(k, text)
}

// handle applies a message: the Gantt's reports.
func (b *Gantt) handle(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return b.layout()
	case treeMsg:
		if msg.err != nil {
			b.loadErr = msg.err
			return nil
		}
		b.panes[frame.PaneControlFlow].tree = msg.tree
		if opensExpanded(b.info.Format) {
			msg.tree.ExpandAll()
		}
		b.restoreThread(msg.tree)
		if b.focusing {
			return tea.Batch(b.changed(false), b.findNext(false))
		}
		return b.changed(false)
	case frameMsg:
		return b.gotFrame(msg.f)
	case densityMsg:
		b.gotDensity(msg)
		return nil
	case gapMsg:
		return b.gotEventsPart(msg)
	case ui.ZoomMsg:
		return b.zoomTo(msg)
	case compare.GoToMsg:
		return b.goToCompared(msg)
	case openNewMsg:
		return b.gotOpenNew(msg)
	case compare.PathMsg:
		return b.openComparedPath(msg)
	case rowsMsg, rankMsg, filterMsg, searchMsg:
		return b.own(b.table.Update(msg))
	case flowFoundMsg:
		return b.flowFound(msg)
	case gotoEventMsg:
		return b.gotoEvent(msg.row)
	case procTreeMsg:
		return b.gotProcTree(msg)
	case idleMsg:
		return b.gotIdle(msg)
	case copiedMsg:
		b.Note(msg.note, msg.warn)
		return nil
	case eventNumberMsg:
		return b.gotEventNumber(msg)
	case findMsg:
		return b.found(msg)
	case changeMsg:
		if !b.changes.Current(msg.seq) {
			return nil
		}
		b.changes.Finish()
		if msg.err != nil {
			b.setNote(noteError, msg.err.Error())
			return nil
		}
		if !msg.ok {
			b.setNote(noteInfo, "no other state change on this row")
			return nil
		}
		return b.moveCursor(msg.t, true)
	case ui.PromptDoneMsg:
		if b.prompt.Active() { // not a prompt of a view above
			return b.promptDone(msg)
		}
	}
	return nil
}

// layout recomputes sizes after a resize or a change of the table.
func (b *Gantt) layout() tea.Cmd {
	l := b.sh.Layout(b.showTable, b.tableLines)
	b.win.Cols = max(l.GanttW, 1)
	b.win = b.win.WithRange(b.win.T0, b.win.Span())
	b.table.height = l.TableEvents
	b.table.scroll()
	return tea.Batch(b.changed(false), b.requestDensity(l))
}

// changed is called after anything that changes the frame: it asks for a
// new frame (and the table rows), and when the cursor moved, scrolls the
// table to it.
func (b *Gantt) changed(cursorMoved bool) tea.Cmd {
	if b.tree() == nil {
		return nil
	}
	l := b.sh.Layout(b.showTable, b.tableLines)
	b.tree().Scroll(l.GanttRows)
	cmds := []tea.Cmd{b.requestFrame()}
	if cursorMoved {
		cmds = append(cmds, b.table.syncTo(b.ctx, b.cursor))
	}
	cmds = append(cmds, b.table.fetch(b.ctx), b.refreshIdle())
	return tea.Batch(cmds...)
}

// requestFrame starts a frame query, or marks the screen dirty when one is
// running (at most one query at a time; the newest window is asked as soon
// as it ends, so holding a key never queues stale work).
func (b *Gantt) requestFrame() tea.Cmd {
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
	ctx, seq := b.frames.Start(b.ctx)
	req.Seq = seq
	return queryFrameCmd(ctx, req)
}

// frameRequest copies what the query needs.
func (b *Gantt) frameRequest() (frame.FrameRequest, bool) {
	t := b.tree()
	if t == nil || b.sh.TooSmall() {
		return frame.FrameRequest{}, false
	}
	l := b.sh.Layout(b.showTable, b.tableLines)
	req := frame.FrameRequest{Summary: true, Pane: b.pane, Now: b.clock, Scratch: b.scratch, Hist: b.hist, Window: b.win, Cursor: b.cursor, Rate: b.panes[b.pane].rate, Names: b.names}
	if req.Rate == 0 {
		req.Rate, req.Guessed = frame.DensityPrior(b.info, t.Len()), true
	}
	at := b.hist.Attributes()
	for i := t.Top; i < min(t.Top+l.GanttRows, t.VisibleLen()); i++ {
		n := new(t.Node(t.VisibleRow(i)))
		if rk, ok := frame.RunKeyOf(at, n, len(req.Rows)); ok {
			req.Runs = append(req.Runs, rk)
		}
		req.Rows = append(req.Rows, frame.FrameRow{Key: n.Key, Domain: n.Kind.Domain()})
	}
	req.Extra = b.detailKeys()
	req.Wake = b.wakeKeysOf()
	if req.Reusable(b.frame) {
		req.Prev = b.frame
	}
	return req, true
}

// detailKeys are the attributes the details line reads at the cursor.
func (b *Gantt) detailKeys() []core.Key {
	t := b.tree()
	sel := t.Selected()
	if sel < 0 {
		return nil
	}
	n := new(t.Node(sel))
	at := b.hist.Attributes()
	var keys []core.Key
	if n.Kind == frame.KindSamples {
		return nil // its own query reads it (tui/frame/framesamples.go); the details line says its counts
	}
	if n.Key >= 0 {
		keys = append(keys, n.Key)
	}
	if n.Thread >= 0 {
		for _, a := range []string{core.AttrExecName, core.AttrPPID, core.AttrSystemCall, core.AttrFlowIn, core.AttrFlowOut} {
			if k, ok := at.Child(n.Thread, a); ok {
				keys = append(keys, k)
			}
		}
	}
	if n.Kind == frame.KindCPU {
		if k, ok := at.Child(n.Key, core.AttrCurrentThread); ok {
			keys = append(keys, k)
		}
	}
	return keys
}

// gotFrame shows a frame unless an even newer one is shown, and asks
// again if the window changed meanwhile.
func (b *Gantt) gotFrame(f *frame.Frame) tea.Cmd {
	if !b.frames.Current(f.Seq) {
		return nil // not the query in flight
	}
	b.inflight = false
	b.frames.Finish()
	b.scratch, f.Scratch = f.Scratch, nil
	if f.Err != nil && !errors.Is(f.Err, context.Canceled) {
		b.setNote(noteError, "query failed: "+f.Err.Error())
	}
	if f.Err == nil && f.Pane == b.pane {
		b.frame = f
		if f.Rate > 0 {
			b.panes[b.pane].rate = f.Rate
		}
	}
	if b.dirty {
		b.dirty = false
		return b.requestFrame()
	}
	return nil
}

func (b *Gantt) setNote(k noteKind, s string) { b.note, b.noteIs = s, k }

// relTime prints t as an offset from the trace start, precise to a
// column of the window.
func (b *Gantt) RelTime(t core.Time) string { return b.sh.RelTime(b.win.Start, t, b.win.ColWidth()) }

// frameMsg carries a frame to the UI.
type frameMsg struct{ f *frame.Frame }

// queryFrameCmd runs the request off the UI goroutine.
func queryFrameCmd(ctx context.Context, req frame.FrameRequest) tea.Cmd {
	return func() tea.Msg { return frameMsg{frame.RunFrame(ctx, req)} }
}
