package index

import (
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
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
		var want []string
		for range x.Info().Events {
			ev, err := full.Next()
			must(t, err)
			want = append(want, ev.Class.Name+" "+core.FormatTimestamp(ev.Time)+" "+string(full.AppendContents(nil, ev)))
		}
		ei := x.EventIndex()
		for range 20 {
			rank := rng.Int64N(int64(len(want)))
			entry, skip, err := ei.ForRank(rank)
			must(t, err)
			_, cp, err := ei.Checkpoint(entry, nil)
			must(t, err)
			must(t, r.Seek(cp))
			for i := int64(0); i < skip+10 && rank-skip+i < int64(len(want)); i++ {
				ev, err := r.Next()
				must(t, err)
				if got := ev.Class.Name + " " + core.FormatTimestamp(ev.Time) + " " + string(r.AppendContents(nil, ev)); got != want[rank-skip+i] {
					t.Fatalf("%s rank %d: event %d = %s, want %s", name, rank, rank-skip+i, got, want[rank-skip+i])
				}
			}
		}
	}
}
