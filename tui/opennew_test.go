package tui

import (
	"bytes"
	"context"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/ui/headless"
)

// closeCount is a trace that counts its closes.
type closeCount struct {
	frame.Trace
	closed *int
}

func (c closeCount) Close() error { *c.closed++; return nil }

// TestOpenNew: with Opener.OpenNew the browser opens both traces, the
// Gantt says it compares them, and both are closed at the end; a NEW that
// cannot be opened fails the opening with its reason, BASE still closed.
func TestOpenNew(t *testing.T) {
	var closed int
	base, next := closeCount{frametest.NewDemoTrace(), &closed}, closeCount{frametest.NewDemoTrace(), &closed}
	o := openerOf(base)
	o.OpenNew = openerOf(next).Open
	m := New(context.Background(), o, Settings{Styles: testStyles(true), Keys: keymap.Default()})
	hs := &harness{Driver: &headless.Driver{M: m}, m: m, t: t}
	hs.Send(tea.WindowSizeMsg{Width: 100, Height: 30})
	hs.Run(m.Init())
	if v := hs.view(); !bytes.Contains([]byte(v), []byte("comparing with NEW demo")) {
		t.Fatalf("no comparison note:\n%s", v)
	}
	if err := m.close(); err != nil || closed != 2 {
		t.Fatalf("close: %v, %d traces closed, want 2", err, closed)
	}

	closed = 0
	o.OpenNew = func(context.Context, func(int64, int64)) (frame.Trace, error) { return nil, errString("no such file") }
	m = New(context.Background(), o, Settings{Styles: testStyles(true), Keys: keymap.Default()})
	hs = &harness{Driver: &headless.Driver{M: m}, m: m, t: t}
	hs.Send(tea.WindowSizeMsg{Width: 100, Height: 30})
	hs.Run(m.Init())
	if v := hs.view(); !bytes.Contains([]byte(v), []byte("opening NEW: no such file")) {
		t.Fatalf("failure screen:\n%s", v)
	}
	if err := m.close(); err != nil || closed != 1 {
		t.Fatalf("close after failure: %v, %d traces closed, want BASE", err, closed)
	}
}
