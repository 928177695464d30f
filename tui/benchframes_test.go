package tui

import (
	"context"
	"testing"

	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// TestBenchFrames replays the navigation script on the demo fixture:
// every scripted key is a step with a time, the zoom reaches a nanosecond
// per column and comes back, the largest process is expanded and
// collapsed, and the frames read the history.
func TestBenchFrames(t *testing.T) {
	steps, err := BenchFrames(context.Background(), frametest.NewDemoTrace(), BenchOptions{Width: 120, Height: 40})
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	nodes := 0
	for _, s := range steps {
		if s.MS < 0 {
			t.Errorf("step %q took %v ms", s.Key, s.MS)
		}
		count[s.Key]++
		nodes += s.Nodes
	}
	if steps[0].Key != "open" || steps[0].Nodes == 0 {
		t.Errorf("first step %+v: want the opening frame, which reads the history", steps[0])
	}
	if count["w"] == 0 || count["w"] != count["s"] {
		t.Errorf("zoom: %d in, %d out", count["w"], count["s"])
	}
	for _, k := range []string{"pgdown", "pgup", "G", "g", "a", "d", "enter", "/", "2", "1"} {
		if count[k] == 0 {
			t.Errorf("no %q step in %v", k, count)
		}
	}
	if nodes == 0 {
		t.Error("no step read the history")
	}
}

// TestBenchFramesCancelled returns the context's error.
func TestBenchFramesCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := BenchFrames(ctx, frametest.NewDemoTrace(), BenchOptions{}); err == nil {
		t.Error("cancelled benchmark: no error")
	}
}
