package index

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/tracedat"
)

// TestTraceDatTableSkipsTheFirstPass: the event table's reader of an
// indexed trace.dat (version 7, zstd) is opened Indexed (no event count:
// no first pass), and from the index's checkpoints at random ranks it
// gives the full reader's events. The index keeps the reader's state
// (formats and symbols), which the reader is given.
func TestTraceDatTableSkipsTheFirstPass(t *testing.T) {
	rng := coretest.Rand(t)
	trace := filepath.Join(coretest.ModuleRoot(), "ingest", "tracedat", "testdata", "pipes-v7-zstd.dat")
	x, r := tableReader(t, trace)
	if n := r.(*tracedat.Source).Events(); n != 0 {
		t.Fatalf("the table's reader counted %d events: it ran the first pass", n)
	}
	if sec, err := x.Tree().Section(sectionReaderState); err != nil || int64(len(x.sources.env.State)) != sec.Size() || sec.Size() == 0 {
		t.Fatalf("reader state: section %v, %d bytes given to the reader", err, len(x.sources.env.State))
	}
	full, err := tracedat.Open(trace, tracedat.Options{})
	must(t, err)
	defer full.Close()
	checkSeeks(t, "pipes-v7-zstd.dat", x, r, full, rng)
}

// checkSeeks checks that r, the event table's reader of x, gives full's
// events (full reads the same trace from its start) from the index's
// checkpoints at 20 random ranks, 10 events past each.
func checkSeeks(t *testing.T, name string, x *Index, r, full core.Source, rng *rand.Rand) {
	t.Helper()
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

// tableReader opens the index of trace and a reader of it as the event
// table opens one; both are closed when the test ends.
func tableReader(t *testing.T, trace string) (*Index, core.Source) {
	t.Helper()
	return tableReaderAfter(t, trace, func() {})
}

// tableReaderAfter is tableReader that calls between before opening the
// reader, once the index is open.
func tableReaderAfter(t *testing.T, trace string, between func()) (*Index, core.Source) {
	t.Helper()
	x, err := Open(context.Background(), trace, openOpts(t))
	must(t, err)
	t.Cleanup(func() { x.Close() })
	between()
	r, err := x.OpenSource()
	must(t, err)
	t.Cleanup(func() { r.Close() })
	return x, r
}
