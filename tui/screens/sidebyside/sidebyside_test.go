package sidebyside

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/ui"
	"github.com/tracetui/tracetui/tui/ui/headless"
)

// renamed is a trace under another name (NEW, the same rows).
type renamed struct{ frame.Trace }

func (renamed) Name() string { return "other" }

// run executes a command and what it leads to on the screen, in order.
func run(s *Screen, cmd tea.Cmd) {
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
		default:
			queue = append(queue, s.Update(msg).Cmd)
		}
	}
}

func open(t *testing.T, base, next frame.Trace) *Screen {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	sh := &ui.Shared{Width: 100, Height: 30, Styles: ui.NewStyles(r, true), Keys: keymap.Default()}
	start, end := base.History().Bounds()
	s, cmd := New(context.Background(), sh, Input{Base: base, New: next, Off: 0, Span: end - start + 1, Clock: func() time.Time { return time.Time{} }})
	t.Cleanup(s.Close)
	run(s, cmd)
	return s
}

// TestTimeKeysMoveBoth: pan and zoom keep both sides at the same offset
// from their own starts and the same span, and each side's frame is of
// its window once the queries are in.
func TestTimeKeysMoveBoth(t *testing.T) {
	tr := frametest.NewDemoTrace()
	s := open(t, tr, tr)
	s.Sides[1].start += 1000 // as if NEW started later: its window follows its own start
	s.Sides[1].end += 1000
	for _, k := range []string{"w", "w", "d", "d", "s", "a", "w", "0", "w", "L"} {
		run(s, s.Update(headless.Key(k)).Cmd)
		v0, v1 := s.window(0), s.window(1)
		if v0.T0-s.Sides[0].start != v1.T0-s.Sides[1].start || v0.Span() != v1.Span() || v0.Span() != s.Span {
			t.Fatalf("after %s: windows %+v and %+v not aligned", k, v0, v1)
		}
		if s.Off < 0 || s.Off+s.Span > s.longest() {
			t.Fatalf("after %s: offset %d span %d outside %d", k, s.Off, s.Span, s.longest())
		}
		if s.Sides[0].Frame.Window != v0 {
			t.Fatalf("after %s: BASE's frame is of %+v, window %+v", k, s.Sides[0].Frame.Window, v0)
		}
	}
	if s.Span >= s.longest() || s.Off == 0 {
		t.Fatalf("zoomed in and panned right: offset %d span %d", s.Off, s.Span)
	}
}

// TestShift: the contents keys move NEW's window against BASE's by a
// column, and the time keys keep that shift.
func TestShift(t *testing.T) {
	tr := frametest.NewDemoTrace()
	s := open(t, tr, tr)
	run(s, s.Update(headless.Key("w")).Cmd)
	col := s.Span / core.Time(s.cols())
	for _, k := range []string{")", ")", ")", "("} {
		run(s, s.Update(headless.Key(k)).Cmd)
	}
	run(s, s.Update(headless.Key("d")).Cmd)
	v0, v1 := s.window(0), s.window(1)
	if d := (v1.T0 - s.Sides[1].start) - (v0.T0 - s.Sides[0].start); d != 2*col || v0.Span() != v1.Span() {
		t.Fatalf("NEW shifted by %d, want two columns (%d); spans %d %d", d, 2*col, v0.Span(), v1.Span())
	}
	if s.Sides[1].Frame.Window != v1 {
		t.Fatalf("NEW's frame is of %+v, window %+v", s.Sides[1].Frame.Window, v1)
	}
	if v := s.View(ui.Area{Width: 100, Height: 26}); !strings.Contains(v[0], "NEW +"+core.FormatDuration(2*col)+" later") {
		t.Fatalf("title: %q", v[0])
	}
}

// TestRowKeys: the row keys move the active side's rows only; tab
// changes the active side; esc and the view's key close it.
func TestRowKeys(t *testing.T) {
	tr := frametest.NewDemoTrace()
	s := open(t, tr, renamed{tr})
	run(s, s.Update(headless.Key("j")).Cmd)
	run(s, s.Update(headless.Key("j")).Cmd)
	if s.Sides[0].Tree.Sel != 2 {
		t.Fatalf("BASE row %d after j j, want 2", s.Sides[0].Tree.Sel)
	}
	s.Update(headless.Key("tab"))
	if s.Active != 1 {
		t.Fatal("tab did not change the active side")
	}
	run(s, s.Update(headless.Key("G")).Cmd)
	if s.Sides[0].Tree.Sel != 2 || s.Sides[1].Tree.Sel != s.Sides[1].Tree.VisibleLen()-1 {
		t.Fatalf("G on NEW: rows %d and %d", s.Sides[0].Tree.Sel, s.Sides[1].Tree.Sel)
	}
	if st := s.Update(headless.Key("x")); st.Done || st.Note == "" {
		t.Fatalf("unknown key: %+v", st)
	}
	for _, k := range []string{"esc", "V"} {
		if !s.Update(headless.Key(k)).Done {
			t.Errorf("%s does not close", k)
		}
	}
}
