package sidebyside

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/ui"
	"github.com/tracetui/tracetui/tui/ui/headless"
)

// TestAlignAtMarks: BASE's mark a (the Gantt's) and NEW's mark a, set
// here at the cursor moved right, end up in the same column once aligned
// (NEW starting 1000 ns later than BASE); the cursor is on them, each
// side's frame is of its new window; missing marks and a non-letter say
// why and change nothing.
func TestAlignAtMarks(t *testing.T) {
	tr := frametest.NewDemoTrace()
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	sh := &ui.Shared{Width: 100, Height: 30, Styles: ui.NewStyles(r, true), Keys: keymap.Default()}
	start, end := tr.History().Bounds()
	span := (end - start) / 4
	baseMarks := map[rune]core.Time{'a': start + span/2}
	newMarks := map[rune]core.Time{}
	s, cmd := New(context.Background(), sh, Input{Base: tr, New: tr, Off: 0, Span: span, Cur: span / 2, Clock: func() time.Time { return time.Time{} },
		Marks: baseMarks, NewMarks: newMarks})
	t.Cleanup(s.Close)
	run(s, cmd)
	s.Sides[1].start += 1000 // as if NEW started later
	s.Sides[1].end += 1000

	key := func(k string) ui.Step {
		st := s.Update(headless.Key(k))
		run(s, st.Cmd)
		return st
	}
	key("A")
	if st := key("a"); !strings.Contains(st.Note, "no mark a on NEW") || s.Shift != 0 {
		t.Fatalf("A a without NEW's mark: note %q, shift %d", st.Note, s.Shift)
	}
	for range 7 {
		key("l")
	}
	col := span / core.Time(s.cols())
	if s.Cur != span/2+7*col {
		t.Fatalf("cursor +%d after 7 columns right, want +%d", s.Cur, span/2+7*col)
	}
	key("m")
	if st := key("a"); !strings.Contains(st.Note, "NEW's mark a set") {
		t.Fatalf("m a: note %q", st.Note)
	}
	if got, want := newMarks['a'], s.Sides[1].start+span/2+7*col; got != want {
		t.Fatalf("NEW's mark a at %d, want %d", got, want)
	}
	key("A")
	if st := key("a"); !strings.Contains(st.Note, "aligned at mark a") {
		t.Fatalf("A a: note %q", st.Note)
	}
	v0, v1 := s.window(0), s.window(1)
	if c0, c1 := v0.ColOf(baseMarks['a']), v1.ColOf(newMarks['a']); c0 != c1 || c0 < 0 || c0 >= v0.Cols {
		t.Fatalf("marks in columns %d (BASE) and %d (NEW)", c0, c1)
	}
	if s.Shift != 7*col || s.Cur != span/2 {
		t.Fatalf("shift %d cursor %d, want %d and %d", s.Shift, s.Cur, 7*col, span/2)
	}
	if s.Sides[0].Frame.Window != v0 || s.Sides[1].Frame.Window != v1 {
		t.Fatal("frames not of the aligned windows")
	}
	before := *s
	for _, ks := range [][2]string{{"A", "z"}, {"m", "esc"}, {"A", "1"}} {
		key(ks[0])
		if st := key(ks[1]); st.Note == "" || st.Done {
			t.Fatalf("%s %s: %+v", ks[0], ks[1], st)
		}
	}
	if s.Shift != before.Shift || s.Cur != before.Cur || s.Off != before.Off || len(newMarks) != 1 {
		t.Fatal("a cancelled or missing mark moved the view or set a mark")
	}
	s.marks[0] = nil
	if st := key("A"); !strings.Contains(st.Note, "no marks in BASE") || s.pending != pendingNone {
		t.Fatalf("A without BASE marks: %+v", st)
	}
}
