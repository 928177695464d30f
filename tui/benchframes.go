package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/pstree"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// FrameStep is one key of the frames benchmark: the key, the time from the
// key to its rendered frame (Update, every command it leads to, run in
// order on the calling goroutine, and View), and the history nodes its
// queries read.
type FrameStep struct {
	Key   string  `json:"key"`
	MS    float64 `json:"ms"`
	Nodes int     `json:"nodes"`
}

// BenchOptions sizes the benchmark's screen (zero: 200x60).
type BenchOptions struct {
	Width, Height int
}

// maxZoomSteps bounds the zoom-in keys of the benchmark (a trace of
// 2^64 ns needs 64 halvings to reach one ns per column).
const maxZoomSteps = 64

// BenchFrames replays a fixed navigation script through the browser's own
// Update and View, without a terminal: the first frame, row moves, page
// down and up, to the last row and back, zoom in step by step down to a
// nanosecond per column and out again, pans, expanding and collapsing the
// largest process, a find, and the switch to Resources and back. It
// returns one step per key, the first frame first. The trace is closed
// when it returns.
func BenchFrames(ctx context.Context, tr frame.Trace, opts BenchOptions) ([]FrameStep, error) {
	if opts.Width <= 0 || opts.Height <= 0 {
		opts.Width, opts.Height = 200, 60
	}
	ct := &countingTrace{Trace: tr}
	ct.hist = countingHistory{History: tr.History(), nodes: &ct.nodes}
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	m := New(ctx, Opener{Name: tr.Name(), Indexed: true, Open: func(context.Context, func(int64, int64)) (frame.Trace, error) {
		return ct, nil
	}}, Settings{Styles: ui.NewStyles(r, false), Keys: keymap.Default()})
	d := &driver{m: m, concurrent: true}
	bs := &benchScript{d: d, nodes: &ct.nodes}
	bs.step("open", func() {
		d.send(tea.WindowSizeMsg{Width: opts.Width, Height: opts.Height})
		d.run(m.Init())
	})
	if err := ctx.Err(); err != nil {
		return nil, errors.Join(err, m.close())
	}
	if m.browser == nil || m.browser.tree() == nil {
		cause := m.Err()
		if cause == nil {
			cause = errors.New("no rows to show")
		}
		return nil, errors.Join(fmt.Errorf("opening the browser: %w", cause), m.close())
	}
	bs.script(ctx)
	if err := m.close(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return bs.steps, nil
}

// benchScript records the steps of BenchFrames.
type benchScript struct {
	d     *driver
	nodes *atomic.Int64
	steps []FrameStep
}

// step times fn and the View after it.
func (bs *benchScript) step(name string, fn func()) {
	n0 := bs.nodes.Load()
	t0 := time.Now()
	fn()
	bs.d.m.View()
	bs.steps = append(bs.steps, FrameStep{Key: name, MS: float64(time.Since(t0).Microseconds()) / 1000, Nodes: int(bs.nodes.Load() - n0)})
}

// keys times each key as one step.
func (bs *benchScript) keys(names ...string) {
	for _, k := range names {
		bs.step(k, func() { bs.d.send(keyMsg(k)) })
	}
}

func (bs *benchScript) script(ctx context.Context) {
	b := bs.d.m.browser
	bs.keys("j", "j", "j", "k", "pgdown", "pgdown", "pgup", "G", "g")
	zooms := 0
	for ; zooms < maxZoomSteps && b.win.Span() > b.win.MinSpan() && ctx.Err() == nil; zooms++ {
		bs.keys("w")
	}
	bs.keys("d", "d", "a", "a")
	for range zooms {
		bs.keys("s")
	}
	bs.keys("d", "a")
	if n := largestProcess(b.tree()); n >= 0 {
		b.tree().SelectNode(n) // setup, not a user key: the script's cursor
		bs.keys("enter", "enter")
		bs.keys("/")
		for _, r := range b.tree().Node(n).Label {
			bs.keys(string(r))
		}
		bs.keys("enter", "esc")
	}
	bs.keys("2", "j", "pgdown", "1")
}

// largestProcess returns the node with the most children (-1 if none has
// any).
func largestProcess(t *frame.RowTree) int32 {
	best, most := int32(-1), 0
	kids := make([]int, t.Len())
	t.Rows.ScanRecords(0, int32(t.Len()), func(i int32, r pstree.RowInfo) bool {
		if r.Parent >= 0 {
			if kids[r.Parent]++; kids[r.Parent] > most || (kids[r.Parent] == most && r.Parent < best) {
				best, most = r.Parent, kids[r.Parent]
			}
		}
		return true
	})
	return best
}

// driver runs a Model without a terminal: every command runs
// synchronously on the caller's goroutine, in order, until none is left
// (tests: the same messages in the same order every run); or, when
// concurrent, each command on a goroutine of its own as Bubble Tea runs
// them, their messages delivered to Update on the caller's goroutine as
// they arrive, until none is left (`bench frames`: the time the user
// waits, the frame's query and the event table's page overlapping on the
// two cores as they do on the screen).
type driver struct {
	m          *Model
	quit       bool
	concurrent bool
}

// run executes cmd and everything it leads to.
func (d *driver) run(cmd tea.Cmd) {
	if d.concurrent {
		d.runConcurrent(cmd)
		return
	}
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case tea.QuitMsg:
			d.quit = true
		default:
			_, next := d.m.Update(msg)
			queue = append(queue, next)
		}
	}
}

