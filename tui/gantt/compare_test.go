package gantt

import (
	"context"
	"github.com/tracetui/tracetui/ingest/query/diff"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/ingest/gen/gentest"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/screens/compare"
	"github.com/tracetui/tracetui/tui/screens/flame"
	"github.com/tracetui/tracetui/tui/screens/sidebyside"
)

// openGen opens a generated kernel trace through the real pipeline.
func openGen(t *testing.T, path string) frame.Trace {
	t.Helper()
	it, err := trace.Open(context.Background(), path, index.Options{IndexPath: filepath.Join(t.TempDir(), "index")})
	if err != nil {
		t.Fatal(err)
	}
	return frametest.IngestTrace{Trace: it} // closed by the harness
}

// TestCompareSelections: the compare key asks for two selections until
// two are made, then opens the comparison of the last (B) with the
// previous (A); enter on a thread line closes it and selects that
// thread's Control Flow row, the note saying its tid on each side.
func TestCompareSelections(t *testing.T) {
	hs := newHarness(t, openGen(t, gentest.Trace(t, 300)), 120, 40, true)
	hs.keys("D")
	if !strings.Contains(hs.b().note, "needs two selections") || topView[*compare.Screen](hs.b()) != nil {
		t.Fatalf("D without selections: note %q", hs.b().note)
	}
	hs.keys("space", "l", "l", "l", "l", "space", "l", "space", "l", "l", "l", "l", "l", "l", "space")
	if len(hs.b().spans) != 2 || hs.b().spans[0].to >= hs.b().spans[1].from {
		t.Fatalf("selections remembered: %+v", hs.b().spans)
	}
	hs.keys("D")
	s := topView[*compare.Screen](hs.b())
	if s == nil {
		t.Fatalf("D with two selections opened nothing: note %q", hs.b().note)
	}
	if v := hs.view(); !strings.Contains(v, "Compare the last selection (B) against the previous one (A)") || !strings.Contains(v, "base: A +") {
		t.Fatalf("comparison screen:\n%s", v)
	}
	hs.keys("tab")
	if len(s.Tables[compare.Threads].Lines) == 0 {
		t.Fatal("no thread lines")
	}
	hs.keys("enter")
	if topView[*compare.Screen](hs.b()) != nil {
		t.Fatal("enter left the comparison open")
	}
	m := regexp.MustCompile(`thread (\d+) in B`).FindStringSubmatch(hs.b().note)
	if m == nil {
		t.Fatalf("note %q does not name the thread in B", hs.b().note)
	}
	if tr := hs.b().tree(); tr.Node(tr.Selected()).Tid != m[1] || hs.b().pane != frame.PaneControlFlow {
		t.Fatalf("selected row %q, want thread %s", tr.Node(tr.Selected()).Tid, m[1])
	}
}

// TestCompareTwoTraces: with a NEW trace, the compare key compares the
// whole traces at once; a thread only in NEW is said to be absent here.
func TestCompareTwoTraces(t *testing.T) {
	hs := newHarness(t, openGen(t, gentest.Trace(t, 300)), 120, 40, true)
	other := openGen(t, gentest.TraceCPUs(t, 300, 2))
	t.Cleanup(func() { other.Close() })
	hs.b().SetCompare(other)
	if !strings.Contains(hs.b().note, "comparing with NEW") {
		t.Fatalf("note at open: %q", hs.b().note)
	}
	hs.keys("D")
	s := topView[*compare.Screen](hs.b())
	if s == nil || !strings.Contains(hs.view(), "new: NEW ") {
		t.Fatalf("comparison of two traces:\n%s", hs.view())
	}
	if len(s.Tables[compare.Processes].Lines) == 0 {
		t.Fatal("no process lines")
	}
	hs.keys("enter")
	if !strings.Contains(hs.b().note, "process") || !strings.Contains(hs.b().note, "in BASE") {
		t.Fatalf("note after enter: %q", hs.b().note)
	}
	// Side by side, each trace's row of that process is selected.
	ids := hs.b().compared
	if ids[0] == 0 || ids[1] == 0 {
		t.Fatalf("the first process is on both sides: ids %v", ids)
	}
	hs.keys("V")
	v := topView[*sidebyside.Screen](hs.b())
	if v == nil {
		t.Fatal("V opened nothing")
	}
	for i, sd := range v.Sides {
		if got := sd.Tree.Node(sd.Tree.Selected()).Tid; got != strconv.Itoa(int(ids[i])) {
			t.Errorf("side %d: row %q selected, want %d", i, got, ids[i])
		}
	}
}

