package gantt

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"github.com/tracetui/tracetui/tui/screens/compare"
	"github.com/tracetui/tracetui/tui/screens/sidebyside"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/screens/details"
	"github.com/tracetui/tracetui/tui/screens/flame"
	"github.com/tracetui/tracetui/tui/screens/help"
	"github.com/tracetui/tracetui/tui/screens/stats"
	"github.com/tracetui/tracetui/tui/ui/headless"
)

// press sends the first key of the named action.
func (hs *harness) press(action string) {
	hs.t.Helper()
	km := keymap.Default()
	for _, a := range km.Actions() {
		if a.Name == action {
			k := a.Binding.Keys()[0]
			if k == " " {
				k = "space"
			}
			hs.keys(k)
			return
		}
	}
	hs.t.Fatalf("no action %q", action)
}

// goTo moves the cursor with the go-to prompt.
func (hs *harness) goTo(text string) {
	hs.press("goto")
	hs.typeText(text)
	hs.keys("enter")
}

// selectedEvent returns the demo trace's events and the rank of the
// table's selected one.
func (hs *harness) selectedEvent() ([]frame.EventRow, int64) {
	b := hs.b()
	return b.trace.Events().(*frametest.MemEvents).All, b.table.rankOf(b.table.sel)
}

// selectedLabel is the label of the selected row.
func (hs *harness) selectedLabel() string {
	t := hs.b().tree()
	return t.Node(t.Selected()).Label
}

// selectRow selects the row with the given label.
func (hs *harness) selectRow(label string) {
	hs.t.Helper()
	t := hs.b().tree()
	for i := range int32(t.Len()) {
		if t.Node(i).Label == label {
			t.SelectNode(i)
			hs.Run(hs.b().changed(false))
			return
		}
	}
	hs.t.Fatalf("no row %q", label)
}

