package gantt

import (
	"strings"
	"testing"

	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// ranksOf are the ranks of the demo events named name.
func ranksOf(hs *harness, name string) []int64 {
	var out []int64
	for _, r := range hs.b().trace.Events().(*frametest.MemEvents).All {
		if r.Event == name {
			out = append(out, r.Rank)
		}
	}
	return out
}

// TestTableSearchHighlightsWithoutFiltering: '/' with the table focused
// searches the focused column (Event): every event stays, the selection
// goes to the first match, n and N step through the matches (wrapping),
// and the ASCII marker column marks the matches on screen.
func TestTableSearchHighlightsWithoutFiltering(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 40, true)
	b := hs.b()
	hs.press("focus")
	hs.press("grow_table")
	hs.press("grow_table")
	hs.press("find")
	hs.typeText("^sched_wakeup$")
	hs.keys("enter")
	want := ranksOf(hs, "sched_wakeup")
	if len(want) < 3 {
		t.Fatalf("demo has %d sched_wakeup events", len(want))
	}
	tb := b.table
	if tb.filterOn || tb.len() != tb.total {
		t.Fatalf("the search filtered the table: %d of %d lines", tb.len(), tb.total)
	}
	if got := tb.selRank(); got != want[0] {
		t.Fatalf("selected rank %d, want the first match %d", got, want[0])
	}
	hs.press("find_next")
	if got := tb.selRank(); got != want[1] {
		t.Errorf("n: rank %d, want %d", got, want[1])
	}
	if !strings.Contains(b.statusLine()+hs.view(), "match 2 of") {
		t.Errorf("no 'match 2 of' note:\n%s", hs.view())
	}
	hs.press("find_prev")
	hs.press("find_prev") // wraps to the last match
	if got := tb.selRank(); got != want[len(want)-1] {
		t.Errorf("N past the first: rank %d, want the last %d", got, want[len(want)-1])
	}
	hs.press("find_next") // and back to the first
	if got := tb.selRank(); got != want[0] {
		t.Errorf("n past the last: rank %d, want the first %d", got, want[0])
	}
	marked, unmarked := 0, 0
	for _, line := range strings.Split(hs.view(), "\n") {
		if !strings.Contains(line, "+0.0") { // event lines only
			continue
		}
		switch {
		case strings.HasPrefix(line, searchMarker):
			marked++
			if !strings.Contains(line, "sched_wakeup ") {
				t.Errorf("marked line is no match: %q", line)
			}
		case strings.HasPrefix(line, " "):
			unmarked++
			if strings.Contains(line, "sched_wakeup ") {
				t.Errorf("match not marked: %q", line)
			}
		}
	}
	if marked == 0 || unmarked == 0 {
		t.Errorf("%d marked and %d unmarked event lines on screen, want both", marked, unmarked)
	}
	hs.press("find")
	hs.typeText("(")
	hs.keys("enter")
	if !b.prompt.Active() || b.prompt.Err == nil {
		t.Error("an invalid regex must keep the prompt open with the error")
	}
	hs.keys("esc")
	hs.press("focus") // back on the Gantt, / finds rows again
	hs.press("find")
	if !strings.Contains(hs.view(), "find row") {
		t.Error("/ on the Gantt no longer finds rows")
	}
}

// TestTableSearchRespectsTheFilter: with a filter on, n only lands on
// matches the filter shows; colour draws the matched cell in TreeMatch.
func TestTableSearchRespectsTheFilter(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 40, false)
	b := hs.b()
	hs.press("focus")
	hs.press("filter")
	hs.typeText("^softirq_")
	hs.keys("enter")
	b.table.col = frame.ColEvent
	hs.press("find")
	hs.typeText("entry")
	hs.keys("enter")
	tb := b.table
	for range 5 {
		r, ok := tb.cache[tb.selRank()]
		if !ok || r.Event != "softirq_entry" {
			t.Fatalf("selected %+v (read %v), want a softirq_entry", r, ok)
		}
		hs.press("find_next")
	}
	if !strings.Contains(hs.view(), b.sh.Styles.TreeMatch.Render(fitEventCell(b, "softirq_entry"))) {
		t.Errorf("no highlighted match cell in:\n%s", hs.view())
	}
}

// fitEventCell is an Event cell of text as the table draws it at the
// harness's width.
func fitEventCell(b *Gantt, text string) string {
	r := frame.EventRow{Event: text}
	return b.table.cell(&r, frame.ColEvent, tableWidths(b.sh.Width)[frame.ColEvent])
}