// TestComparePathProfiles: two perf.data profiles compared in the
// browser give a call tree of samples; enter on a call path opens the
// call tree screen above the comparison, NEW's tree at that path, the
// Focus key showing BASE's; esc returns to the comparison.
func TestComparePathProfiles(t *testing.T) {
	hs := newHarness(t, openGen(t, "../../ingest/query/diff/testdata/base.data"), 120, 40, true)
	other := openGen(t, "../../ingest/query/diff/testdata/new.data")
	t.Cleanup(func() { other.Close() })
	hs.b().SetCompare(other)
	hs.keys("D")
	s := topView[*compare.Screen](hs.b())
	if s == nil {
		t.Fatalf("D opened nothing: %q", hs.b().note)
	}
	for s.Focus != compare.CallTree {
		hs.keys("tab")
	}
	ct := &s.Tables[compare.CallTree]
	if len(ct.Lines) == 0 || !strings.Contains(hs.view(), "self samples per call path") {
		t.Fatalf("call tree of samples:\n%s", hs.view())
	}
	hs.keys("enter")
	v := topView[*flame.Screen](hs.b())
	if v == nil || topView[*compare.Screen](hs.b()) != s {
		t.Fatal("enter on a call path: no call tree above the comparison")
	}
	path := strings.Split(ct.Lines[ct.Cur].Name, ";")
	view := hs.view()
	if v.Status != "" || !strings.Contains(view, "Call tree (tab: the other side) of NEW new.data at "+strings.Join(path, " > ")) || !strings.Contains(view, "samples") {
		t.Fatalf("NEW's call tree (status %q):\n%s", v.Status, view)
	}
	if got := v.CursorPath(); !slices.Equal(got, path) {
		t.Fatalf("cursor on %q, want %q", got, path)
	}
	hs.keys("tab")
	if view := hs.view(); !strings.Contains(view, "Call tree (tab: the other side) of BASE base.data at ") || len(v.CursorPath()) == 0 {
		t.Fatalf("tab: BASE's tree:\n%s", view)
	}
	hs.keys("esc")
	if topView[*flame.Screen](hs.b()) != nil || topView[*compare.Screen](hs.b()) != s {
		t.Fatal("esc did not return to the comparison")
	}
}

// selectThread selects the n-th thread row of Control Flow (with a
// numeric tid) and returns its label.
func selectThread(t *testing.T, hs *harness, n int) string {
	t.Helper()
	tr := hs.b().tree()
	for i := range int32(tr.Len()) {
		nd := tr.Node(i)
		if _, err := strconv.Atoi(nd.Tid); err != nil || nd.Kind != frame.KindThread || nd.Tid == "0" {
			continue
		}
		if n--; n < 0 {
			tr.SelectNode(i)
			hs.Run(hs.b().changed(false))
			return nd.Label
		}
	}
	t.Fatal("not enough threads")
	return ""
}

// TestCompareThreads: two marked threads (each over its own selection,
// made before marking it) compare in the tables of diff.Compute on those threads and ranges, row
// for row; enter on the thread line selects thread B; a selection after
// the marks makes the compare key compare selections again.
func TestCompareThreads(t *testing.T) {
	hs := newHarness(t, openGen(t, gentest.Trace(t, 300)), 120, 40, true)
	hs.keys("space", "l", "l", "l", "l", "space")
	selectThread(t, hs, 0)
	hs.keys("M")
	a := hs.b().threadMarks[0]
	hs.keys("l", "space", "l", "l", "l", "l", "l", "l", "space")
	selectThread(t, hs, 2)
	if hs.b().lastThreads {
		t.Fatal("a selection between the marks: still comparing threads")
	}
	hs.keys("M")
	c := hs.b().threadMarks[1]
	if c.from == a.from || c.tids[0] == a.tids[0] || !hs.b().lastThreads {
		t.Fatalf("marks: A %+v, B %+v", a, c)
	}
	hs.keys("D")
	s := topView[*compare.Screen](hs.b())
	if s == nil {
		t.Fatalf("D opened nothing: note %q", hs.b().note)
	}
	base := diff.Side{History: hs.b().hist, From: a.from, To: a.to + 1, Threads: a.tids}
	next := diff.Side{History: hs.b().hist, From: c.from, To: c.to + 1, Threads: c.tids}
	want, err := diff.Compute(context.Background(), base, next, diff.Options{Top: compare.MaxRows})
	if err != nil {
		t.Fatal(err)
	}
	th := s.Tables[compare.Threads].Lines
	if len(th) != 1 || len(want.Threads) != 1 || th[0].Name != want.Threads[0].Name || th[0].Base != want.Threads[0].BaseNS || th[0].New != want.Threads[0].NewNS ||
		!strings.Contains(th[0].Name, " vs ") {
		t.Fatalf("thread table %+v, diff %+v", th, want.Threads)
	}
	if got := s.Tables[compare.Syscalls].Lines; len(got) != len(want.Syscalls) {
		t.Fatalf("%d system call lines, diff has %d", len(got), len(want.Syscalls))
	}
	hs.keys("tab", "enter")
	if m := regexp.MustCompile(`thread (\d+) in B`).FindStringSubmatch(hs.b().note); m == nil || m[1] != strconv.Itoa(int(c.tids[0])) {
		t.Fatalf("enter on the thread line: note %q, want thread %d in B", hs.b().note, c.tids[0])
	}
	hs.keys("space", "l", "space")
	hs.keys("D")
	if v := hs.view(); !strings.Contains(v, "Compare the last selection (B) against the previous one (A)") {
		t.Fatalf("after a selection, D compares selections:\n%s", v)
	}
}
