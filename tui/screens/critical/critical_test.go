package critical

import (
	"io"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/critpath"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/ui"
)

// fakeHost records the segment the view goes to.
type fakeHost struct {
	to       critpath.Worker
	from, at core.Time
	calls    int
}

func (h *fakeHost) ThreadLabel(w core.Waker) string {
	return map[int32]string{1: "go 1", 2: "compile 2", 3: "ld 3"}[w.ID]
}
func (h *fakeHost) GoToSegment(w critpath.Worker, from, to core.Time) tea.Cmd {
	h.to, h.from, h.at = w, from, to
	h.calls++
	return nil
}
func (h *fakeHost) View(a ui.Area) []string { return ui.FillLines([]string{"MAIN SCREEN"}, a.Height) }
func (h *fakeHost) Help() string            { return "main help" }

// testPath is 60 segments tiling [2.099123456s, ...): thread i%3+1, 1 µs
// + i ns each, running, preempted or blocked in turn.
func testPath() *critpath.Path {
	p := &critpath.Path{Target: critpath.Worker{TID: 1, CPU: -1}, From: 2_099_123_456}
	t := p.From
	for i := range 60 {
		d := core.Time(1000 + i)
		p.Segments = append(p.Segments, critpath.Segment{Start: t, End: t + d, Worker: critpath.Worker{TID: int32(i%3 + 1), CPU: -1},
			State: []critpath.State{critpath.Running, critpath.Preempted, critpath.Blocked}[i%3], Reason: "r" + itoa(i)})
		t += d
	}
	p.To = t
	return p
}

func newTestScreen(t *testing.T, ascii bool) (*Screen, *fakeHost) {
	t.Helper()
	sh := &ui.Shared{Width: 100, Height: 30, Styles: ui.NewStyles(lipgloss.NewRenderer(io.Discard), ascii), Keys: keymap.Default()}
	h := &fakeHost{}
	v := &Screen{sh: sh, host: h, title: "Critical path of go 1", find: ui.NewPrompt(sh), page: 10}
	v.Update(critPathMsg{seq: v.job.Tag(), path: testPath()})
	if v.Path == nil {
		t.Fatal("the path was not taken")
	}
	v.View(ui.Area{Width: 100, Height: 30})
	return v, h
}