// bindingTests has one Update test per action of the key map (checked by
// TestEveryBindingIsTested).
var bindingTests = map[string]func(t *testing.T, hs *harness){
	"up": func(t *testing.T, hs *harness) {
		hs.press("down")
		hs.press("down")
		hs.press("up")
		if got := hs.b().tree().Sel; got != 1 {
			t.Errorf("selected row %d, want 1", got)
		}
	},
	"down": func(t *testing.T, hs *harness) {
		hs.press("down")
		if got := hs.selectedLabel(); got != "kworker/0:1 15" {
			t.Errorf("selected %q", got)
		}
	},
	"page_down": func(t *testing.T, hs *harness) {
		hs.press("page_down")
		if got, want := hs.b().tree().Sel, hs.b().tree().VisibleLen()-1; got != want {
			t.Errorf("selected row %d, want the last (%d)", got, want)
		}
	},
	"page_up": func(t *testing.T, hs *harness) {
		hs.press("page_down")
		hs.press("page_up")
		if got := hs.b().tree().Sel; got != 0 {
			t.Errorf("selected row %d, want 0", got)
		}
	},
	"bottom": func(t *testing.T, hs *harness) {
		hs.press("bottom")
		if got := hs.selectedLabel(); got != "swapper/1 0_1" {
			t.Errorf("selected %q, want the last row", got)
		}
	},
	"top": func(t *testing.T, hs *harness) {
		hs.press("bottom")
		hs.press("top")
		if got := hs.selectedLabel(); got != "systemd 1" {
			t.Errorf("selected %q, want the first row", got)
		}
	},
	"right": func(t *testing.T, hs *harness) {
		hs.press("right")
		if b := hs.b(); b.cursor != b.win.ColStart(1) {
			t.Errorf("cursor %d, want column 1 at %d", b.cursor, b.win.ColStart(1))
		}
		if b := hs.b(); b.table.sel == 0 || b.table.cache[b.table.rankOf(b.table.sel)].Time < b.cursor {
			t.Errorf("table not scrolled to the cursor: line %d", b.table.sel)
		}
	},
	"left": func(t *testing.T, hs *harness) {
		hs.press("right")
		hs.press("right")
		hs.press("left")
		if b := hs.b(); b.cursor != b.win.ColStart(1) {
			t.Errorf("cursor %d, want column 1", b.cursor)
		}
	},
	"pan_right": func(t *testing.T, hs *harness) {
		hs.press("zoom_in")
		before := hs.b().win
		hs.press("pan_right")
		after := hs.b().win
		if after.T0 != before.T0+before.Span()/2 || after.Span() != before.Span() {
			t.Errorf("view %d+%d after pan right from %d+%d", after.T0, after.Span(), before.T0, before.Span())
		}
	},
	"pan_left": func(t *testing.T, hs *harness) {
		hs.press("zoom_in")
		hs.press("pan_right")
		hs.press("pan_right")
		before := hs.b().win
		hs.press("pan_left")
		if after := hs.b().win; after.T0 != before.T0-before.Span()/2 {
			t.Errorf("view starts at %d, want %d", after.T0, before.T0-before.Span()/2)
		}
	},
	"zoom_in": func(t *testing.T, hs *harness) {
		hs.keys(":")
		hs.typeText("+5ms")
		hs.keys("enter")
		before := hs.b().win
		hs.press("zoom_in")
		b := hs.b()
		if b.win.Span() != before.Span()/2 || b.cursor < b.win.T0 || b.cursor > b.win.T1 {
			t.Errorf("span %d -> %d, cursor %d in [%d, %d]", before.Span(), b.win.Span(), b.cursor, b.win.T0, b.win.T1)
		}
		if b.frame == nil || b.frame.Window != b.win {
			t.Error("no frame for the zoomed view")
		}
	},
	"zoom_out": func(t *testing.T, hs *harness) {
		hs.press("zoom_in")
		hs.press("zoom_in")
		before := hs.b().win.Span()
		hs.press("zoom_out")
		if got := hs.b().win.Span(); got != 2*before && got != 2*before+1 {
			t.Errorf("span %d -> %d", before, got)
		}
	},
	"zoom_selection": func(t *testing.T, hs *harness) {
		hs.press("select")
		for range 10 {
			hs.press("right")
		}
		hs.press("select")
		b := hs.b()
		start, end := b.selStart, b.selEnd
		hs.press("zoom_selection")
		if b.win.T0 != start || b.win.T1 != end {
			t.Errorf("view [%d, %d], want the selection [%d, %d]", b.win.T0, b.win.T1, start, end)
		}
		if m := b.rulerMarks(); b.hasSel || b.selecting || m.SelFrom >= 0 {
			t.Errorf("selection still on after zooming to it: hasSel %v selecting %v ruler columns %d–%d", b.hasSel, b.selecting, m.SelFrom, m.SelTo)
		}
	},
	"zoom_all": func(t *testing.T, hs *harness) {
		hs.press("zoom_in")
		hs.press("zoom_in")
		hs.press("zoom_all")
		if b := hs.b(); b.win.T0 != frametest.DemoStart || b.win.T1 != frametest.DemoEnd {
			t.Errorf("view [%d, %d], want the whole trace", b.win.T0, b.win.T1)
		}
	},
	"next_change": func(t *testing.T, hs *harness) {
		b := hs.b()
		key := b.tree().Node(b.tree().Selected()).Key
		iv, _, err := b.hist.Single(context.Background(), key, b.cursor)
		if err != nil {
			t.Fatal(err)
		}
		hs.press("next_change")
		if b.cursor != iv.End+1 {
			t.Errorf("cursor %d, want the next state at %d", b.cursor, iv.End+1)
		}
	},
	"prev_change": func(t *testing.T, hs *harness) {
		hs.press("next_change")
		hs.press("next_change")
		b := hs.b()
		key := b.tree().Node(b.tree().Selected()).Key
		at := b.cursor
		prev, _, _ := b.hist.Single(context.Background(), key, at-1)
		hs.press("prev_change")
		if b.cursor != prev.Start {
			t.Errorf("cursor %d, want the previous state's start %d", b.cursor, prev.Start)
		}
	},
	"select": func(t *testing.T, hs *harness) {
		hs.press("select")
		hs.press("right")
		hs.press("right")
		hs.press("select")
		b := hs.b()
		if !b.hasSel || b.selecting || b.selStart != frametest.DemoStart || b.selEnd != b.win.ColStart(2) {
			t.Errorf("selection [%d, %d] (has %v, selecting %v)", b.selStart, b.selEnd, b.hasSel, b.selecting)
		}
		if !strings.Contains(hs.view(), "sel "+core.FormatDuration(b.selEnd-b.selStart+1)) {
			t.Error("status line does not show the selection length")
		}
	},
	"goto": func(t *testing.T, hs *harness) {
		hs.press("goto")
		hs.typeText("+2.5ms")
		hs.keys("enter")
		if b := hs.b(); b.cursor != frametest.DemoStart+2_500_000 || b.prompt.Active() {
			t.Errorf("cursor %d (prompt open %v), want %d", b.cursor, b.prompt.Active(), frametest.DemoStart+2_500_000)
		}
		hs.press("goto")
		hs.typeText("soon")
		hs.keys("enter")
		b := hs.b()
		if !b.prompt.Active() || b.prompt.Err == nil || !strings.Contains(hs.view(), "bad time") {
			t.Error("an invalid time must keep the prompt open with the error inline")
		}
		if b.cursor != frametest.DemoStart+2_500_000 {
			t.Error("an invalid time moved the cursor")
		}
		hs.typeText("1ms") // the rejected text is selected: typing replaces it
		if got := b.prompt.Value(); got != "1ms" {
			t.Errorf("after an error, typing gives %q, want 1ms", got)
		}
		hs.keys("enter") // a bare duration is an offset from the trace start
		if b.cursor != frametest.DemoStart+1_000_000 || b.prompt.Active() {
			t.Errorf("go to 1ms: cursor %d, want %d", b.cursor, frametest.DemoStart+1_000_000)
		}
		hs.press("goto")
		hs.typeText(core.FormatTimestamp(frametest.DemoStart + 7_000_000)) // absolute seconds, as the table prints them
		hs.keys("enter")
		if b.cursor != frametest.DemoStart+7_000_000 {
			t.Errorf("go to an absolute time: cursor %d, want %d", b.cursor, frametest.DemoStart+7_000_000)
		}
		hs.press("goto")
		hs.keys("esc")
		if b.prompt.Active() {
			t.Error("esc did not close the prompt")
		}
	},
	"set_mark": func(t *testing.T, hs *harness) {
		hs.press("right")
		hs.press("set_mark")
		hs.keys("a")
		if b := hs.b(); b.marks.at['a'] != b.cursor || b.marks.pending != markNone {
			t.Errorf("mark a %d (pending %d), want the cursor %d", b.marks.at['a'], b.marks.pending, b.cursor)
		}
		hs.press("set_mark")
		hs.keys("1") // not a letter: cancelled, no mark, keys route again
		if b := hs.b(); len(b.marks.at) != 1 || b.marks.pending != markNone || !strings.Contains(b.note, "cancelled") {
			t.Errorf("after a digit: marks %v, pending %d, note %q", b.marks.at, b.marks.pending, b.note)
		}
		hs.press("set_mark")
		hs.keys("A")
		if _, ok := hs.b().marks.delta(); ok || strings.Contains(hs.b().statusLine(), "B−A") {
			t.Error("delta shown with only mark A")
		}
		for range 3 {
			hs.press("right")
		}
		hs.press("set_mark")
		hs.keys("B")
		b := hs.b()
		want := "B−A " + core.FormatDuration(b.marks.at['B']-b.marks.at['A'])
		if b.marks.at['B'] <= b.marks.at['A'] || !strings.Contains(b.statusLine(), want) {
			t.Errorf("status %q, want %q", b.statusLine(), want)
		}
		hs.press("right") // the cursor hides a mark in its own column
		if ruler := strings.Join(b.rulerLines(b.sh.Layout(b.showTable, b.tableLines)), "\n"); !strings.Contains(ruler, "A") || !strings.Contains(ruler, "B") {
			t.Errorf("ruler without the marks A and B:\n%s", ruler)
		}
	},
	"abs_times": func(t *testing.T, hs *harness) {
		hs.press("right")
		b := hs.b()
		abs := core.FormatTimestamp(b.cursor)
		rel := b.RelTime(b.cursor)
		if !strings.HasPrefix(rel, "+") || !strings.Contains(b.statusLine(), "cur "+rel) {
			t.Fatalf("default: cursor %q, status %q", rel, b.statusLine())
		}
		hs.press("abs_times")
		ruler := strings.Join(b.rulerLines(b.sh.Layout(b.showTable, b.tableLines)), "\n")
		cur := b.RelTime(b.cursor)
		if !strings.HasPrefix(abs, cur[:len(cur)-1]) || !strings.Contains(b.statusLine(), "cur "+cur) || !strings.Contains(ruler, cur) {
			t.Errorf("absolute: cursor %q, status %q, ruler %q, want %q", cur, b.statusLine(), ruler, abs)
		}
		first := b.win.Start + (b.win.T0-b.win.Start+rulerStep(b.sh, b.win, b.win.Cols)-1)/rulerStep(b.sh, b.win, b.win.Cols)*rulerStep(b.sh, b.win, b.win.Cols)
		if tick := frame.FormatTimestampAt(first, rulerStep(b.sh, b.win, b.win.Cols)); !strings.Contains(ruler, tick) {
			t.Errorf("absolute: ruler %q without its first tick %q", ruler, tick)
		}
		hs.press("abs_times")
		if !strings.Contains(b.statusLine(), "cur "+rel) {
			t.Errorf("toggled back: status %q, want %q", b.statusLine(), rel)
		}
	},
	"copy": func(t *testing.T, hs *harness) {
		hs.press("copy") // no terminal: a message, nothing written
		if b := hs.b(); !strings.Contains(b.note, "no terminal") {
			t.Errorf("without a terminal: note %q", b.note)
		}
		var out bytes.Buffer
		hs.b().sh.Clipboard = &out
		hs.press("right")
		hs.press("copy")
		cur := core.FormatTimestamp(hs.b().cursor)
		want := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(cur)) + "\x07"
		if out.String() != want {
			t.Errorf("cursor: wrote %q, want %q", out.String(), want)
		}
		out.Reset()
		hs.press("select")
		hs.press("right")
		hs.press("select")
		hs.press("copy")
		b := hs.b()
		sel := core.FormatTimestamp(b.selStart) + " " + core.FormatTimestamp(b.selEnd)
		if got, err := base64.StdEncoding.DecodeString(strings.TrimSuffix(strings.TrimPrefix(out.String(), "\x1b]52;c;"), "\x07")); err != nil || string(got) != sel || !b.hasSel {
			t.Errorf("selection: wrote %q (%q, %v), want %q", out.String(), got, err, sel)
		}
	},
	"jump_mark": func(t *testing.T, hs *harness) {
		hs.press("jump_mark") // no mark yet: a message, no move
		hs.keys("x")
		if b := hs.b(); b.cursor != frametest.DemoStart || !strings.Contains(b.note, "no mark x") {
			t.Errorf("without a mark: cursor %d, note %q", b.cursor, b.note)
		}
		hs.press("right")
		hs.press("set_mark")
		hs.keys("x")
		mark := hs.b().cursor
		hs.press("right")
		hs.press("set_mark")
		hs.keys("y")
		hs.press("zoom_in")
		hs.press("pan_right")
		hs.press("pan_right")
		hs.press("jump_mark")
		hs.keys("x")
		if b := hs.b(); b.cursor != mark || mark < b.win.T0 || mark > b.win.T1 {
			t.Errorf("cursor %d, want the mark x %d in view", b.cursor, mark)
		}
	},
	"toggle": func(t *testing.T, hs *harness) {
		hs.selectRow("firefox 2000")
		n := hs.b().tree().VisibleLen()
		hs.press("toggle")
		if got := hs.b().tree().VisibleLen(); got != n-2 {
			t.Errorf("%d rows after collapsing firefox, want %d", got, n-2)
		}
		hs.press("toggle")
		if got := hs.b().tree().VisibleLen(); got != n {
			t.Errorf("%d rows after expanding, want %d", got, n)
		}
	},
	"control_flow": func(t *testing.T, hs *harness) {
		hs.press("resources")
		hs.press("control_flow")
		if b := hs.b(); b.pane != frame.PaneControlFlow || !strings.Contains(hs.view(), "Control Flow") {
			t.Error("not on Control Flow")
		}
	},
	"resources": func(t *testing.T, hs *harness) {
		hs.press("resources")
		b := hs.b()
		if b.pane != frame.PaneResources || hs.selectedLabel() != "CPU 0" {
			t.Fatalf("view %d, selected %q", b.pane, hs.selectedLabel())
		}
		hs.press("toggle") // a CPU expands to its IRQs
		if v := hs.view(); !strings.Contains(v, "IRQ 18") || !strings.Contains(v, "SoftIRQ 1") {
			t.Errorf("CPU 0 expanded does not list its IRQs:\n%s", v)
		}
	},
	"find": func(t *testing.T, hs *harness) {
		hs.press("find")
		hs.typeText("Web|Compo")
		hs.keys("enter")
		if got := hs.selectedLabel(); got != "Web Content 2001" {
			t.Errorf("selected %q", got)
		}
		if !strings.Contains(hs.view(), "match 1 of 2") {
			t.Errorf("find does not say which match of how many:\n%s", hs.view())
		}
		hs.press("find")
		hs.typeText("(")
		hs.keys("enter")
		if b := hs.b(); !b.prompt.Active() || b.prompt.Err == nil {
			t.Error("an invalid regex must keep the prompt open with the error")
		}
	},
	"find_next": func(t *testing.T, hs *harness) {
		hs.press("find")
		hs.typeText("^postgres|4000")
		hs.keys("enter")
		hs.press("find_next")
		if got := hs.selectedLabel(); got != "postgres: wal 4001" {
			t.Errorf("selected %q", got)
		}
		hs.press("find_next") // wraps
		if got := hs.selectedLabel(); got != "postgres 4000" {
			t.Errorf("selected %q after wrapping", got)
		}
	},
	"find_prev": func(t *testing.T, hs *harness) {
		hs.press("find")
		hs.typeText("2001|2002")
		hs.keys("enter")
		hs.press("find_next")
		hs.press("find_prev")
		if got := hs.selectedLabel(); got != "Web Content 2001" {
			t.Errorf("selected %q", got)
		}
	},
	"flow_jump": func(t *testing.T, hs *harness) {
		hs.press("flow_jump") // the demo kernel trace has no flow
		if v := hs.view(); !strings.Contains(v, "no flow here") {
			t.Errorf("no note about the missing flow:\n%s", v)
		}
	},
	"focus": func(t *testing.T, hs *harness) {
		hs.press("focus")
		b := hs.b()
		if !b.table.focused {
			t.Fatal("focus did not move to the table")
		}
		hs.press("down")
		if b.table.sel != 1 || b.tree().Sel != 0 {
			t.Errorf("down moved table line %d / tree row %d, want the table only", b.table.sel, b.tree().Sel)
		}
		hs.press("focus")
		if b.table.focused {
			t.Error("focus did not come back to the Gantt")
		}
	},
	"filter": func(t *testing.T, hs *harness) {
		hs.press("filter") // the focused column is Event
		hs.typeText("sched_sw")
		hs.keys("enter")
		b := hs.b()
		if !b.table.filterOn || b.table.scanning || len(b.table.matches) == 0 {
			t.Fatalf("filter on %v, scanning %v, %d matches", b.table.filterOn, b.table.scanning, len(b.table.matches))
		}
		ev := b.trace.Events().(*frametest.MemEvents)
		want := 0
		for _, r := range ev.All {
			if strings.Contains(r.Event, "sched_sw") {
				want++
			}
		}
		if len(b.table.matches) != want {
			t.Errorf("%d matches, want %d", len(b.table.matches), want)
		}
		if v := hs.view(); !strings.Contains(v, "sched_switch") || strings.Contains(v, "lttng_statedump") {
			t.Errorf("table does not show only matches:\n%s", v)
		}
		hs.press("filter")
		hs.keys("ctrl+u")
		hs.typeText("sched_(")
		hs.keys("enter")
		if !b.prompt.Active() || !strings.Contains(hs.view(), "missing closing )") {
			t.Error("an invalid regex must show the error inline")
		}
		if b.table.pattern[frame.ColEvent] != "sched_sw" || len(b.table.matches) != want {
			t.Error("an invalid regex changed the filter")
		}
	},
	"toggle_table": func(t *testing.T, hs *harness) {
		rows := hs.b().sh.Layout(true, hs.b().tableLines).GanttRows
		hs.press("toggle_table")
		b := hs.b()
		if b.showTable || strings.Contains(hs.view(), "Contents") {
			t.Error("table still shown")
		}
		if got := b.sh.Layout(b.showTable, b.tableLines).GanttRows; got <= rows {
			t.Errorf("Gantt has %d rows without the table, %d with", got, rows)
		}
	},
	"grow_table": func(t *testing.T, hs *harness) {
		before := hs.b().tableLines
		hs.press("grow_table")
		if got := hs.b().tableLines; got != before+2 {
			t.Errorf("table %d lines, want %d", got, before+2)
		}
	},
	"shrink_table": func(t *testing.T, hs *harness) {
		before := hs.b().tableLines
		hs.press("shrink_table")
		if got := hs.b().tableLines; got != before-2 {
			t.Errorf("table %d lines, want %d", got, before-2)
		}
	},
	"contents_left":  testContentsScroll,
	"contents_right": testContentsScroll,
	"details": func(t *testing.T, hs *harness) {
		hs.press("resources")
		hs.selectRow("CPU 1")
		hs.press("focus")
		hs.press("down")
		hs.press("details")
		d := topView[*details.Screen](hs.b())
		if d == nil || d.Event == nil || d.Event.Rank != 1 {
			t.Fatalf("details pane %+v: want the second event", d)
		}
		if d.Job.Running() || len(d.Values) == 0 || !strings.Contains(d.Values[0], "→") {
			t.Fatalf("the row's state at the cursor not read: %q", d.Values)
		}
		hs.press("down") // scrolls the pane, not the table
		if d.Top != 1 || hs.b().table.sel != 1 {
			t.Errorf("down: pane line %d, table event %d; want 1, 1", d.Top, hs.b().table.sel)
		}
		hs.press("details")
		if topView[*details.Screen](hs.b()) != nil {
			t.Error("the details key does not close the pane")
		}
	},
	"stats": func(t *testing.T, hs *harness) {
		hs.press("stats")
		b := hs.b()
		st := topView[*stats.Screen](b)
		if st == nil || st.Running != 0 {
			t.Fatalf("statistics %v, parts still running", st)
		}
		for i, want := range []string{"wait blocked", "sched_switch", "read"} {
			found := false
			for _, l := range st.Tables[i].Lines {
				found = found || l.Name == want
			}
			if !found {
				t.Errorf("table %d lacks %q: %+v", i, want, st.Tables[i].Lines)
			}
		}
		if v := hs.view(); !strings.Contains(v, "Statistics of the visible range") || !strings.Contains(v, "System call") {
			t.Errorf("statistics screen:\n%s", v)
		}
		hs.press("stats")
		if topView[*stats.Screen](b) != nil || strings.Contains(hs.view(), "Statistics of") {
			t.Error("S did not close the statistics")
		}
	},
	"sort": func(t *testing.T, hs *harness) {
		hs.press("stats")
		tb := &topView[*stats.Screen](hs.b()).Tables[stats.States]
		hs.press("sort") // All rows -> its %
		hs.press("sort") // -> State, by name
		if tb.SortCol != 0 || !slices.IsSortedFunc(tb.Lines, func(a, b stats.Line) int { return strings.Compare(a.Name, b.Name) }) {
			t.Errorf("sort column %d, lines %v", tb.SortCol, names(tb.Lines))
		}
		if !strings.Contains(hs.view(), "State ^") { // ASCII: ascending
			t.Errorf("the header does not mark the sort:\n%s", hs.view())
		}
	},
	"sort_reverse": func(t *testing.T, hs *harness) {
		hs.press("sort_reverse") // outside statistics: a hint
		if !strings.Contains(hs.b().note, "statistics") {
			t.Errorf("note %q", hs.b().note)
		}
		hs.press("stats")
		hs.press("focus") // the events table
		tb := &topView[*stats.Screen](hs.b()).Tables[stats.Events]
		hs.press("sort_reverse")
		if !tb.Asc || !slices.IsSortedFunc(tb.Lines, func(a, b stats.Line) int { return cmp.Compare(a.Vals[1], b.Vals[1]) }) {
			t.Errorf("ascending %v, counts %v", tb.Asc, names(tb.Lines))
		}
	},
	"overview": func(t *testing.T, hs *harness) {
		hs.press("overview")
		ov := hs.ov()
		if ov == nil || ov.Spatial || ov.Res == nil || len(ov.Res.Parts) < 3 {
			t.Fatalf("overview %v", ov)
		}
		if v := hs.view(); !strings.Contains(v, "Temporal overview | detail ") || !strings.Contains(v, "all 12 rows") {
			t.Errorf("overview screen:\n%s", v)
		}
		cur := ov.Cur
		hs.press("zoom_out") // coarser: a larger p
		if ov.Cur != cur+1 || ov.Res.Parts[ov.Cur].P <= ov.Res.Parts[cur].P {
			t.Errorf("partition %d -> %d", cur, ov.Cur)
		}
		hs.press("zoom_in")
		if ov.Cur != cur {
			t.Errorf("zoom in went to partition %d, want %d", ov.Cur, cur)
		}
		hs.press("overview")
		if hs.ov() != nil {
			t.Error("o did not close the overview")
		}
	},
	"overview_st": func(t *testing.T, hs *harness) {
		hs.press("overview_st")
		ov := hs.ov()
		if ov == nil || !ov.Spatial || ov.Res == nil {
			t.Fatalf("spatiotemporal overview %v", ov)
		}
		if v := hs.view(); !strings.Contains(v, "Spatiotemporal overview") {
			t.Errorf("overview screen:\n%s", v)
		}
		hs.press("overview") // switches to the temporal one
		if ov := hs.ov(); ov == nil || ov.Spatial {
			t.Error("o did not switch to the temporal overview")
		}
		hs.keys("esc")
		if hs.ov() != nil {
			t.Error("esc did not close the overview")
		}
	},
	"call_tree": func(t *testing.T, hs *harness) {
		hs.press("call_tree") // the demo kernel trace has no call stack
		v := topView[*flame.Screen](hs.b())
		if v == nil || v.Status != "no call stack in this range" {
			t.Fatalf("call tree %v", v)
		}
		if !strings.Contains(hs.view(), "Call tree of") {
			t.Errorf("call tree screen:\n%s", hs.view())
		}
		hs.press("call_tree")
		if topView[*flame.Screen](hs.b()) != nil {
			t.Error("F did not close the call tree")
		}
	},
	"compare": func(t *testing.T, hs *harness) {
		hs.press("compare")
		if topView[*compare.Screen](hs.b()) != nil || !strings.Contains(hs.b().note, "needs two selections") {
			t.Fatalf("compare without two selections: note %q", hs.b().note)
		}
		hs.keys("space", "l", "space", "l", "space", "l", "l", "space")
		hs.press("compare")
		if topView[*compare.Screen](hs.b()) == nil || !strings.Contains(hs.view(), "Compare the last selection") {
			t.Fatalf("compare did not open:\n%s", hs.view())
		}
		hs.press("compare")
		if topView[*compare.Screen](hs.b()) != nil {
			t.Error("the compare key did not close the comparison")
		}
	},
	"mark_thread": func(t *testing.T, hs *harness) {
		hs.press("resources")
		hs.press("mark_thread")
		if !strings.Contains(hs.b().note, "select a thread or process in Control Flow") || len(hs.b().threadMarks) != 0 {
			t.Fatalf("M on Resources: note %q", hs.b().note)
		}
		hs.press("control_flow")
		a := selectThread(t, hs, 0)
		hs.press("mark_thread")
		if !strings.Contains(hs.b().note, "thread A: "+a) {
			t.Fatalf("first M: note %q", hs.b().note)
		}
		hs.press("compare")
		if topView[*compare.Screen](hs.b()) != nil || !strings.Contains(hs.b().note, "needs two marked threads") {
			t.Fatalf("compare with one marked thread: note %q", hs.b().note)
		}
		b := selectThread(t, hs, 1)
		hs.press("mark_thread")
		if !strings.Contains(hs.b().note, "thread B: "+b) {
			t.Fatalf("second M: note %q", hs.b().note)
		}
		hs.press("compare")
		if topView[*compare.Screen](hs.b()) == nil || !strings.Contains(hs.view(), "Compare thread B against thread A") || !strings.Contains(hs.view(), "base: A "+a) {
			t.Fatalf("compare did not open on the threads:\n%s", hs.view())
		}
	},
	"side_by_side": func(t *testing.T, hs *harness) {
		hs.press("side_by_side")
		if topView[*sidebyside.Screen](hs.b()) != nil || !strings.Contains(hs.b().note, "needs two traces") {
			t.Fatalf("side by side with one trace: note %q", hs.b().note)
		}
		hs.b().SetCompare(frametest.NewDemoTrace())
		hs.press("side_by_side")
		v := topView[*sidebyside.Screen](hs.b())
		if v == nil || v.Sides[1].Tree == nil || v.Sides[1].Frame == nil || !strings.Contains(hs.view(), "NEW demo") {
			t.Fatalf("side by side did not open with both traces' rows and frames:\n%s", hs.view())
		}
		hs.press("side_by_side")
		if topView[*sidebyside.Screen](hs.b()) != nil {
			t.Error("the side-by-side key did not close the view")
		}
	},
	// BASE's mark a set in the Gantt, NEW's set side by side three
	// columns later: the align key and a put NEW's under BASE's; NEW's
	// mark is still there when side by side opens again.
	"align_marks": func(t *testing.T, hs *harness) {
		hs.press("align_marks")
		if !strings.Contains(hs.b().note, "side by side") {
			t.Fatalf("the align key in the Gantt: note %q", hs.b().note)
		}
		hs.press("right")
		hs.press("set_mark")
		hs.keys("a")
		hs.b().SetCompare(frametest.NewDemoTrace())
		hs.press("side_by_side")
		for range 3 {
			hs.press("right")
		}
		hs.press("set_mark")
		hs.keys("a")
		hs.press("align_marks")
		hs.keys("a")
		v := topView[*sidebyside.Screen](hs.b())
		if v == nil || v.Shift <= 0 || v.Cur != hs.b().marks.at['a']-hs.b().win.Start || !strings.Contains(hs.b().note, "aligned at mark a") {
			t.Fatalf("after A a: shift %d, cursor %d, note %q", v.Shift, v.Cur, hs.b().note)
		}
		hs.press("side_by_side")
		hs.press("side_by_side")
		hs.press("align_marks")
		hs.keys("a")
		if v := topView[*sidebyside.Screen](hs.b()); v == nil || v.Shift <= 0 {
			t.Fatal("NEW's mark was not kept from one side by side to the next")
		}
	},
	"legend": func(t *testing.T, hs *harness) {
		hs.press("legend")
		if v := hs.view(); !strings.Contains(v, "wait for CPU") || !strings.Contains(v, "(zoom in)") {
			t.Errorf("no legend:\n%s", v)
		}
		hs.press("legend")
		if strings.Contains(hs.view(), "wait for CPU") {
			t.Error("legend not closed")
		}
	},
	"help": func(t *testing.T, hs *harness) {
		hs.press("help")
		if v := hs.view(); !strings.Contains(v, "prev state change") || !strings.Contains(v, "show/hide table") {
			t.Errorf("full help missing keys:\n%s", v)
		}
		hv := topView[*help.Screen](hs.b())
		if hint := hs.b().helpLine(); !strings.Contains(hint, "esc close") || !strings.Contains(hint, "scroll") {
			t.Errorf("help line %q does not give the help's own keys", hint)
		}
		hs.keys("x") // not a help key: says which keys are, stays open
		if topView[*help.Screen](hs.b()) == nil || !strings.Contains(hs.b().note, "scroll") {
			t.Fatalf("x closed the help or said nothing (note %q)", hs.b().note)
		}
		hs.press("down")
		if hv.Top != 1 {
			t.Errorf("down: top %d, want 1", hv.Top)
		}
		hs.press("bottom")
		last := hv.Top
		if last+hv.Page() != len(help.HelpText(hs.b().sh, hs.b().sh.Width)) || !strings.Contains(hs.view(), "time it took") {
			t.Errorf("bottom: top %d page %d of %d lines, last note not shown:\n%s", last, hv.Page(), len(help.HelpText(hs.b().sh, hs.b().sh.Width)), hs.view())
		}
		hs.press("down")
		if hv.Top != last {
			t.Errorf("down at the end moved to %d", hv.Top)
		}
		hs.press("top")
		if hv.Top != 0 {
			t.Errorf("top: %d", hv.Top)
		}
		hs.keys("esc")
		if topView[*help.Screen](hs.b()) != nil {
			t.Error("esc did not close the help")
		}
		hs.press("help")
		hs.press("help")
		if topView[*help.Screen](hs.b()) != nil {
			t.Error("the help key did not close the help")
		}
	},
	"quit": func(t *testing.T, hs *harness) {
		hs.press("quit")
		if !hs.Quit {
			t.Error("q did not quit")
		}
		hs.Quit = false
		hs.keys("ctrl+c")
		if !hs.Quit {
			t.Error("ctrl+c did not quit")
		}
	},
}

