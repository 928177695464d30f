package gantt

import (
	"context"
	"sync"
	"testing"

	"github.com/tracetui/tracetui/ingest/gen/gentest"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// The real counterpart of newBigTrace: `tracetui gen --threads 50000`
// (the article's many-threads scale) indexed by the real pipeline (R-SHT
// and event index), so the benchmarks measure what users get. The trace
// and its index are kept in $TMPDIR/tracetui-bench (gentest) so that
// repeated runs skip the build; the index is rebuilt if the trace or the
// format changed.

var realTrace struct {
	once sync.Once
	tr   *trace.Trace
	err  error
}

func realBigTrace(b *testing.B) frame.Trace {
	b.Helper()
	realTrace.once.Do(func() {
		path := gentest.Trace(b, 50_000)
		realTrace.tr, realTrace.err = trace.Open(context.Background(), path, index.Options{IndexPath: path + ".tti"})
	})
	if realTrace.err != nil {
		b.Fatal(realTrace.err)
	}
	return frametest.IngestTrace{Trace: realTrace.tr}
}

// benchTraces are the two histories every 50 k benchmark runs on.
var benchTraces = []struct {
	name string
	open func(b *testing.B) frame.Trace
}{
	{"history=standin", func(*testing.B) frame.Trace { return newBigTrace() }},
	{"history=rsht", realBigTrace},
}

// BenchmarkEventsPartSearch is the search for far-apart parts the
// browser runs at open (gaps.go) on the 50 000-thread trace, which has no
// gap: one density of gapBins bins from the event index, no decoding; its
// peer is the density strip's own read at 200 columns.
//
//	go test ./tui/gantt -run '^$' -bench EventsPartSearch
func BenchmarkEventsPartSearch(b *testing.B) {
	tr := realBigTrace(b)
	start, end := tr.History().Bounds()
	b.Run("search", func(b *testing.B) {
		for b.Loop() {
			if m, err := searchEventsPart(context.Background(), tr.Events(), start, end); err != nil || m.found {
				b.Fatalf("search: %+v, %v", m, err)
			}
		}
	})
	b.Run("strip-200", func(b *testing.B) {
		for b.Loop() {
			if _, err := tr.Events().Density(context.Background(), start, end, 200); err != nil {
				b.Fatal(err)
			}
		}
	})
}
