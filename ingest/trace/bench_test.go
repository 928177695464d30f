package trace

import (
	"context"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
	"github.com/tracetui/tracetui/ingest/index"
)

// benchTrace opens the generated 50 000-thread trace (the article's
// many-threads scale) with its index, building it the first time.
func benchTrace(b *testing.B) *Trace {
	trace := gentest.Trace(b, 50_000)
	tr, err := Open(context.Background(), trace, index.Options{IndexPath: trace + ".tti"})
	if err != nil {
		b.Fatal(err)
	}
	return tr
}

// BenchmarkTablePage reads one screen of the event table (50 rows, with
// contents, thread and process) at random positions of the 1.1 M events:
// seek to a checkpoint, decode up to K events, format 50, resolve their
// threads with two 2D queries. Target: <= 5 ms per page.
//
//	go test ./ingest/trace -run '^$' -bench TablePage -benchtime 2000x
func BenchmarkTablePage(b *testing.B) {
	tr := benchTrace(b)
	defer tr.Close()
	t := tr.Events()
	rng := rand.New(rand.NewPCG(1, 2))
	ranks := make([]int64, 50)
	lat := make([]time.Duration, 0, b.N)
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		first := rng.Int64N(t.Len() - 50)
		for i := range ranks {
			ranks[i] = first + int64(i)
		}
		t0 := time.Now()
		if _, err := t.Rows(ctx, ranks); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkFilterScan runs one background regex filter over the whole
// event table of the generated 50 000-thread trace (1.1 M events), on one
// column: the event name (cheap text) and the contents (every event
// formatted as dump prints it). Target: >= 1 M events/s.
//
//	go test ./ingest/trace -run '^$' -bench FilterScan -benchtime 3x
func BenchmarkFilterScan(b *testing.B) {
	tr := benchTrace(b)
	defer tr.Close()
	t := tr.Events()
	for _, c := range []struct {
		name string
		f    core.EventFilter
	}{
		{"column=event", core.EventFilter{core.ColEvent: regexp.MustCompile(`^syscall_entry_(read|write)$`)}},
		{"column=contents", core.EventFilter{core.ColContents: regexp.MustCompile(`prev_state = 1\b`)}},
		{"column=process", core.EventFilter{core.ColProcess: regexp.MustCompile(`^burn$`)}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var matches int64
			cpu0 := gentest.CPUTime()
			b.ResetTimer()
			for range b.N {
				matches = 0
				err := t.Filter(context.Background(), c.f, func(p core.FilterProgress) bool {
					matches += int64(len(p.Matches))
					return true
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			n := float64(t.Len()) * float64(b.N)
			b.ReportMetric(n/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(n/(gentest.CPUTime()-cpu0).Seconds(), "events/cpu-s")
			b.ReportMetric(float64(matches), "matches")
		})
	}
}