func names(lines []stats.Line) []string {
	var out []string
	for _, l := range lines {
		out = append(out, l.Name)
	}
	return out
}

func TestEveryBindingIsTested(t *testing.T) {
	km := keymap.Default()
	for _, a := range km.Actions() {
		if bindingTests[a.Name] == nil {
			t.Errorf("action %q has no Update test in bindingTests", a.Name)
		}
	}
	if len(bindingTests) != len(km.Actions()) {
		t.Errorf("%d binding tests for %d actions", len(bindingTests), len(km.Actions()))
	}
}

func TestBindings(t *testing.T) {
	tr := frametest.NewDemoTrace()
	for name, fn := range bindingTests {
		t.Run(name, func(t *testing.T) {
			hs := newHarness(t, tr, 100, 30, true)
			fn(t, hs)
		})
	}
}

// TestTableEnterMovesTheGantt: enter on an event moves the cursor to its
// time and selects its thread.
func TestTableEnterMovesTheGantt(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	hs.press("filter")
	hs.typeText("syscall_entry")
	hs.keys("enter") // f focuses the table
	hs.press("down")
	hs.press("down")
	b := hs.b()
	ev := b.table.cache[b.table.rankOf(b.table.sel)]
	hs.press("toggle")
	if b.cursor != ev.Time {
		t.Errorf("cursor %d, want the event's time %d", b.cursor, ev.Time)
	}
	n := b.tree().Node(b.tree().Selected())
	if n.Tid != ev.TID {
		t.Errorf("selected thread %q, want %q", n.Tid, ev.TID)
	}
	if !strings.Contains(hs.view(), "syscall ") {
		t.Errorf("details line does not show the current system call:\n%s", hs.view())
	}
}

