package ingest

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/gen"
)

func TestAppendTimestampMatchesCore(t *testing.T) {
	rng := coretest.Rand(t)
	cases := []core.Time{0, 1, 9, 10, 999_999_999, 1_000_000_000, 1412670961211260539, -1, -1_000_000_001, core.MaxTime, core.MinTime}
	for i := 0; i < 10000; i++ {
		cases = append(cases, core.Time(rng.Int64()), core.Time(rng.Int64N(1e12)))
	}
	for _, c := range cases {
		if got, want := string(appendTimestamp(nil, c)), core.FormatTimestamp(c); got != want {
			t.Fatalf("appendTimestamp(%d) = %q, want %q", c, got, want)
		}
	}
}

// TestDumpAllocatesNothingPerEvent dumps a generated trace (enums,
// strings, sequences) and counts allocations per event.
func TestDumpAllocatesNothingPerEvent(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "trace")
	st, err := gen.Write(dir, gen.Config{Threads: 300, CPUs: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	src, err := OpenSource(dir, "", OpenEnv{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	r := src.(*ctf.Reader)
	if err := Dump(io.Discard, r, 1); err != nil { // warm up
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(1, func() {
		if err := r.SeekTime(core.MinTime); err != nil {
			t.Fatal(err)
		}
		if err := Dump(io.Discard, r, 0); err != nil {
			t.Fatal(err)
		}
	})
	if perEvent := allocs / float64(st.Events); perEvent > 0.01 {
		t.Errorf("%.0f allocations for %d events", allocs, st.Events)
	}
}
