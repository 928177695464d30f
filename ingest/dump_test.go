package ingest

import (
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
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