// TestCursorScrollsTheTable: the table shows the first event at or after
// the cursor.
func TestCursorScrollsTheTable(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	hs.goTo("+3ms")
	b := hs.b()
	ev, r := hs.selectedEvent()
	if ev[r].Time < b.cursor || (r > 0 && ev[r-1].Time >= b.cursor) {
		t.Errorf("table line at rank %d (time %d), cursor %d", r, ev[r].Time, b.cursor)
	}
}

// TestStaleFramesAreDropped: a frame older than the one shown is ignored,
// and a view change during a query is asked again when it ends.
func TestStaleFramesAreDropped(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	b := hs.b()
	shown := b.frame
	// Start a query without running it, change the view meanwhile.
	_, cmd := hs.m.Update(headless.Key("w"))
	if !b.inflight {
		t.Fatal("no query in flight after zooming")
	}
	_, cmd2 := hs.m.Update(headless.Key("w"))
	if !b.dirty {
		t.Fatal("a second view change during a query must mark the view dirty")
	}
	hs.Run(cmd2)
	old := &frame.Frame{Seq: shown.Seq - 1, Window: shown.Window}
	hs.Send(frameMsg{old})
	if b.frame == old {
		t.Fatal("a stale frame was shown")
	}
	hs.Run(cmd) // the first query ends: the newest view is asked
	if b.frame.Window != b.win || b.inflight || b.dirty {
		t.Errorf("frame for %+v, view %+v, inflight %v, dirty %v", b.frame.Window, b.win, b.inflight, b.dirty)
	}
}

