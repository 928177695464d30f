package cli

import (
	"runtime/debug"
	"testing"
)

func TestGCPercentFor(t *testing.T) {
	for _, c := range []struct {
		r    *gcRegime
		live uint64
		want int
	}{
		{&buildGC, 0, 400},       // before the first collection: 4 MB counted
		{&buildGC, 4 << 20, 400}, // 16 MB of growth
		{&buildGC, 8 << 20, 200},
		{&buildGC, 16 << 20, 100},
		{&buildGC, 64 << 20, 25}, // from here on, 25%
		{&buildGC, 384 << 20, 25},
		{&buildGC, 768 << 20, 12}, // from 384 MB on, 96 MB of growth
		{&buildGC, 1 << 30, 9},
		{&buildGC, 1 << 40, 1},    // 1% at least
		{&browseGC, 0, 200},       // 8 MB of growth over the 4 MB counted
		{&browseGC, 8 << 20, 100}, // from here on, Go's default
		{&browseGC, 1 << 30, 100},
	} {
		if got := c.r.percentFor(c.live); got != c.want {
			t.Errorf("%+v: percentFor(%d MB) = %d, want %d", *c.r, c.live>>20, got, c.want)
		}
	}
}

// TestGCTunerRegimes checks that the tuner sets its regime's percent at
// once, again after a collection, and not once stopped; and that $GOGC
// turns it off.
func TestGCTunerRegimes(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "")
	tu := startGCTuner()
	defer tu.stop() // the cleanup armed by collected
	percent := func() int { p := debug.SetGCPercent(-1); debug.SetGCPercent(p); return p }
	if p := percent(); p < buildGC.percent || p > buildGC.percentFor(0) {
		t.Fatalf("build regime: percent %d, want %d to %d", p, buildGC.percent, buildGC.percentFor(0))
	}
	(&Env{gc: tu}).Browsing()
	if p := percent(); p < browseGC.percent || p > browseGC.percentFor(0) || p == buildGC.percentFor(0) {
		t.Fatalf("browse regime: percent %d, want %d to %d", p, browseGC.percent, browseGC.percentFor(0))
	}
	debug.SetGCPercent(7)
	tu.collected()
	if p := percent(); p == 7 {
		t.Fatal("a collection did not re-set the percent")
	}
	tu.stop()
	debug.SetGCPercent(7)
	tu.collected()
	if p := percent(); p != 7 {
		t.Fatalf("a stopped tuner set the percent to %d", p)
	}

	t.Setenv("GOGC", "300")
	debug.SetGCPercent(300)
	off := startGCTuner()
	(&Env{gc: off}).Browsing()
	if p := percent(); p != 300 {
		t.Fatalf("with $GOGC set the tuner set the percent to %d", p)
	}
}
