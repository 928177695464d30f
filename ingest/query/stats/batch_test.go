package stats

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
)

// TestBatchesSameReport (property): reading the threads' states a batch at
// a time (of a number of threads, or of threads weighed by their
// intervals) and the CPUs' current threads a window of time at a time
// (bounded memory) gives the same report as reading them at once,
// for random batch sizes and ranges, on a real kernel trace and a
// generated one.
func TestBatchesSameReport(t *testing.T) {
	rng := coretest.Rand(t)
	for name, path := range map[string]func(testing.TB) string{
		"bug446190": func(tb testing.TB) string { return filepath.Join(coretest.SharedTraces(tb), "ctf", "bug446190") },
		"gen-300":   func(tb testing.TB) string { return gentest.Trace(tb, 300) },
	} {
		t.Run(name, func(t *testing.T) {
			h := analyzeCTF(t, path(t))
			start, end := h.Bounds()
			for round := range 5 {
				a, b := start+core.Time(rng.Int64N(int64(end-start))), start+core.Time(rng.Int64N(int64(end-start)))
				o := Options{From: min(a, b), To: max(a, b) + 1}
				if round == 0 {
					o.From, o.To = 0, 0 // the whole trace
				}
				want, err := Compute(context.Background(), h, o)
				if err != nil {
					t.Fatal(err)
				}
				o.BatchThreads, o.TimeWindows = 1+rng.IntN(40), 1+rng.IntN(50)
				got, err := Compute(context.Background(), h, o)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("round %d, batches of %d threads, %d windows of time: the report differs from one read at once", round, o.BatchThreads, o.TimeWindows)
				}
				o.BatchThreads, o.BatchIntervals = 0, 1+rng.IntN(5000) // the threads weighed
				if got, err = Compute(context.Background(), h, o); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("round %d, batches of %d intervals, %d windows of time: the report differs from one read at once", round, o.BatchIntervals, o.TimeWindows)
				}
			}
		})
	}
}