func TestTooSmall(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 39, 20, true)
	if v := hs.view(); !strings.Contains(v, "terminal too small") {
		t.Errorf("39 columns:\n%s", v)
	}
	hs.Send(tea.WindowSizeMsg{Width: 40, Height: 10})
	if v := hs.view(); strings.Contains(v, "too small") || len(strings.Split(v, "\n")) != 10 {
		t.Errorf("40x10 must show the browser on 10 lines:\n%s", v)
	}
}

// TestEveryLineFits: at any size, every line is exactly the terminal's
// width or less and there are exactly as many lines as the height.
func TestEveryLineFits(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 80, 24, false)
	for _, sz := range [][2]int{{80, 24}, {40, 10}, {132, 50}, {57, 13}, {200, 60}} {
		hs.Send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		for _, keys := range [][]string{nil, {"c"}, {"?"}, {"x", "t"}, {"t", "2", "enter"}, {"f"},
			{"S"}, {"S", "tab", "j", "j"}, {"o"}, {"o", "c"}, {"O", "w", "w", "j", "l"}, {"O", "c"}} {
			hs.keys(keys...)
			lines := strings.Split(hs.view(), "\n")
			if len(lines) != sz[1] {
				t.Errorf("%dx%d after %v: %d lines", sz[0], sz[1], keys, len(lines))
			}
			for i, l := range lines {
				if w := lipglossWidth(l); w > sz[0] {
					t.Errorf("%dx%d after %v: line %d is %d wide: %q", sz[0], sz[1], keys, i, w, l)
				}
			}
			hs.keys("esc", "esc")
		}
	}
}

