package tui

import (
	"context"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/ui"
	"github.com/tracetui/tracetui/tui/ui/headless"
)

// TestCtrlCQuitsWhenQuitIsUnbound: a keys.json of {"quit": []} must not
// leave the user without a way out (issue 18): Ctrl-C quits the browser,
// also while a prompt is open, and the failure screen.
func TestCtrlCQuitsWhenQuitIsUnbound(t *testing.T) {
	km := keymap.Default()
	km.Quit.SetKeys()
	clock := &fixedClock{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	for _, prompt := range []bool{false, true} {
		m := New(context.Background(), openerOf(frametest.NewDemoTrace()), Settings{Styles: testStyles(true), Keys: km, Clock: clock.now})
		hs := &harness{Driver: &headless.Driver{M: m}, m: m, t: t}
		hs.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
		hs.Run(m.Init())
		if prompt {
			hs.keys("/")
			if _, open := hs.m.views.Top().(*ui.PromptView); !open {
				t.Fatal("/ opened no prompt")
			}
		}
		hs.keys("q")
		if hs.Quit && !prompt {
			t.Fatal("q quit although unbound")
		}
		hs.keys("ctrl+c")
		if !hs.Quit {
			t.Errorf("ctrl+c did not quit (prompt open: %v)", prompt)
		}
		m.close()
	}
	opener := Opener{Name: "broken", Indexed: true, Open: func(context.Context, func(int64, int64)) (frame.Trace, error) {
		return nil, errString("bad trace")
	}}
	m := New(context.Background(), opener, Settings{Styles: testStyles(true), Keys: km})
	hs := &harness{Driver: &headless.Driver{M: m}, m: m, t: t}
	hs.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	hs.Run(m.Init())
	hs.keys("ctrl+c")
	if !hs.Quit {
		t.Error("ctrl+c did not quit the failure screen")
	}
}
