package tui

import (
	"context"
	"io"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
	"github.com/tracetui/tracetui/tui/ui/headless"
)

// testStyles pins the colour profile, so screens do not depend on the
// terminal running the tests.
func testStyles(ascii bool) *ui.Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	r.SetHasDarkBackground(true)
	st := ui.NewStyles(r, ascii)
	st.SevenBit = ascii // the goldens named _ascii are --ascii
	return st
}

// fixedClock is a clock that only moves when told.
type fixedClock struct{ t time.Time }

func (c *fixedClock) now() time.Time { return c.t }

// openerOf opens an already built trace.
func openerOf(tr frame.Trace) Opener {
	return Opener{Name: tr.Name(), Indexed: true, Open: func(ctx context.Context, _ func(int64, int64)) (frame.Trace, error) {
		return tr, nil
	}}
}

// harness drives a Model headlessly (see driver) for a test.
type harness struct {
	*headless.Driver
	m *Model
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
	m := New(context.Background(), openerOf(tr), Settings{Styles: testStyles(ascii), Keys: keymap.Default(), Clock: clock})
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

func (hs *harness) view() string { return hs.m.View() }
