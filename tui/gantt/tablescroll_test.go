package gantt

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/ui"
)

// selectedLineText is the table's line of the selected event on screen.
func (hs *harness) selectedLineText() string {
	b := hs.b()
	return b.table.View(ui.Area{Width: b.sh.Width, Height: b.table.height + 2})[b.table.selLine()]
}

// testContentsScroll (the contents_left and contents_right bindings):
// with the table focused the Contents column scrolls right by half its
// width, marked «, up to the end of the longest contents on screen, and
// back left to the start; with the Gantt focused the keys do nothing.
func testContentsScroll(t *testing.T, hs *harness) {
	b := hs.b()
	hs.press("contents_right")
	if b.table.hoff != 0 {
		t.Fatalf("Gantt focused: contents scrolled to %d", b.table.hoff)
	}
	hs.press("focus")
	w := b.table.contentsWidth()
	hs.press("contents_right")
	if b.table.hoff != w/2 {
		t.Fatalf("scrolled to %d, want half the column, %d", b.table.hoff, w/2)
	}
	r, _ := b.table.selected()
	line := hs.selectedLineText()
	shown := []rune(r.Contents)[w/2+1:] // ASCII contents: one cell per rune
	if want := "«" + string(shown[:min(len(shown), w-2)]); !strings.Contains(line, want) {
		t.Errorf("scrolled line %q, want it to show %q", line, want)
	}
	longest := ""
	for i := b.table.top; i < b.table.top+int64(b.table.height); i++ {
		if c := b.table.cache[b.table.rankOf(i)].Contents; len(c) > len(longest) {
			longest = c
		}
	}
	for range 100 {
		hs.press("contents_right")
	}
	if want := frame.Cells(longest) - w; b.table.hoff != want || !strings.Contains(b.note, "end here") {
		t.Errorf("scrolled to %d (note %q), want the longest contents' end, %d", b.table.hoff, b.note, want)
	}
	if screen := hs.view(); !strings.Contains(screen, longest[len(longest)-w/2:]+"\n") {
		t.Errorf("the longest contents' end %q is not at the right edge:\n%s", longest[len(longest)-w/2:], screen)
	}
	off := b.table.hoff
	hs.press("down") // moving and filtering keep the offset
	hs.press("filter")
	hs.typeText("statedump")
	hs.keys("enter")
	if b.table.hoff != off || !b.table.filterOn {
		t.Errorf("after a move and a filter: offset %d, want %d (filter on %v)", b.table.hoff, off, b.table.filterOn)
	}
	for range 100 {
		hs.press("contents_left")
	}
	if b.table.hoff != 0 || strings.Contains(hs.view(), "«") {
		t.Errorf("scrolled back to %d; screen:\n%s", b.table.hoff, hs.view())
	}
}

// TestCopyEventLine: with the table focused, y copies the selected event
// as one line (the exact OSC 52 bytes).
func TestCopyEventLine(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	var out bytes.Buffer
	b := hs.b()
	b.sh.Clipboard = &out
	hs.press("focus")
	hs.press("down")
	hs.press("copy")
	rows, rank := hs.selectedEvent()
	r := rows[rank]
	text := fmt.Sprintf("%s [%d] %s/%s %s: %s", core.FormatTimestamp(r.Time), r.CPU, r.Process, r.TID, r.Event, r.Contents)
	if !strings.HasPrefix(text, "1412670961.000000000 [0] kworker/0:1/15 lttng_statedump_process_state: tid = 15, ") {
		t.Fatalf("the demo's second event changed: %q", text)
	}
	if want := osc52(text); out.String() != want {
		t.Errorf("wrote %q, want %q", out.String(), want)
	}
	if !strings.Contains(b.note, "copied the event") {
		t.Errorf("note %q", b.note)
	}
}

