package gantt

import (
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// TestFlowKeyCycles follows the flow ipc/post#5 of catapult-tracks.json
// (s on 8:80 at 18 us, t on 7:70 at 33 us, f on 8:81 at 45 us) with the
// flow key: from the last step back to the first, then forward step by
// step, from the middle step on to the next (not back where it came
// from), and round again.
func TestFlowKeyCycles(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	hs := newHarness(t, openSample(t, "chrome/catapult-tracks.json"), 100, 30, true)
	b := hs.b()
	tree := b.tree()
	tree.SelectNode(frametest.TidRow(t, tree, "8:81"))
	start, _ := b.hist.Bounds()
	hs.Run(b.moveCursor(start+45_000, true))
	for i, want := range []struct {
		tid  string
		at   core.Time
		note string
	}{
		{"8:80", 18_000, "first step"},
		{"7:70", 33_000, "next step"},
		{"8:81", 45_000, "next step"},
		{"8:80", 18_000, "first step"},
	} {
		hs.press("flow_jump")
		if got := b.tree().Node(b.tree().Selected()).Tid; got != want.tid || b.cursor != start+want.at {
			t.Fatalf("press %d: on %s at %d, want %s at %d (note %q)", i+1, got, b.cursor-start, want.tid, want.at, b.note)
		}
		if !strings.Contains(b.note, want.note) {
			t.Errorf("press %d: note %q, want %q", i+1, b.note, want.note)
		}
	}
	// Two presses before the first answer: the first answer is stale.
	first, second := b.jumpFlow(), b.jumpFlow()
	stale, fresh := first(), second()
	hs.Send(stale)
	if b.cursor != start+18_000 {
		t.Errorf("a stale answer moved the cursor to %d", b.cursor-start)
	}
	hs.Send(fresh)
	if b.cursor != start+33_000 {
		t.Errorf("the last answer put the cursor at %d, want 33000", b.cursor-start)
	}
}
