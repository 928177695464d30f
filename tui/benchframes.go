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
	"github.com/tracetui/tracetui/ingest/index/pstree"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
	"github.com/tracetui/tracetui/tui/ui/headless"
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
	d := &headless.Driver{M: m, Concurrent: true}
	bs := &benchScript{d: d, m: m, nodes: &ct.nodes}
	bs.step("open", func() {
		d.Send(tea.WindowSizeMsg{Width: opts.Width, Height: opts.Height})
		d.Run(m.Init())
	})
	if err := ctx.Err(); err != nil {
		return nil, errors.Join(err, m.close())
	}
	if m.gantt == nil || m.gantt.Tree() == nil {
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
	d     *headless.Driver
	m     *Model
	nodes *atomic.Int64
	steps []FrameStep
}

// step times fn and the View after it.
func (bs *benchScript) step(name string, fn func()) {
	n0 := bs.nodes.Load()
	t0 := time.Now()
	fn()
	bs.d.M.View()
	bs.steps = append(bs.steps, FrameStep{Key: name, MS: float64(time.Since(t0).Microseconds()) / 1000, Nodes: int(bs.nodes.Load() - n0)})
}

// keys times each key as one step.
func (bs *benchScript) keys(names ...string) {
	for _, k := range names {
		bs.step(k, func() { bs.d.Send(headless.Key(k)) })
	}
}

func (bs *benchScript) script(ctx context.Context) {
	b := bs.m.gantt
	bs.keys("j", "j", "j", "k", "pgdown", "pgdown", "pgup", "G", "g")
	zooms := 0
	for ; zooms < maxZoomSteps && b.Window().Span() > b.Window().MinSpan() && ctx.Err() == nil; zooms++ {
		bs.keys("w")
	}
	bs.keys("d", "d", "a", "a")
	for range zooms {
		bs.keys("s")
	}
	bs.keys("d", "a")
	if n := largestProcess(b.Tree()); n >= 0 {
		b.Tree().SelectNode(n) // setup, not a user key: the script's cursor
		bs.keys("enter", "enter")
		bs.keys("/")
		for _, r := range b.Tree().Node(n).Label {
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
