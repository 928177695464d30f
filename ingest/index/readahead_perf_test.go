package index

import (
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/perfdata"
)

// TestReadAheadPerfData: a perf.data without call stacks, decoded ahead
// on a goroutine of its own, gives the analyses the same events as read
// on the build's goroutine, and the build the same index bytes; one with
// stacks (the profile's) is read on the build's goroutine even when asked
// to read ahead, and gives the same index either way.
func TestReadAheadPerfData(t *testing.T) {
	rng := coretest.Rand(t)
	for _, name := range []string{"zstd.data", "threads.data", "pipe.data", "lost.data"} {
		trace := filepath.Join(coretest.ModuleRoot(), "ingest", "perfdata", "testdata", name)
		probe, err := perfdata.Open(trace, perfdata.Options{})
		must(t, err)
		stacks := hasStacks(probe)
		probe.Close()
		open := func() core.Source {
			src, err := perfdata.Open(trace, perfdata.Options{})
			must(t, err)
			return src
		}
		if !stacks {
			sameEventsAhead(t, name, 1+rng.IntN(100), open)
		}
		sameIndexAhead(t, trace, open)
		t.Logf("%s: stacks %v, same index read ahead", name, stacks)
	}
}
