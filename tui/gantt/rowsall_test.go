package gantt

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// Update tests of expand/collapse all and go to event number (part of
// bindingTests, kept here: bindings_test.go is long enough).
func init() {
	bindingTests["collapse_all"] = func(t *testing.T, hs *harness) {
		tr := hs.b().tree()
		roots := len(tr.Roots())
		hs.press("collapse_all")
		if got := tr.VisibleLen(); got != roots {
			t.Errorf("%d rows shown after collapse all, want the %d roots", got, roots)
		}
		for _, r := range tr.Roots() {
			if n := tr.Node(r); !n.Leaf && n.Expanded {
				t.Errorf("root %q still reads expanded", n.Label)
			}
		}
		hs.selectRow("firefox 2000")
		hs.press("toggle") // one root opens again, the others stay closed
		if got := tr.VisibleLen(); got <= roots {
			t.Errorf("%d rows after expanding the first root, want more than %d", got, roots)
		}
	}
	bindingTests["expand_all"] = func(t *testing.T, hs *harness) {
		tr := hs.b().tree()
		hs.press("collapse_all")
		hs.press("expand_all")
		if got, want := tr.VisibleLen(), tr.Len(); got != want {
			t.Errorf("%d rows shown after expand all, want every one of %d", got, want)
		}
		for i := range int32(tr.Len()) {
			if n := tr.Node(i); !n.Leaf && !n.Expanded {
				t.Errorf("row %q reads collapsed after expand all", n.Label)
			}
		}
		hs.selectRow("firefox 2000")
		n := tr.VisibleLen()
		hs.press("toggle") // a row closes again after expand all
		if got := tr.VisibleLen(); got >= n {
			t.Errorf("%d rows after collapsing firefox, want fewer than %d", got, n)
		}
		if !strings.Contains(hs.view(), "firefox 2000") {
			t.Error("the collapsed row is not drawn")
		}
	}
	bindingTests["goto_event"] = func(t *testing.T, hs *harness) {
		all := hs.b().trace.Events().(*frametest.MemEvents).All
		want := all[len(all)/2]
		hs.press("goto_event")
		hs.typeText("#" + itoa(want.Rank+1))
		hs.keys("enter")
		b := hs.b()
		if b.prompt.Active() || b.cursor != want.Time {
			t.Fatalf("cursor %d (prompt open %v), want event %d's time %d", b.cursor, b.prompt.Active(), want.Rank+1, want.Time)
		}
		if got := b.table.rankOf(b.table.sel); got != want.Rank {
			t.Errorf("table selects rank %d, want %d", got, want.Rank)
		}
		if !strings.Contains(b.statusLine()+hs.view(), "event "+itoa(want.Rank+1)) {
			t.Errorf("no note naming the event in %q", b.statusLine())
		}
		for _, bad := range []string{"0", "x", itoa(int64(len(all)) + 1)} {
			hs.press("goto_event")
			hs.typeText(bad)
			hs.keys("enter")
			if !b.prompt.Active() || b.prompt.Err == nil || !strings.Contains(hs.view(), "bad event number") {
				t.Errorf("%q: the prompt must stay open with the error", bad)
			}
			hs.keys("esc")
			if b.cursor != want.Time {
				t.Errorf("%q moved the cursor", bad)
			}
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestChromeOpensExpanded: Chrome and Pajé traces open with every row
// expanded (Chrome's slices sit on call stack rows under the threads), a
// kernel trace as stored.
func TestChromeOpensExpanded(t *testing.T) {
	hs := newHarness(t, openSample(t, "chrome/catapult-tracks.json"), 100, 30, true)
	tr := hs.b().tree()
	if got, want := tr.VisibleLen(), tr.Len(); got != want {
		t.Errorf("Chrome opens with %d of %d rows shown, want all", got, want)
	}
	paje := newHarness(t, openSample(t, "paje/pajeng-nested.paje"), 100, 30, true).b().tree()
	if got, want := paje.VisibleLen(), paje.Len(); got != want {
		t.Errorf("Pajé opens with %d of %d rows shown, want all", got, want)
	}
	if opensExpanded("ctf") || opensExpanded("tracedat") || opensExpanded("ftrace") {
		t.Error("kernel traces open as stored")
	}
}

// TestCopyInTmux: in tmux the copy goes through tmux's buffer and says
// so; when tmux refuses, the OSC 52 sequence goes out wrapped for tmux's
// passthrough and the note says what that needs.
func TestCopyInTmux(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	b := hs.b()
	var out bytes.Buffer
	var got []string
	fail := error(nil)
	b.sh.Clipboard = &out
	b.sh.TmuxCopy = func(text string) error { got = append(got, text); return fail }
	hs.press("copy")
	cur := core.FormatTimestamp(b.cursor)
	if len(got) != 1 || got[0] != cur || out.Len() != 0 || !strings.Contains(b.note, "tmux's buffer") {
		t.Errorf("tmux copy: loaded %q, wrote %q, note %q; want %q loaded, nothing written", got, out.String(), b.note, cur)
	}
	fail = errors.New("tmux load-buffer: exit status 1")
	hs.press("copy")
	want := "\x1bPtmux;\x1b\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(cur)) + "\x07\x1b\\"
	if out.String() != want || !strings.Contains(b.note, "allow-passthrough on") {
		t.Errorf("tmux refused: wrote %q, note %q; want %q and the note saying what it needs", out.String(), b.note, want)
	}
}

func init() {
	bindingTests["hide_idle"] = func(t *testing.T, hs *harness) {
		b := hs.b()
		for range 6 {
			hs.press("zoom_in")
		}
		tr := b.tree()
		all := tr.VisibleLen()
		hs.press("hide_idle")
		if tr.Hidden() == 0 || tr.VisibleLen() >= all || b.idle.t0 != b.win.T0 || b.idle.t1 != b.win.T1 {
			t.Fatalf("hide idle at [%d, %d]: %d rows hidden, %d of %d shown", b.win.T0, b.win.T1, tr.Hidden(), tr.VisibleLen(), all)
		}
		if want := fmt.Sprintf("%d idle hidden", tr.Hidden()); !strings.Contains(b.statusLine(), want) {
			t.Errorf("status %q does not say %q", b.statusLine(), want)
		}
		// Each row is shown if and only if its subtree has an interval
		// busy in the window, asked row by row.
		rowBusy := func(i int32) bool {
			busy := false
			end := tr.Node(i).End
			for j := i; j < end; j++ {
				n := tr.Node(j)
				if n.Key < 0 {
					continue
				}
				kind := tr.Rows.Row(j).Kind
				b.hist.Query2D(context.Background(), []core.Key{n.Key}, b.win.T0, b.win.T1, func(iv core.Interval) bool {
					busy = busy || busyIn(iv, kind)
					return true
				})
			}
			return busy
		}
		checked := 0
		for i := range int32(tr.Len()) {
			open := true // every ancestor expanded: shown unless hidden
			for p := tr.Node(i).Parent; p >= 0; p = tr.Node(p).Parent {
				open = open && tr.Node(p).Expanded
			}
			if !open {
				continue
			}
			checked++
			if shown, busy := tr.VisibleIndex(i) >= 0, rowBusy(i); shown != busy {
				t.Errorf("row %q shown %v, busy in the window %v", tr.Node(i).Label, shown, busy)
			}
		}
		if checked < tr.Hidden() {
			t.Errorf("only %d rows checked", checked)
		}
		hs.press("zoom_out") // another window: asked again
		if b.idle.t0 != b.win.T0 || b.idle.t1 != b.win.T1 {
			t.Errorf("idle rows of [%d, %d], window [%d, %d]", b.idle.t0, b.idle.t1, b.win.T0, b.win.T1)
		}
		hs.press("hide_idle")
		if tr.Hidden() != 0 || tr.VisibleLen() != all {
			t.Errorf("after showing again: %d hidden, %d of %d shown", tr.Hidden(), tr.VisibleLen(), all)
		}
	}
}

func init() {
	bindingTests["process_tree"] = func(t *testing.T, hs *harness) {
		b := hs.b()
		parentOf := func(label string) string {
			tr := b.tree()
			for i := range int32(tr.Len()) {
				if n := tr.Node(i); n.Label == label {
					if n.Parent < 0 {
						return ""
					}
					return tr.Node(n.Parent).Label
				}
			}
			t.Fatalf("no row %q", label)
			return ""
		}
		for range 6 {
			hs.press("zoom_in")
		}
		hs.press("hide_idle") // hides rows of the stored tree, put aside next
		hs.selectRow("Web Content 2001")
		flat := b.tree()
		if flat.Hidden() == 0 {
			t.Fatal("no idle row to hide in the stored rows")
		}
		hs.press("process_tree")
		if b.tree() == flat {
			t.Fatal("the rows did not change")
		}
		for child, parent := range map[string]string{
			"ls 1200": "systemd 1", "日本語の名前 3000": "ls 1200", "firefox 2000": "systemd 1",
			"Web Content 2001": "firefox 2000", "postgres 4000": "systemd 1", "kworker/0:1 15": "",
		} {
			if got := parentOf(child); got != parent {
				t.Errorf("%q under %q, want %q", child, got, parent)
			}
		}
		if got := hs.selectedLabel(); got != "Web Content 2001" {
			t.Errorf("selected %q after the tree, want Web Content 2001", got)
		}
		// Threads before child processes under a process.
		tr := b.tree()
		sys, _ := tr.ByTID("1")
		kids := tr.Children(sys)
		if len(kids) == 0 || tr.Node(kids[0]).Kind != frame.KindProcess && tr.Node(kids[0]).Kind != frame.KindThread {
			t.Errorf("systemd's children %v", kids)
		}
		hs.press("hide_idle") // off: no row stays hidden, in the stored rows either
		hs.press("collapse_all")
		if got := tr.VisibleLen(); got != len(tr.Roots()) {
			t.Errorf("collapse all in the tree: %d rows, want the %d roots", got, len(tr.Roots()))
		}
		hs.press("process_tree")
		if b.tree() != flat || parentOf("ls 1200") != "" || flat.Hidden() != 0 {
			t.Errorf("the stored rows are not back: ls 1200 under %q, %d rows hidden", parentOf("ls 1200"), flat.Hidden())
		}
		hs.press("resources")
		hs.press("process_tree")
		if !strings.Contains(b.note, "Control Flow's") {
			t.Errorf("in Resources: note %q", b.note)
		}
	}
}
