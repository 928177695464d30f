package tui

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// TestGoldenCallTree shows the call tree (icicle and table) of clang's
// -ftime-trace sample (testdata/chrome), read through the real pipeline:
// every thread, then the compiler thread alone with Frontend expanded.
func TestGoldenCallTree(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	tr := openSample(t, "chrome/clang-ftime-trace.json")
	for _, c := range []goldenCase{
		{name: "calltree_all_100x30", w: 100, h: 30, keys: []string{"F"}},
		{name: "calltree_thread_80x24_ascii", w: 80, h: 24, ascii: true, keys: []string{"j", "F", "j", "l", "j"}},
		{name: "calltree_zoom_100x30", w: 100, h: 30, keys: []string{"F", "j", "j", "enter"}},
	} {
		t.Run(c.name, func(t *testing.T) { runGolden(t, tr, c) })
	}
}

// TestGoldenTracks shows Chrome's async lanes and counters
// (catapult-tracks.json: a process with only async slices, one with a
// counter) and Pajé variables (g5k-variables.paje: it opens on them) as
// rows: lanes as string states, counters as block heights, the value at
// the cursor in the details line.
func TestGoldenTracks(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	for _, c := range []struct {
		trace string
		cases []goldenCase
	}{
		{"chrome/catapult-tracks.json", []goldenCase{
			{name: "tracks_chrome_100x30", w: 100, h: 30},
			{name: "tracks_chrome_80x24_ascii", w: 80, h: 24, ascii: true, keys: []string{"j", "j", "j", "j", "j", "j", "j", "j", "j", "j"}},
			// The flow ipc/post#5 (s on 8:80 at 18 us, t on 7:70 at 33 us,
			// f on 8:81 at 45 us): from its last step e goes back to its
			// first (8:80), then forward step by step: to 7:70 (its
			// details line has the flow in and out), and from that middle
			// step on to where it arrives next (8:81), not back.
			{name: "flow_jump_100x30_ascii", w: 100, h: 30, ascii: true, keys: []string{"G", ":", "+", "4", "5", "u", "s", "enter", "e", "e", "e"}},
			{name: "flow_details_100x30_ascii", w: 100, h: 30, ascii: true, keys: []string{"G", ":", "+", "4", "5", "u", "s", "enter", "e", "e"}},
		}},
		{"paje/g5k-variables.paje", []goldenCase{
			{name: "tracks_paje_100x30", w: 100, h: 30, keys: []string{"j", "j", "j"}},
		}},
	} {
		tr := openSample(t, c.trace)
		for _, gc := range c.cases {
			t.Run(gc.name, func(t *testing.T) { runGolden(t, tr, gc) })
		}
	}
}

// openSample opens a trace of testdata (path relative to it) through the
// real pipeline, closed when the test ends.
func openSample(t *testing.T, rel string) frame.Trace {
	t.Helper()
	it, err := trace.Open(context.Background(), filepath.Join("..", "testdata", rel), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { it.Close() })
	return frametest.IngestTrace{Trace: it}
}
