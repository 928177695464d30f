package gantt

import (
	"context"
	"io"
	"path/filepath"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/screens/help"
	"github.com/tracetui/tracetui/tui/screens/overview"
	"github.com/tracetui/tracetui/tui/ui"
	"github.com/tracetui/tracetui/tui/ui/headless"
)

// testStyles pins the colour profile, so screens do not depend on the
// terminal running the tests.
func testStyles(ascii bool) *ui.Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	r.SetHasDarkBackground(true)
	return ui.NewStyles(r, ascii)
}

// fixedClock is a clock that only moves when told.
type fixedClock struct{ t time.Time }

func (c *fixedClock) now() time.Time { return c.t }

// testRoot is package tui's root model once the trace is open, for the
// Gantt's tests (which cannot import it): the window size, keys typed
// faster than read split one by one, the stack's rule, the screen.
type testRoot struct {
	ctx   context.Context
	sh    *ui.Shared
	tr    frame.Trace
	clock func() time.Time
	g     *Gantt
	views *ui.Stack
	focus int // Focus at open, as tui.Options.FocusTID
}

// Init opens the Gantt on the trace, as the root does once it is open.
func (r *testRoot) Init() tea.Cmd {
	r.g = New(r.ctx, r.sh, r.tr, r.clock)
	if r.focus != 0 {
		r.g.Focus(r.focus)
	}
	r.views = ui.NewStack(r.sh, r.g, func() ui.View { return help.New(r.sh) })
	r.g.SetViews(r.views)
	return r.g.Init()
}

// Update routes a message as the root does.
func (r *testRoot) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if keys, ok := ui.SplitKeys(msg); ok {
		cmds := make([]tea.Cmd, 0, len(keys))
		for _, k := range keys {
			_, cmd := r.Update(k)
			cmds = append(cmds, cmd)
		}
		return r, tea.Batch(cmds...)
	}
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		r.sh.Width, r.sh.Height = ws.Width, ws.Height
	}
	if r.views == nil {
		return r, nil
	}
	return r, r.views.Route(msg)
}

// View draws the screen as the root does.
func (r *testRoot) View() string {
	if r.sh.TooSmall() {
		return r.sh.TooSmallScreen()
	}
	return r.g.Render()
}

// close cancels everything and closes the trace, as the root does.
func (r *testRoot) close() error {
	if r.g != nil {
		r.views.CloseAll()
		r.g.Close()
	}
	return r.tr.Close()
}

// harness drives the Gantt headlessly (see headless.Driver) for a test.
type harness struct {
	*headless.Driver
	m *testRoot
	t testing.TB
}

func newHarness(t testing.TB, tr frame.Trace, w, h int, ascii bool) *harness {
	t.Helper()
	clock := &fixedClock{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	return newHarnessClock(t, tr, w, h, ascii, clock.now)
}

// newHarnessClock is newHarness with a clock (time.Now for benchmarks, so
// query times are measured).
func newHarnessClock(t testing.TB, tr frame.Trace, w, h int, ascii bool, clock func() time.Time) *harness {
	t.Helper()
	m := &testRoot{ctx: context.Background(), tr: tr, clock: clock,
		sh: &ui.Shared{Width: 80, Height: 24, Styles: testStyles(ascii), Keys: keymap.Default()}}
	hs := &harness{Driver: &headless.Driver{M: m}, m: m, t: t}
	t.Cleanup(func() {
		if err := m.close(); err != nil {
			t.Error(err)
		}
	})
	hs.Send(tea.WindowSizeMsg{Width: w, Height: h})
	hs.Run(m.Init())
	return hs
}

// keys types keys: single characters, or names such as "enter", "tab",
// "pgdown", "left", "esc", "space", "ctrl+c".
func (hs *harness) keys(names ...string) {
	for _, n := range names {
		hs.Send(headless.Key(n))
	}
}

// typeText types a string character by character.
func (hs *harness) typeText(s string) {
	for _, r := range s {
		hs.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func (hs *harness) b() *Gantt { return hs.m.g }

func (hs *harness) view() string { return hs.m.View() }

func lipglossWidth(s string) int { return lipgloss.Width(s) }

// topView returns the open view of type V nearest the top of the stack
// (nil when none is open).
func topView[V ui.View](b *Gantt) V {
	var zero V
	for i := b.views.Len() - 1; i >= 0; i-- {
		if v, ok := b.views.At(i).(V); ok {
			return v
		}
	}
	return zero
}

// ov is the open overview screen (nil when none is).
func (hs *harness) ov() *overview.Screen { return topView[*overview.Screen](hs.b()) }

// openSample opens a trace of the repository's testdata (path relative
// to it) through the real pipeline, closed when the test ends.
func openSample(t *testing.T, rel string) frame.Trace {
	t.Helper()
	it, err := trace.Open(context.Background(), filepath.Join("..", "..", "testdata", rel), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { it.Close() })
	return frametest.IngestTrace{Trace: it}
}