func keyOf(s string) tea.KeyMsg {
	switch s {
	case "pgdown":
		return tea.KeyMsg{Type: tea.KeyPgDown}
	case "pgup":
		return tea.KeyMsg{Type: tea.KeyPgUp}
	case "end":
		return tea.KeyMsg{Type: tea.KeyEnd}
	case "home":
		return tea.KeyMsg{Type: tea.KeyHome}
	case "ctrl+d":
		return tea.KeyMsg{Type: tea.KeyCtrlD}
	case "ctrl+u":
		return tea.KeyMsg{Type: tea.KeyCtrlU}
	case "ctrl+f":
		return tea.KeyMsg{Type: tea.KeyCtrlF}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// TestPaging: every paging key moves the segment selection by a page or
// to an end.
func TestPaging(t *testing.T) {
	v, _ := newTestScreen(t, false)
	page := v.page - 1
	if page < 2 {
		t.Fatalf("page of %d lines", page)
	}
	for _, c := range []struct {
		key  string
		want int
	}{
		{"pgdown", page}, {"ctrl+d", 2 * page}, {"ctrl+u", page}, {"ctrl+f", 2 * page}, {"pgup", page},
		{"G", 59}, {"g", 0}, {"end", 59}, {"home", 0}, {"j", 1}, {"k", 0}, {"k", 0},
	} {
		if st := v.Update(keyOf(c.key)); st.Pass || st.Done {
			t.Fatalf("%s: step %+v", c.key, st)
		}
		if v.segs.sel != c.want {
			t.Errorf("after %s: segment %d, want %d", c.key, v.segs.sel, c.want)
		}
	}
	v.Update(keyOf("G"))
	text := strings.Join(v.View(ui.Area{Width: 100, Height: 30}), "\n")
	if !strings.Contains(text, "> +2.099") || !strings.Contains(text, "r59") {
		t.Errorf("the last segment is not shown selected:\n%s", text)
	}
}

// TestStartsPrecise: a segment's start is printed to the nanosecond,
// whatever the range.
func TestStartsPrecise(t *testing.T) {
	v, _ := newTestScreen(t, false)
	v.Update(keyOf("j"))
	text := strings.Join(v.View(ui.Area{Width: 100, Height: 30}), "\n")
	if !strings.Contains(text, "+2.099124456s") { // the second segment starts 1000 ns later
		t.Errorf("no start to the nanosecond:\n%s", text)
	}
}

// TestSearch: '/' opens a prompt; its entry selects the first segment
// matching from the selection, n and N the next and previous, wrapping.
func TestSearch(t *testing.T) {
	v, _ := newTestScreen(t, false)
	st := v.Update(keyOf("/"))
	if _, ok := st.Open.(*ui.PromptView); !ok || !v.find.Active() {
		t.Fatalf("'/' opened %T", st.Open)
	}
	v.Update(ui.PromptDoneMsg{Kind: ui.PromptFind, Text: `compile.*r\d*[05]$`})
	if v.find.Active() || v.segs.sel != 10 { // r10: segment 10, thread 2
		t.Fatalf("search: segment %d, prompt open %v", v.segs.sel, v.find.Active())
	}
	v.Update(keyOf("n"))
	if v.segs.sel != 25 {
		t.Errorf("n: segment %d, want 25", v.segs.sel)
	}
	v.Update(keyOf("N"))
	v.Update(keyOf("N"))
	if v.segs.sel != 55 { // wrapped from 10 back to the last match
		t.Errorf("N N: segment %d, want 55", v.segs.sel)
	}
	v.Update(keyOf("/"))
	v.Update(ui.PromptDoneMsg{Kind: ui.PromptFind, Text: "("})
	if !v.find.Active() || v.find.Err == nil {
		t.Error("a bad regex did not keep the prompt open with its error")
	}
}

// TestSummaries: tab shows the time per thread then per state, the
// sums of the segments' durations, sortable; enter lists that thread's
// segments and esc lists them all again, the same segment selected.
func TestSummaries(t *testing.T) {
	v, _ := newTestScreen(t, true)
	want := map[int32]core.Time{}
	for _, s := range v.Path.Segments {
		want[s.Worker.TID] += s.End - s.Start
	}
	v.Update(keyOf("tab"))
	if v.tab != tabThreads {
		t.Fatalf("tab: table %d", v.tab)
	}
	th := v.sums[0]
	if len(th.rows) != 3 || th.rows[0].label != "ld 3" { // thread 3 has the longest segments
		t.Fatalf("thread rows %+v", th.rows)
	}
	for _, r := range th.rows {
		if r.time != want[r.worker.TID] || r.count != 20 {
			t.Errorf("%s: %d ns in %d segments, want %d in 20", r.label, r.time, r.count, want[r.worker.TID])
		}
	}
	text := strings.Join(v.View(ui.Area{Width: 100, Height: 30}), "\n")
	if !strings.Contains(text, "[Threads 3]") || !strings.Contains(text, "time on path v") {
		t.Errorf("no focused threads table sorted by time:\n%s", text)
	}
	v.Update(keyOf(">")) // segments
	v.Update(keyOf(">")) // name
	if got := v.sums[0].rows[0].label; got != "compile 2" {
		t.Errorf("by name: first %q", got)
	}
	v.Update(keyOf("<"))
	if got := v.sums[0].rows[0].label; got != "ld 3" {
		t.Errorf("by name reversed: first %q", got)
	}
	v.Update(keyOf("j")) // go 1
	v.Update(keyOf("enter"))
	if v.tab != tabSegments || len(v.segs.idx) != 20 || v.segs.only != "go 1" {
		t.Fatalf("enter on a thread: table %d, %d segments of %q", v.tab, len(v.segs.idx), v.segs.only)
	}
	v.Update(keyOf("j"))
	if s, _ := v.segs.selected(v.Path); s.Worker.TID != 1 || s.Reason != "r3" {
		t.Errorf("second segment of go 1: %+v", s)
	}
	if st := v.Update(keyOf("esc")); st.Done || len(v.segs.idx) != 60 || v.segs.sel != 3 {
		t.Errorf("esc: done %v, %d segments, selected %d", st.Done, len(v.segs.idx), v.segs.sel)
	}
	v.Update(keyOf("tab"))
	v.Update(keyOf("tab"))
	if v.tab != tabStates || len(v.sums[1].rows) != 3 || v.sums[1].rows[0].state != critpath.Blocked {
		t.Fatalf("states: table %d, rows %+v", v.tab, v.sums[1].rows)
	}
	v.Update(keyOf("enter"))
	if len(v.segs.idx) != 20 || v.Path.Segments[v.segs.idx[0]].State != critpath.Blocked {
		t.Errorf("enter on blocked: %d segments", len(v.segs.idx))
	}
	if st := v.Update(keyOf("esc")); st.Done {
		t.Error("esc closed a limited list")
	}
	if st := v.Update(keyOf("esc")); !st.Done {
		t.Error("esc did not close the view")
	}
}

// TestAwayAndBack: enter shows the segment's span in the main screen and
// keeps the view; keys then go to the main screen but B and esc, which
// come back to the same table and line, nothing recomputed.
func TestAwayAndBack(t *testing.T) {
	for _, back := range []string{"B", "esc"} {
		v, h := newTestScreen(t, false)
		for range 7 {
			v.Update(keyOf("j"))
		}
		st := v.Update(keyOf("enter"))
		s := v.Path.Segments[7]
		if st.Done || !v.Away() || h.calls != 1 || h.to != s.Worker || h.from != s.Start || h.at != s.End {
			t.Fatalf("enter: step %+v, away %v, went to %+v [%d, %d)", st, v.Away(), h.to, h.from, h.at)
		}
		if text := strings.Join(v.View(ui.Area{Width: 100, Height: 30}), "\n"); !strings.Contains(text, "MAIN SCREEN") {
			t.Errorf("away, the view draws itself:\n%s", text)
		}
		if !strings.Contains(v.Help(), "back to the critical path") {
			t.Errorf("away help %q", v.Help())
		}
		for _, k := range []string{"j", "w", "enter", "tab"} {
			if st := v.Update(keyOf(k)); !st.Pass {
				t.Errorf("away, %s is not passed to the main screen", k)
			}
		}
		path := v.Path
		if st := v.Update(keyOf(back)); st.Pass || st.Done || v.Away() {
			t.Fatalf("%s: step %+v, away %v", back, st, v.Away())
		}
		if v.Path != path || v.segs.sel != 7 || v.tab != tabSegments {
			t.Errorf("back with %s: segment %d, table %d", back, v.segs.sel, v.tab)
		}
	}
}
