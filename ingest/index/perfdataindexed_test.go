package index

import (
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/perfdata"
)

// TestPerfDataIndexed: a perf.data is detected, indexed with the kernel
// analysis (its threads' states are in the index) and its event table's
// reader, opened Indexed with the index's reader state, gives the full
// reader's events from the index's checkpoints at random ranks.
func TestPerfDataIndexed(t *testing.T) {
	rng := coretest.Rand(t)
	for _, name := range []string{"zstd.data", "threads.data", "pipe.data"} {
		trace := filepath.Join(coretest.ModuleRoot(), "ingest", "perfdata", "testdata", name)
		x, r := tableReader(t, trace)
		if f := x.Info().Format; f != "perfdata" {
			t.Fatalf("%s: format %q", name, f)
		}
		if _, ok := x.History().Attributes().Lookup("Threads"); !ok {
			t.Fatalf("%s: no Threads in the index: the kernel analysis did not read the events", name)
		}
		full, err := perfdata.Open(trace, perfdata.Options{})
		must(t, err)
		defer full.Close()
		checkSeeks(t, name, x, r, full, rng)
	}
}