func TestEventLineLeavesOutWhatIsUnknown(t *testing.T) {
	for _, c := range []struct {
		r    frame.EventRow
		want string
	}{
		{frame.EventRow{Time: 1_500_000_000, CPU: -1, Event: "mark"}, "1.500000000 mark:"},
		{frame.EventRow{Time: 2, CPU: 3, TID: "7", Event: "e", Contents: "a=\x1b[31m"}, "0.000000002 [3] 7 e: a=\uFFFD[31m"},
		{frame.EventRow{CPU: 0, Process: "bash", Event: "e"}, "0.000000000 [0] bash e:"},
	} {
		if got := eventLine(&c.r); got != c.want {
			t.Errorf("eventLine(%+v) = %q, want %q", c.r, got, c.want)
		}
	}
}

func TestScrolledCell(t *testing.T) {
	for _, c := range []struct {
		s      string
		off, w int
		want   string
	}{
		{"abcdefghij", 0, 6, "abcde…"},
		{"abcdefghij", 2, 6, "«defg»"},
		{"abcdefghij", 4, 6, "«fghij"},
		{"abcdefghij", 10, 6, "«     "},
		{"ab日本語cd", 2, 6, "« 本» "}, // 日 cut in half: a space
		{"ab日本語cd", 3, 7, "«本語cd"},
		{"ab日本語cde", 3, 7, "«本語c»"},
		{"a\x1bbcdef", 1, 4, "«bc»"},
	} {
		if got := scrolledCell(c.s, c.off, c.w); got != c.want || frame.Cells(got) != c.w {
			t.Errorf("scrolledCell(%q, %d, %d) = %q, want %q (%d cells)", c.s, c.off, c.w, got, c.want, c.w)
		}
	}
}

// TestTableTimeFollowsAbsTimes: the table's Time column reads as the
// status line does, +offset from the trace start by default and absolute
// seconds after T, and back.
func TestTableTimeFollowsAbsTimes(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	b := hs.b()
	hs.press("focus")
	hs.press("down")
	rows, rank := hs.selectedEvent()
	rel := "+" + core.FormatTimestamp(rows[rank].Time-b.win.Start)
	abs := core.FormatTimestamp(rows[rank].Time)
	for _, want := range []string{rel, abs, rel} {
		if line := hs.selectedLineText(); !strings.HasPrefix(line, ui.SelMarker+want+" ") || !strings.Contains(b.statusLine(), "cur "+want[:1]) {
			t.Errorf("selected line %q, status %q: want time %q", line, b.statusLine(), want)
		}
		hs.press("abs_times")
	}
}

// TestGoToReadsTheTablesTimes: what the Time column shows, relative or
// absolute, is a time the go-to prompt reads back.
func TestGoToReadsTheTablesTimes(t *testing.T) {
	const start = core.Time(1412670961_000000000)
	for text, want := range map[string]core.Time{
		"+0.116740509":         start + 116740509,
		"+2.5":                 start + 2_500_000_000,
		"1412670961.116740509": start + 116740509,
		"+2.5ms":               start + 2_500_000,
	} {
		if got, err := parseGoTo(text, start); err != nil || got != want {
			t.Errorf("parseGoTo(%q) = %d, %v; want %d", text, got, err, want)
		}
	}
	if _, err := parseGoTo("+1.x", start); err == nil {
		t.Error("parseGoTo(+1.x) read a time")
	}
}

func TestEventTimeBeforeTheStart(t *testing.T) {
	sh := &ui.Shared{}
	for _, c := range []struct {
		t    core.Time
		abs  bool
		want string
	}{
		{1_500_000_000, false, "+0.500000000"},
		{500_000_000, false, "-0.500000000"},
		{500_000_000, true, "0.500000000"},
	} {
		sh.AbsTimes = c.abs
		if got := sh.EventTime(1e9, c.t); got != c.want {
			t.Errorf("eventTime(1s, %d, abs %v) = %q, want %q", c.t, c.abs, got, c.want)
		}
	}
}
