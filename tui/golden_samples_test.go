package tui

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// TestGoldenSamples shows the sample-density rows of a perf.data profile
// (issue 28 item 4): a "samples" row under each thread that took samples
// (switch.perf: a cpu-clock -g recording of a command), drawn at 8 levels
// of the busiest column, with the details line of one (its count in the
// cursor's column, on screen, the scale).
func TestGoldenSamples(t *testing.T) {
	it, err := trace.Open(context.Background(), filepath.Join("..", "ingest", "perfdata", "testdata", "switch.perf"),
		index.Options{IndexPath: filepath.Join(t.TempDir(), "index")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { it.Close() })
	for _, c := range []goldenCase{
		{name: "samples_100x30", w: 100, h: 30, keys: []string{"j"}},
		{name: "samples_100x30_ascii", w: 100, h: 30, ascii: true, keys: []string{"j", "j", "j", "j", "j", "l", "l", "l", "l", "+", "l"}},
	} {
		t.Run(c.name, func(t *testing.T) { runGolden(t, frametest.IngestTrace{Trace: it}, c) })
	}
}
