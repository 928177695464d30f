package sidebyside

import (
	"context"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// Input is what is shown: BASE and NEW, and the window as an offset from
// their starts and a span.
type Input struct {
	Base, New frame.Trace
	Off, Span core.Time
	Clock     func() time.Time // times the frame queries; nil: time.Now
	// Focus are the threads (or processes) whose rows are selected at
	// open on each side (0: none): the comparison's last go-to.
	Focus [2]int32
	// Cur is the cursor, as an offset from the starts (clamped to the
	// window).
	Cur core.Time
	// Marks are BASE's marks (the Gantt's), read only, and NEW's, which
	// the set-mark key writes: the caller keeps them from one opening to
	// the next (nil: none, and NEW's are kept by this view only).
	Marks, NewMarks map[rune]core.Time
}

// side is one trace's half of the screen.
type side struct {
	title      string
	tr         frame.Trace
	hist       core.History
	info       frame.TraceInfo
	names      *frame.FrameNames
	Tree       *frame.RowTree // nil until read
	err        error
	Frame      *frame.Frame // the last frame (maybe of an older window or rows)
	job        ui.Job
	inflight   bool // a frame query runs
	dirty      bool // the window or rows changed meanwhile: ask again when it ends
	start, end core.Time
	focus      int32 // Input.Focus
}

// Screen is the side-by-side view.
type Screen struct {
	sh        *ui.Shared
	ctx       context.Context
	clock     func() time.Time
	Sides     [2]side
	Active    int // the side the row keys move
	Off, Span core.Time
	// Shift moves NEW against BASE: NEW shows Off+Shift from its start,
	// to align two moments that are not at the same offset (the
	// contents keys nudge it a column at a time).
	Shift core.Time
	// Cur is the cursor, an offset from the starts (NEW's is shifted).
	Cur     core.Time
	marks   [2]map[rune]core.Time // BASE's (the Gantt's) and NEW's (marks.go)
	pending pending               // what the next key does (marks.go)
}

// Messages of the screen's jobs.
type (
	treeMsg struct {
		side int
		tree *frame.RowTree
		err  error
	}
	frameMsg struct {
		side int
		seq  uint64
		f    *frame.Frame
	}
)

// New opens the view and returns the command reading both traces' rows.
func New(ctx context.Context, sh *ui.Shared, in Input) (*Screen, tea.Cmd) {
	s := &Screen{sh: sh, ctx: ctx, clock: in.Clock}
	if s.clock == nil {
		s.clock = time.Now
	}
	var cmds []tea.Cmd
	for i, tr := range []frame.Trace{in.Base, in.New} {
		info := tr.Info()
		s.Sides[i] = side{title: []string{"BASE ", "NEW "}[i] + tr.Name(), tr: tr, hist: tr.History(), info: info,
			names: frame.NewFrameNames(tr), start: info.Start, end: info.End, focus: in.Focus[i]}
		if info.Start >= info.End { // a trace without events: its history's bounds
			s.Sides[i].start, s.Sides[i].end = tr.History().Bounds()
		}
		jctx, _ := s.Sides[i].job.Start(ctx)
		h, stored := tr.History(), frame.StoredRows(tr)
		cmds = append(cmds, func() tea.Msg {
			t, err := frame.BuildControlFlow(jctx, h, stored)
			return treeMsg{i, t, err}
		})
	}
	s.Off, s.Span, s.Cur = in.Off, in.Span, in.Cur
	s.marks = [2]map[rune]core.Time{in.Marks, in.NewMarks}
	if s.marks[1] == nil {
		s.marks[1] = map[rune]core.Time{}
	}
	s.clamp()
	return s, tea.Batch(cmds...)
}

// longest is the longer trace's span: the window pans over it.
func (s *Screen) longest() core.Time {
	return max(s.Sides[0].end-s.Sides[0].start, s.Sides[1].end-s.Sides[1].start) + 1
}

// clamp keeps the window inside the longer trace, at least a column per
// nanosecond wide.
func (s *Screen) clamp() {
	all := s.longest()
	s.Span = min(max(s.Span, core.Time(max(s.cols(), 1))), all)
	s.Off = min(max(s.Off, 0), all-s.Span)
	s.Cur = min(max(s.Cur, s.Off), s.Off+s.Span-1)
}

// window is side i's window: the shared offset from its own start.
func (s *Screen) window(i int) frame.Window {
	sd := &s.Sides[i]
	t0 := sd.start + s.Off
	if i == 1 {
		t0 += s.Shift
	}
	return frame.Window{Start: sd.start, End: sd.end, T0: t0, T1: t0 + s.Span - 1, Cols: s.cols()}
}

// Close cancels the queries.
func (s *Screen) Close() {
	for i := range s.Sides {
		s.Sides[i].job.Stop()
	}
}

// Update handles a key or a report.
func (s *Screen) Update(msg tea.Msg) ui.Step {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return s.key(msg)
	case tea.WindowSizeMsg:
		return ui.Step{Cmd: s.refresh()}
	case treeMsg:
		sd := &s.Sides[msg.side]
		sd.job.Finish()
		sd.Tree, sd.err = msg.tree, msg.err
		if n, ok := sd.Tree.ByTID(core.ThreadName(int64(sd.focus), -1)); ok && sd.focus != 0 {
			sd.Tree.SelectNode(n)
			sd.Tree.Top = sd.Tree.Sel
		}
		return ui.Step{Cmd: s.request(msg.side)}
	case frameMsg:
		sd := &s.Sides[msg.side]
		if !sd.job.Current(msg.seq) {
			return ui.Step{}
		}
		sd.job.Finish()
		sd.inflight, sd.Frame = false, msg.f
		if sd.dirty {
			sd.dirty = false
			return ui.Step{Cmd: s.request(msg.side)}
		}
	}
	return ui.Step{}
}

