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
)

// testStyles pins the colour profile, so screens do not depend on the
// terminal running the tests.
func testStyles(ascii bool) *Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	r.SetHasDarkBackground(true)
	return NewStyles(r, ascii)
}

// fixedClock is a clock that only moves when told.
type fixedClock struct{ t time.Time }

func (c *fixedClock) now() time.Time { return c.t }

// openerOf opens an already built trace.
func openerOf(tr Trace) Opener {
	return Opener{Name: tr.Name(), Indexed: true, Open: func(ctx context.Context, _ func(int64, int64)) (Trace, error) {
		return tr, nil
	}}
}

// harness drives a Model headlessly: every command runs synchronously on
// the test goroutine, in order, until none is left.
type harness struct {
	t    testing.TB
	m    *Model
	quit bool
}

func newHarness(t testing.TB, tr Trace, w, h int, ascii bool) *harness {
	t.Helper()
	clock := &fixedClock{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	return newHarnessClock(t, tr, w, h, ascii, clock.now)
}

// newHarnessClock is newHarness with a clock (time.Now for benchmarks, so
// query times are measured).
func newHarnessClock(t testing.TB, tr Trace, w, h int, ascii bool, clock func() time.Time) *harness {
	t.Helper()
	m := New(context.Background(), openerOf(tr), Settings{Styles: testStyles(ascii), Keys: keymap.Default(), Clock: clock})
	hs := &harness{t: t, m: m}
	t.Cleanup(func() {
		if err := m.close(); err != nil {
			t.Error(err)
		}
	})
	hs.send(tea.WindowSizeMsg{Width: w, Height: h})
	hs.run(m.Init())
	return hs
}

// run executes cmd and everything it leads to.
func (hs *harness) run(cmd tea.Cmd) {
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
			hs.quit = true
		default:
			_, next := hs.m.Update(msg)
			queue = append(queue, next)
		}
	}
}

// send delivers one message and runs what follows.
func (hs *harness) send(msg tea.Msg) {
	_, cmd := hs.m.Update(msg)
	hs.run(cmd)
}

// keys types keys: single characters, or names such as "enter", "tab",
// "pgdown", "left", "esc", "space", "ctrl+c".
func (hs *harness) keys(names ...string) {
	for _, n := range names {
		hs.send(keyMsg(n))
	}
}

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

// typeText types a string character by character.
func (hs *harness) typeText(s string) {
	for _, r := range s {
		hs.send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func (hs *harness) b() *browser { return hs.m.browser }

func (hs *harness) view() string { return hs.m.View() }

func lipglossWidth(s string) int { return lipgloss.Width(s) }

// topView returns the open view of type V nearest the top of the stack
// (nil when none is open).
func topView[V view](b *browser) V {
	var zero V
	for i := len(b.stack) - 1; i >= 0; i-- {
		if v, ok := b.stack[i].(V); ok {
			return v
		}
	}
	return zero
}

// ov is the open overview screen (nil when none is).
func (hs *harness) ov() *overviewScreen { return topView[*overviewScreen](hs.b()) }
