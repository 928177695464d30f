package gantt

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/ui"
	"github.com/tracetui/tracetui/tui/ui/headless"
)

// TestFocusAtOpen: a Gantt told to focus a thread (tracetui record's CMD)
// opens with that thread's row selected and first on screen, the last row
// too, leaving no find to repeat; an unknown tid leaves the first row
// selected, silently.
func TestFocusAtOpen(t *testing.T) {
	tr := frametest.NewDemoTrace()
	plain := newHarness(t, tr, 100, 30, true)
	tree := plain.b().tree()
	// A process row that is not the first (the demo's firefox): on a
	// screen taller than the demo's rows, first means blank rows below.
	last, n := int32(-1), 0
	for i := int32(0); i < int32(tree.Len()); i++ {
		if tree.Node(i).Label == "firefox 2000" {
			last, n = i, 2000
		}
	}
	if last <= 0 {
		t.Fatal("the demo has no firefox 2000 row after the first")
	}
	// The last row with a tid: first on screen too, blank rows below it.
	end, endTID := int32(-1), 0
	for i := int32(tree.Len()) - 1; i > 0 && end < 0; i-- {
		label := tree.Node(i).Label
		if sp := strings.LastIndexByte(label, ' '); sp > 0 {
			if tid, err := strconv.Atoi(label[sp+1:]); err == nil {
				end, endTID = i, tid
			}
		}
	}
	if end <= last {
		t.Fatal("the demo has no row with a tid after firefox 2000")
	}
	for _, c := range []struct {
		tid  int
		want int32
	}{{n, last}, {endTID, end}, {999_999, 0}} {
		m := &testRoot{ctx: context.Background(), tr: tr, clock: time.Now, focus: c.tid,
			sh: &ui.Shared{Width: 80, Height: 24, Styles: testStyles(true), Keys: keymap.Default()}}
		hs := &harness{Driver: &headless.Driver{M: m}, m: m, t: t}
		hs.Send(tea.WindowSizeMsg{Width: 100, Height: 30})
		hs.Run(m.Init())
		got := hs.b().tree()
		if got.Selected() != c.want || c.want != 0 && got.Top != got.Sel {
			t.Errorf("focus %d: row %d selected (top %d, sel %d), want row %d first", c.tid, got.Selected(), got.Top, got.Sel, c.want)
		}
		if hs.b().findRe != nil || hs.b().note != "" {
			t.Errorf("focus %d: find %v and note %q left behind", c.tid, hs.b().findRe, hs.b().note)
		}
		m.close()
	}
}
