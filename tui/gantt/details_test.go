package gantt

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/screens/details"
	"github.com/tracetui/tracetui/tui/ui"
)

func TestSplitFields(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{`{ cpu_id = 0 }, { tid = 1200, pid = 1200, name = "a, b" }`, []string{"cpu_id = 0", "tid = 1200", "pid = 1200", `name = "a, b"`}},
		{`prev_comm = "swapper/1", next_tid = 4001`, []string{`prev_comm = "swapper/1"`, "next_tid = 4001"}},
		{`{ cpu_id = 0 }, { }`, []string{"cpu_id = 0"}},
		{`a = [ 1, 2 ], b = { x = 1, y = 2 }`, []string{"a = [ 1, 2 ]", "b = { x = 1, y = 2 }"}},
		{`{ a = { x = 1, y = 2 } }, { b = 3 }`, []string{"a = { x = 1, y = 2 }", "b = 3"}},
		{`s = "quote \" , inside"`, []string{`s = "quote \" , inside"`}},
		{``, nil},
	} {
		if got := details.SplitFields(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitFields(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestWrapText: every line fits, and the lines hold the whole text.
func TestWrapText(t *testing.T) {
	for _, s := range []string{"", "short", strings.Repeat("abc ", 40), strings.Repeat("x", 100), "日本語の名前 " + strings.Repeat("名", 30)} {
		for _, w := range []int{1, 2, 7, 20} {
			lines := ui.WrapText(s, w)
			for _, l := range lines {
				if frame.Cells(l) > w && frame.Cells(l) > 2 {
					t.Fatalf("wrapText(%q, %d): line %q too wide", s, w, l)
				}
			}
			if strings.ReplaceAll(strings.Join(lines, ""), " ", "") != strings.ReplaceAll(s, " ", "") {
				t.Fatalf("wrapText(%q, %d) lost text: %q", s, w, lines)
			}
		}
	}
}

// TestFilterKeepsTheCursorTime: a table filter applied selects the first
// match at or after the Gantt cursor, not the trace's first match.
func TestFilterKeepsTheCursorTime(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	hs.goTo("+5ms")
	hs.keys("f")
	hs.typeText("sched_switch")
	hs.keys("enter")
	b := hs.b()
	ev, r := hs.selectedEvent()
	if ev[r].Event != "sched_switch" || ev[r].Time < b.cursor {
		t.Fatalf("selected %+v, want the first sched_switch at or after %d", ev[r], b.cursor)
	}
	for _, m := range b.table.matches {
		if m < r && ev[m].Time >= b.cursor {
			t.Fatalf("match %d (%+v) is at or after the cursor and before the selected %d", m, ev[m], r)
		}
	}
}