// refresh asks both sides for a frame.
func (s *Screen) refresh() tea.Cmd { return tea.Batch(s.request(0), s.request(1)) }

// request asks side i for the frame of its window and visible rows (one
// query at a time per side: a change while it runs asks again at its end).
func (s *Screen) request(i int) tea.Cmd {
	sd := &s.Sides[i]
	if sd.Tree == nil || s.sh.TooSmall() {
		return nil
	}
	if sd.inflight {
		sd.dirty = true
		return nil
	}
	t := sd.Tree
	h := s.rowsOf(i)
	t.Scroll(h)
	req := frame.FrameRequest{Summary: true, Pane: frame.PaneControlFlow, Now: s.clock, Hist: sd.hist, Window: s.window(i),
		Cursor: s.window(i).T0, Names: sd.names, Rate: frame.DensityPrior(sd.info, t.Len()), Guessed: true}
	for r := t.Top; r < min(t.Top+h, t.VisibleLen()); r++ {
		n := t.Node(t.VisibleRow(r))
		req.Rows = append(req.Rows, frame.FrameRow{Key: n.Key, Domain: n.Kind.Domain()})
	}
	sd.inflight = true
	ctx, seq := sd.job.Start(s.ctx)
	req.Seq = seq
	return func() tea.Msg { return frameMsg{i, seq, frame.RunFrame(ctx, req)} }
}

// key handles a key: time keys move both sides, row keys the active one.
func (s *Screen) key(msg tea.KeyMsg) ui.Step {
	km := &s.sh.Keys
	if st, ok := s.markKeys(msg); ok {
		return st
	}
	switch {
	case msg.Type == tea.KeyEsc || key.Matches(msg, km.SideBySide):
		return ui.Step{Done: true}
	case key.Matches(msg, km.Focus):
		s.Active = 1 - s.Active
		return ui.Step{}
	case key.Matches(msg, km.PanLeft, km.PanRight):
		d := max(s.Span/4, 1)
		if key.Matches(msg, km.PanLeft) {
			d = -d
		}
		s.Off += d
	case key.Matches(msg, km.ZoomIn, km.ZoomOut): // about the cursor, which keeps its column
		before, left := s.Span, s.Cur-s.Off
		if key.Matches(msg, km.ZoomIn) {
			s.Span /= 2
		} else {
			s.Span *= 2
		}
		s.clamp()
		s.Off = s.Cur - core.Time(float64(left)*float64(s.Span)/float64(max(before, 1)))
	case key.Matches(msg, km.ContentsLeft, km.ContentsRight):
		d := max(s.Span/core.Time(max(s.cols(), 1)), 1)
		if key.Matches(msg, km.ContentsLeft) {
			d = -d
		}
		s.Shift += d
		return ui.Step{Cmd: s.request(1)}
	case key.Matches(msg, km.ZoomAll):
		s.Off, s.Span = 0, s.longest()
	case key.Matches(msg, km.Left, km.Right):
		d := max(s.Span/core.Time(max(s.cols(), 1)), 1)
		if key.Matches(msg, km.Left) {
			d = -d
		}
		s.Cur += d
		if s.Cur < s.Off || s.Cur >= s.Off+s.Span { // the window follows
			s.Off += d
		}
		s.Cur = min(max(s.Cur, 0), s.longest()-1)
	case key.Matches(msg, km.Toggle):
		if t := s.Sides[s.Active].Tree; t == nil || !t.Toggle() {
			return ui.Step{}
		}
		return ui.Step{Cmd: s.request(s.Active)}
	default:
		t := s.Sides[s.Active].Tree
		d, ok := ui.LineMove(km, msg, int64(max(s.rowsOf(s.Active), 1)))
		if !ok {
			return ui.Step{Note: "side by side: " + s.Help()}
		}
		if t != nil {
			t.Move(int(max(min(d, 1<<30), -1<<30)))
			return ui.Step{Cmd: s.request(s.Active)}
		}
		return ui.Step{}
	}
	s.clamp()
	return ui.Step{Cmd: s.refresh()}
}
