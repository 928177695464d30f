package tui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// BenchmarkFramesSamples replays the browser's navigation script
// (BenchFrames, 200x60) on a perf.data profile, whose Control Flow shows
// a samples row under each sampled thread, and reports the frames' p50,
// p99 and max. Record one (never commit it), e.g. 20 s of busy loops:
//
//	perf record -e cpu-clock -F 999 -g -o /tmp/busy.data -- sh -c 'for j in 1 2 3; do python3 -c "
//	import time
//	e=time.time()+20
//	while time.time()<e: pass" & done; wait'
//	TRACETUI_SAMPLES_TRACE=/tmp/busy.data go test ./tui -run '^$' -bench FramesSamples -benchtime 5x
func BenchmarkFramesSamples(b *testing.B) {
	path := os.Getenv("TRACETUI_SAMPLES_TRACE")
	if path == "" {
		b.Skip("set TRACETUI_SAMPLES_TRACE to a perf.data file recorded with perf record -g")
	}
	ctx := context.Background()
	tr, err := trace.Open(ctx, path, index.Options{IndexPath: filepath.Join(b.TempDir(), "index")})
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	rows := len(tr.History().Attributes().Glob(core.AttrThreads + "/*/" + core.AttrSamples))
	if rows == 0 {
		b.Fatalf("%s: no thread took samples", path)
	}
	var ms []float64
	for b.Loop() {
		steps, err := BenchFrames(ctx, frametest.IngestTrace{Trace: tr}, BenchOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range steps {
			ms = append(ms, s.MS)
		}
	}
	slices.Sort(ms)
	at := func(q float64) float64 { return ms[min(int(q*float64(len(ms))), len(ms)-1)] }
	b.ReportMetric(at(0.5), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
	b.ReportMetric(ms[len(ms)-1], "max-ms")
	b.ReportMetric(float64(rows), "samples-rows")
}