// runConcurrent executes cmd and everything it leads to, each command on
// its own goroutine.
func (d *driver) runConcurrent(cmd tea.Cmd) {
	msgs := make(chan tea.Msg)
	pending := 0
	start := func(c tea.Cmd) {
		if c != nil {
			pending++
			go func() { msgs <- c() }()
		}
	}
	start(cmd)
	for pending > 0 {
		msg := <-msgs
		pending--
		switch msg := msg.(type) {
		case nil:
		case tea.BatchMsg:
			for _, c := range msg {
				start(c)
			}
		case tea.QuitMsg:
			d.quit = true
		default:
			_, next := d.m.Update(msg)
			start(next)
		}
	}
}

// send delivers one message and runs what follows.
func (d *driver) send(msg tea.Msg) {
	_, cmd := d.m.Update(msg)
	d.run(cmd)
}

// keyMsg is the key named n: a single character, or a name such as
// "enter", "tab", "pgdown", "left", "esc", "space", "ctrl+c".
func keyMsg(n string) tea.KeyMsg {
	named := map[string]tea.KeyType{
		"enter": tea.KeyEnter, "tab": tea.KeyTab, "esc": tea.KeyEsc, "pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight, "home": tea.KeyHome,
		"end": tea.KeyEnd, "space": tea.KeySpace, "ctrl+c": tea.KeyCtrlC, "backspace": tea.KeyBackspace,
	}
	if kt, ok := named[n]; ok {
		if kt == tea.KeySpace {
			return tea.KeyMsg{Type: kt, Runes: []rune{' '}}
		}
		return tea.KeyMsg{Type: kt}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(n)}
}

// countingTrace is a trace whose history counts the nodes its queries
// read, for the benchmark's per-step figure.
type countingTrace struct {
	frame.Trace
	hist  countingHistory
	nodes atomic.Int64
}

func (t *countingTrace) History() core.History { return t.hist }

// ProcessTable passes on the wrapped trace's stored process tree.
func (t *countingTrace) ControlFlowRows() *pstree.Rows { return frame.StoredRows(t.Trace) }

// countingHistory adds every query's NodesRead to nodes (queries run on
// command goroutines, hence atomic).
type countingHistory struct {
	core.History
	nodes *atomic.Int64
}

func (h countingHistory) Single(ctx context.Context, key core.Key, t core.Time) (core.Interval, core.QueryStats, error) {
	iv, st, err := h.History.Single(ctx, key, t)
	h.nodes.Add(int64(st.NodesRead))
	return iv, st, err
}

func (h countingHistory) Full(ctx context.Context, t core.Time, fn func(core.Interval) bool) (core.QueryStats, error) {
	st, err := h.History.Full(ctx, t, fn)
	h.nodes.Add(int64(st.NodesRead))
	return st, err
}

func (h countingHistory) Query2D(ctx context.Context, keys []core.Key, t0, t1 core.Time, fn func(core.Interval) bool) (core.QueryStats, error) {
	st, err := h.History.Query2D(ctx, keys, t0, t1, fn)
	h.nodes.Add(int64(st.NodesRead))
	return st, err
}

func (h countingHistory) Query2DTimes(ctx context.Context, keys []core.Key, times []core.Time, fn func(core.Interval) bool) (core.QueryStats, error) {
	st, err := h.History.Query2DTimes(ctx, keys, times, fn)
	h.nodes.Add(int64(st.NodesRead))
	return st, err
}

// Summary forwards to the wrapped history's summaries, when it keeps any
// (they read no node).
func (h countingHistory) Summary(ctx context.Context, keys []core.Key, t0, t1, width core.Time, fn func(core.Key, core.SummaryRun) bool) ([]core.Key, core.QueryStats, error) {
	sz, ok := h.History.(core.Summarizer)
	if !ok {
		return nil, core.QueryStats{}, nil
	}
	served, st, err := sz.Summary(ctx, keys, t0, t1, width, fn)
	h.nodes.Add(int64(st.NodesRead))
	return served, st, err
}
