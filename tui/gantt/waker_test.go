package gantt

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/critpath"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/screens/critical"
)

// wakeOnScreen puts the cursor just before a wake-up of the demo by
// another thread, on the woken thread's row, and returns the wake-up
// time and the waker's tid.
func wakeOnScreen(t *testing.T, hs *harness) (core.Time, int32) {
	t.Helper()
	b := hs.b()
	m := b.hist.(*core.MemHistory)
	at := m.Attributes()
	for _, iv := range m.Intervals() {
		w, ok := core.DecodeWaker(iv.Value)
		if !ok || w.Kind != core.WakerThread || w.ID == 0 || at.Name(iv.Key) != core.AttrWaker {
			continue
		}
		woken := at.Name(at.Parent(iv.Key))
		if woken == strconv.Itoa(int(w.ID)) {
			continue
		}
		b.tree().SelectNode(frametest.TidRow(t, b.tree(), woken))
		hs.Run(b.moveCursor(iv.Start-1, true))
		if !b.frame.Woken || !strings.Contains(hs.view(), "woken by ") {
			t.Fatalf("cursor on the wait of %s before %d: no waker in the details line", woken, iv.Start)
		}
		return iv.Start, w.ID
	}
	t.Fatal("the demo has no wake-up by a thread")
	return 0, 0
}

func init() {
	bindingTests["follow_waker"] = func(t *testing.T, hs *harness) {
		hs.press("resources")
		hs.press("follow_waker") // no thread rows: a message
		if !strings.Contains(hs.b().note, "no waker") {
			t.Errorf("note %q", hs.b().note)
		}
		hs.press("control_flow")
		at, waker := wakeOnScreen(t, hs)
		hs.press("follow_waker")
		b := hs.b()
		if got := hs.selectedLabel(); !strings.HasSuffix(got, " "+strconv.Itoa(int(waker))) || b.cursor != at {
			t.Errorf("on %q at %d, want the waker %d at the wake-up %d", got, b.cursor, waker, at)
		}
	}
	bindingTests["waker_back"] = func(t *testing.T, hs *harness) {
		hs.press("waker_back") // nothing to come back from
		if !strings.Contains(hs.b().note, "no waker jump") {
			t.Errorf("note %q", hs.b().note)
		}
		at, _ := wakeOnScreen(t, hs)
		from := hs.selectedLabel()
		hs.press("follow_waker")
		hs.press("waker_back")
		if got, b := hs.selectedLabel(), hs.b(); got != from || b.cursor != at-1 {
			t.Errorf("back on %q at %d, want %q at %d", got, b.cursor, from, at-1)
		}
	}
}

func init() {
	bindingTests["critical_path"] = func(t *testing.T, hs *harness) {
		at, _ := wakeOnScreen(t, hs) // a thread woken by another: its path has two rows
		hs.press("zoom_all")
		hs.press("critical_path")
		v := topView[*critical.Screen](hs.b())
		if v == nil || v.Path == nil || v.Err != nil {
			t.Fatalf("no critical path view with a path (view %v)", v)
		}
		if len(v.Rows) < 2 || len(v.Path.Segments) < 2 || !strings.Contains(hs.view(), "Critical path of") {
			t.Fatalf("path: %d rows, %d segments", len(v.Rows), len(v.Path.Segments))
		}
		i := slices.IndexFunc(v.Path.Segments, func(s critpath.Segment) bool { return s.End == at && s.Worker != v.Path.Target })
		if i < 0 {
			t.Fatalf("no segment of the waker ends at the wake-up %d: %+v", at, v.Path.Segments)
		}
		for range i {
			hs.press("down")
		}
		hs.press("toggle")
		s := v.Path.Segments[i]
		if topView[*critical.Screen](hs.b()) != v || !v.Away() {
			t.Fatal("enter did not keep the view, away")
		}
		b := hs.b()
		if got := hs.selectedLabel(); !strings.HasSuffix(got, " "+strconv.Itoa(int(s.Worker.TID))) || b.cursor != s.Start {
			t.Errorf("on %q at %d, want %d at %d", got, b.cursor, s.Worker.TID, s.Start)
		}
		if !b.hasSel || b.selStart != s.Start || b.selEnd != s.End-1 || b.win.T0 > s.Start || b.win.T1 < s.End-1 {
			t.Errorf("segment [%d, %d) not selected and framed: sel %v [%d, %d], window [%d, %d]", s.Start, s.End, b.hasSel, b.selStart, b.selEnd, b.win.T0, b.win.T1)
		}
		if b.win.Span() > max(2*(s.End-s.Start), 2*b.win.MinSpan()) {
			t.Errorf("segment of %d ns shown in a window of %d ns: not framed", s.End-s.Start, b.win.Span())
		}
		if !strings.Contains(hs.view(), "back to the critical path") {
			t.Error("the help line does not say how to come back")
		}
		hs.press("waker_back")
		if topView[*critical.Screen](hs.b()) != v || v.Away() || !strings.Contains(hs.view(), "Critical path of") {
			t.Fatal("B did not come back to the same view")
		}
	}
}
