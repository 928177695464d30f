package gantt

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// demoWithIndex is the demo trace as if indexed at dir/demo.tti.
func demoWithIndex(dir string) *frametest.MemTrace {
	tr := frametest.NewDemoTrace()
	tr.Meta.Index = filepath.Join(dir, "demo.tti")
	return tr
}

// TestViewLastsAcrossSessions: marks (A/B too), the window, the cursor,
// the selected thread and the table's filter set in one session come
// back when the trace opens again, from a private file beside the index.
func TestViewLastsAcrossSessions(t *testing.T) {
	dir := t.TempDir()
	hs := newHarness(t, demoWithIndex(dir), 100, 30, true)
	b := hs.b()
	hs.selectRow("firefox 2000")
	for _, l := range []string{"a", "A", "B"} {
		hs.press("right")
		hs.press("right")
		hs.press("set_mark")
		hs.keys(l)
	}
	hs.press("zoom_in")
	hs.press("zoom_in")
	hs.press("focus")
	hs.press("filter")
	hs.typeText("^sched_wakeup$")
	hs.keys("enter")
	hs.press("focus")
	marks, win, cursor := b.marks.at, b.win, b.cursor
	b.Close() // as on quit
	path := filepath.Join(dir, "demo.tti.view.json")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("view file mode %v, want 0600", fi.Mode().Perm())
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}

	hs2 := newHarness(t, demoWithIndex(dir), 100, 30, true)
	b2 := hs2.b()
	if len(b2.marks.at) != len(marks) {
		t.Errorf("marks %v, want %v", b2.marks.at, marks)
	}
	for r, tm := range marks {
		if b2.marks.at[r] != tm {
			t.Errorf("mark %c at %d, want %d", r, b2.marks.at[r], tm)
		}
	}
	if b2.win.T0 != win.T0 || b2.win.T1 != win.T1 || b2.cursor != cursor {
		t.Errorf("window [%d, %d] cursor %d, want [%d, %d] cursor %d", b2.win.T0, b2.win.T1, b2.cursor, win.T0, win.T1, cursor)
	}
	if got := hs2.selectedLabel(); got != "firefox 2000" {
		t.Errorf("selected row %q, want firefox 2000", got)
	}
	tb := b2.table
	if tb.pattern[frame.ColEvent] != "^sched_wakeup$" || !tb.filterOn || len(tb.matches) == 0 {
		t.Errorf("filter %q on %v with %d matches, want the saved one", tb.pattern[frame.ColEvent], tb.filterOn, len(tb.matches))
	}
	if !strings.Contains(b2.note, "restored") || !strings.Contains(b2.statusLine(), "B−A") {
		t.Errorf("note %q, status %q: want the restore said and B−A shown", b2.note, b2.statusLine())
	}
}

// TestDamagedViewIsIgnored: a view file that is not JSON, is too large,
// is of other trace bounds or holds bad values opens the trace as new,
// with a note, and is replaced on quit.
func TestDamagedViewIsIgnored(t *testing.T) {
	for name, data := range map[string]string{
		"garbage":    "\x00\xffnot json",
		"truncated":  `{"version": 1, "start": `,
		"bounds":     `{"version": 1, "start": 1, "end": 2, "t0": 1, "t1": 2, "cursor": 1}`,
		"version":    `{"version": 99}`,
		"bad mark":   `{"version": 1, "start": START, "end": END, "t0": START, "t1": END, "cursor": START, "marks": {"ab": START}}`,
		"mark out":   `{"version": 1, "start": START, "end": END, "t0": START, "t1": END, "cursor": START, "marks": {"a": 5}}`,
		"window out": `{"version": 1, "start": START, "end": END, "t0": END, "t1": START, "cursor": START}`,
		"huge":       `{"version": 1, "thread": "` + strings.Repeat("x", maxViewFile) + `"}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			r := strings.NewReplacer("START", strconv.FormatInt(int64(frametest.DemoStart), 10), "END", strconv.FormatInt(int64(frametest.DemoEnd), 10))
			path := filepath.Join(dir, "demo.tti.view.json")
			if err := os.WriteFile(path, []byte(r.Replace(data)), 0o600); err != nil {
				t.Fatal(err)
			}
			hs := newHarness(t, demoWithIndex(dir), 100, 30, true)
			b := hs.b()
			if len(b.marks.at) != 0 || b.win.T0 != frametest.DemoStart || b.win.T1 != frametest.DemoEnd {
				t.Errorf("a damaged view was applied: marks %v, window [%d, %d]", b.marks.at, b.win.T0, b.win.T1)
			}
			if !strings.Contains(b.note, "ignored") {
				t.Errorf("note %q, want the file said ignored", b.note)
			}
			if err := b.saveView(); err != nil {
				t.Fatal(err)
			}
			if v, err := loadView(path, frametest.DemoStart, frametest.DemoEnd); err != nil || v == nil {
				t.Errorf("the view written on quit does not read back: %v", err)
			}
		})
	}
}

// TestMarksList: ' then ? lists the marks with their times, and the next
// letter jumps to one.
func TestMarksList(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	b := hs.b()
	hs.press("jump_mark")
	hs.keys("?")
	if !strings.Contains(b.note, "no marks yet") || b.marks.pending != markNone {
		t.Errorf("no marks: note %q, pending %d", b.note, b.marks.pending)
	}
	for _, l := range []string{"b", "a"} {
		for range 5 {
			hs.press("right")
		}
		hs.press("set_mark")
		hs.keys(l)
	}
	hs.press("jump_mark")
	hs.keys("?")
	want := "go to mark: a " + b.RelTime(b.marks.at['a']) + " · b " + b.RelTime(b.marks.at['b'])
	if !strings.Contains(hs.view(), want) {
		t.Errorf("marks list missing %q:\n%s", want, hs.view())
	}
	hs.keys("b")
	if b.cursor != b.marks.at['b'] || b.marks.pending != markNone {
		t.Errorf("cursor %d, want mark b %d (pending %d)", b.cursor, b.marks.at['b'], b.marks.pending)
	}
}
