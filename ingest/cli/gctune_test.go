package cli

import (
	"runtime/debug"
	"testing"
)

func TestGCPercentFor(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 400},       // before the first collection: 4 MB counted
		{4 << 20, 400}, // 16 MB of growth
		{8 << 20, 200},
		{16 << 20, 100},
		{64 << 20, gcPercent}, // from here on, 25%
		{1 << 30, gcPercent},
	} {
		if got := gcPercentFor(c.live); got != c.want {
			t.Errorf("gcPercentFor(%d MB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
}

// TestGCTunerYieldsToOthers checks that a collection re-sets the percent
// the tuner set, and leaves one that someone else set (the browser's
// BrowsingGC) alone.
func TestGCTunerYieldsToOthers(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	tu := &gcTuner{set: 1234}
	defer tu.stopped.Store(true) // the cleanup armed by collected
	debug.SetGCPercent(1234)
	tu.collected()
	if got := debug.SetGCPercent(tu.set); got != tu.set || got == 1234 || got < gcPercent {
		t.Fatalf("after a collection the percent is %d (tuner's %d), want the tuner's, not 1234", got, tu.set)
	}
	debug.SetGCPercent(100) // someone else's
	tu.collected()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("the tuner overrode a percent set by someone else: %d, want 100", got)
	}
}