// TestRunsOfKeysAreSplit: keys read together (":+1ms" in one message over
// a slow link) act as if typed one by one; a paste goes into the prompt
// whole.
func TestRunsOfKeysAreSplit(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	hs.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(":+1ms")})
	hs.keys("enter")
	if b := hs.b(); b.cursor != frametest.DemoStart+1_000_000 {
		t.Errorf("cursor %d, want +1ms", b.cursor)
	}
	hs.keys(":")
	hs.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("+2ms"), Paste: true})
	hs.keys("enter")
	if b := hs.b(); b.cursor != frametest.DemoStart+2_000_000 {
		t.Errorf("cursor %d after a paste, want +2ms", b.cursor)
	}
}

// TestControlCharactersNeverReachTheTerminal: names and contents come from
// untrusted traces.
func TestControlCharactersNeverReachTheTerminal(t *testing.T) {
	tr := frametest.NewDemoTrace()
	ev := tr.Table.(*frametest.MemEvents)
	ev.All[0].Contents = "evil \x1b]0;pwned\x07 \x1b[2J"
	ev.All[0].Process = "bad\nname"
	hs := newHarness(t, tr, 100, 30, true) // ASCII: no escape sequence at all is legitimate
	if v := hs.view(); strings.ContainsAny(v, "\x1b\x07") || !strings.Contains(v, "evil \uFFFD]0;pwned\uFFFD") {
		t.Errorf("control characters on screen:\n%q", v)
	}
}
