package tui

import (
	"testing"

	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// TestTraceClosedOnExit: the trace the browser opened is closed once when
// it exits, after quit, however often the model is closed.
func TestTraceClosedOnExit(t *testing.T) {
	tr := frametest.NewDemoTrace()
	hs := newHarness(t, tr, 80, 24, true)
	hs.keys("S", "q")
	if !hs.Quit {
		t.Fatal("q did not quit")
	}
	if n := tr.Closed.Load(); n != 0 {
		t.Fatalf("the trace was closed %d times before the program ended", n)
	}
	for range 2 {
		if err := hs.m.close(); err != nil {
			t.Fatal(err)
		}
	}
	if n := tr.Closed.Load(); n != 1 {
		t.Errorf("the trace was closed %d times, want 1", n)
	}
	if hs.m.views.Len() != 1 {
		t.Errorf("%d views still open after quit", hs.m.views.Len()-1)
	}
}
