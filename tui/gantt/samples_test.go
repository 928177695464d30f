package gantt

import (
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/screens/critical"
	"github.com/tracetui/tracetui/tui/screens/flame"
)

// samplesTrace is thread 7 ("prof"), running from 0, with samples at 100,
// 250, 250 (two at one instant) and 600, and thread 8 without samples.
func samplesTrace(t *testing.T) *frametest.MemTrace {
	m := core.NewMemHistory(0)
	at := m.Attributes()
	set := frametest.Modifier(t, m)
	set(at.AddPath(core.AttrThreads, "7"), 0, core.Int32(int32(core.ThreadRunUser)))
	set(at.AddPath(core.AttrThreads, "7", core.AttrExecName), 0, core.String("prof"))
	set(at.AddPath(core.AttrThreads, "8"), 0, core.Int32(int32(core.ThreadWaitBlocked)))
	s := at.AddPath(core.AttrThreads, "7", core.AttrSamples)
	for i, tm := range []core.Time{100, 250, 600} {
		set(s, tm, core.Int64(int64([]int{1, 3, 4}[i])))
	}
	if err := m.Close(999); err != nil {
		t.Fatal(err)
	}
	return &frametest.MemTrace{TraceName: "samples", Meta: frame.TraceInfo{Format: "perfdata", End: 999}, Hist: m, Table: &frametest.MemEvents{}}
}

// TestSamplesRowKeys: the thread with samples has a "samples" row under
// it (the other none); on it, ] and [ move the cursor from sample to
// sample, the details line counts them, F opens the thread's call tree
// and P its critical path.
func TestSamplesRowKeys(t *testing.T) {
	hs := newHarness(t, samplesTrace(t), 100, 20, true)
	b := hs.b()
	tree := b.tree()
	var labels []string
	for i := range tree.VisibleLen() {
		labels = append(labels, tree.Node(tree.VisibleRow(i)).Label)
	}
	if got := strings.Join(labels, "|"); got != "prof 7|samples|8" {
		t.Fatalf("rows %q, want prof 7|samples|8", got)
	}
	hs.keys("j")
	if n := tree.Node(tree.Selected()); n.Kind != frame.KindSamples {
		t.Fatalf("selected %q, want the samples row", n.Label)
	}
	if d := b.detailsText(); !strings.HasPrefix(d, "samples of prof 7 · ") || !strings.Contains(d, " · 4 on screen · @ = ") {
		t.Errorf("details %q", d)
	}
	for _, want := range []core.Time{100, 250, 600} {
		hs.keys("]")
		if b.cursor != want {
			t.Fatalf("]: cursor %d, want %d", b.cursor, want)
		}
	}
	hs.keys("[")
	if b.cursor != 250 {
		t.Fatalf("[: cursor %d, want 250", b.cursor)
	}
	if d := b.detailsText(); !strings.Contains(d, " · 2 in column +") {
		t.Errorf("details at 250 %q: want its 2 samples", d)
	}
	hs.keys("F")
	if topView[*flame.Screen](b) == nil {
		t.Fatal("F: no call tree")
	}
	if v := hs.view(); !strings.Contains(v, "Call tree of prof 7 over the visible range") {
		t.Errorf("F: want thread 7's call tree, got\n%s", v)
	}
	hs.keys("esc", "P")
	if topView[*critical.Screen](b) == nil {
		t.Errorf("P on the samples row: no critical path of its thread (note %q)", b.note)
	}
}
