package gantt

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

func sign(d int) int {
	if d < 0 {
		return -1
	}
	return 1
}

// TestResourcesNamesThreadsInRuns: zoomed in on the demo trace's CPU 1,
// its runs carry the names of the threads (as the Control Flow rows name
// them) where they fit, in ASCII too, and the details line names the
// thread running at the cursor.
func TestResourcesNamesThreadsInRuns(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 120, 30, true)
	hs.press("resources")
	hs.selectRow("CPU 1")
	for range 4 {
		hs.press("zoom_in")
	}
	b := hs.b()
	var cpu1 string
	for _, l := range strings.Split(hs.view(), "\n") {
		if strings.Contains(l, "CPU 1 ") && !strings.Contains(l, " · ") {
			cpu1 = l
		}
	}
	named := 0
	for _, r := range b.frame.Runs[slices.Index(b.frame.Keys, b.tree().Node(b.tree().Selected()).Key)] {
		label := string(b.runLabel(r, labelWidth(r)))
		if label == "" {
			continue
		}
		named++
		if !strings.Contains(cpu1, label) {
			t.Errorf("run of %d (columns %d..%d) not labelled %q:\n%s", r.Tid, r.C0, r.C1, label, cpu1)
		}
	}
	if named == 0 {
		t.Fatalf("no run named on CPU 1:\n%s", hs.view())
	}
	if d := b.detailsText(); !strings.Contains(d, "running swapper/1 0_1") {
		t.Errorf("details line %q does not name the idle thread", d)
	}
	hs.goTo("+1ms")
	if d := b.detailsText(); !strings.Contains(d, "running Web Content 2001") {
		t.Errorf("details line %q does not name the running thread", d)
	}
}

// TestCursorKeepsRunLabel: the cursor on a run's label leaves the label
// whole (the letter under it in reverse video in colour), in colour and
// in ASCII (issue 30 item 10: "co│pile").
func TestCursorKeepsRunLabel(t *testing.T) {
	for _, ascii := range []bool{false, true} {
		hs := newHarness(t, frametest.NewDemoTrace(), 120, 30, ascii)
		hs.press("resources")
		hs.selectRow("CPU 1")
		for range 4 {
			hs.press("zoom_in")
		}
		b := hs.b()
		runs := b.frame.Runs[slices.Index(b.frame.Keys, b.tree().Node(b.tree().Selected()).Key)]
		i := slices.IndexFunc(runs, func(r frame.ThreadRun) bool { return len(b.runLabel(r, labelWidth(r))) >= 4 })
		if i < 0 {
			t.Fatal("no labelled run on CPU 1")
		}
		r := runs[i]
		label := string(b.runLabel(r, labelWidth(r)))
		for d := r.C0 + 3 - b.win.ColOf(b.cursor); d != 0; d -= sign(d) { // on the label's third letter
			if d > 0 {
				hs.press("right")
			} else {
				hs.press("left")
			}
		}
		if c := b.win.ColOf(b.cursor); c != r.C0+3 {
			t.Fatalf("cursor on column %d, want %d", c, r.C0+3)
		}
		var cpu1 string
		for _, l := range strings.Split(ansi.Strip(hs.view()), "\n") {
			if strings.Contains(l, "CPU 1 ") && !strings.Contains(l, " · ") && !strings.Contains(l, " . ") {
				cpu1 = l
			}
		}
		if !strings.Contains(cpu1, label) {
			t.Errorf("ascii %v: label %q cut by the cursor:\n%s", ascii, label, cpu1)
		}
	}
}

// TestRunLabelsUseTheirWidth: a label fills its run after one column of
// margin, none at the end (issue 30 item 5: "cat" where "cat 11022"
// fit); some run of the demo is named longer than with a margin on
// both sides, and the longer name is drawn.
func TestRunLabelsUseTheirWidth(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 120, 30, true)
	hs.press("resources")
	wider := 0
	for zoom := range 8 {
		hs.press("zoom_in")
		b := hs.b()
		view := hs.view()
		for i, runs := range b.frame.Runs {
			for _, r := range runs {
				long, short := string(b.runLabel(r, labelWidth(r))), string(b.runLabel(r, r.C1-r.C0-1))
				if len(long) <= len(short) {
					continue
				}
				wider++
				if !strings.Contains(view, long) {
					t.Errorf("zoom %d, row key %d: run of %d (columns %d..%d) not labelled %q:\n%s", zoom, b.frame.Keys[i], r.Tid, r.C0, r.C1, long, view)
				}
			}
		}
	}
	if wider == 0 {
		t.Fatal("no run whose label needed its last column: the test proves nothing")
	}
}
