package chrome

import (
	"io"
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/chrome/chrometest"
)

// eventRank reads the "n" argument each generated event carries.
func eventRank(t testing.TB, ev *core.Event) int {
	i := ev.Class.FieldIndex("args.n")
	f := ev.Field(i)
	if f.Kind != core.FieldInt {
		t.Fatalf("event %s without args.n", ev.Class.Name)
	}
	return int(f.Int)
}

// TestOrderAndSeekProperty checks, on random shuffled traces sorted in
// many small runs, that Next delivers time order with file-order ties,
// and that Seek to any checkpoint taken during a full pass replays the
// same sequence.
func TestOrderAndSeekProperty(t *testing.T) {
	rng := coretest.Rand(t)
	for iter := range 8 {
		text, _, order := chrometest.GenTrace(rng, 1+rng.IntN(5))
		path := chrometest.WriteTemp(t, text)
		opts := Options{TempDir: t.TempDir(), RunBytes: minRunBytes + rng.IntN(64<<10)}
		src, err := Open(path, opts)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		var cps [][]byte
		var cpAt []int
		for {
			if rng.IntN(10) == 0 {
				cps = append(cps, src.Checkpoint(nil))
				cpAt = append(cpAt, len(got))
			}
			ev, err := src.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, eventRank(t, ev))
		}
		if !slices.Equal(got, order) {
			t.Fatalf("iter %d (%d runs): order differs\n got %v\nwant %v", iter, len(src.runs), got, order)
		}
		// Seek on a fresh source of the same trace, in random order.
		other, err := Open(path, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range rng.Perm(len(cps)) {
			if err := other.Seek(cps[k]); err != nil {
				t.Fatalf("Seek: %v", err)
			}
			for j := cpAt[k]; j < len(got) && j < cpAt[k]+50; j++ {
				ev, err := other.Next()
				if err != nil {
					t.Fatalf("after Seek to event %d: %v", cpAt[k], err)
				}
				if r := eventRank(t, ev); r != got[j] {
					t.Fatalf("after Seek to event %d: event %d is %d, want %d", cpAt[k], j, r, got[j])
				}
			}
		}
		src.Close()
		other.Close()
	}
}

// TestAnalysisProperty checks the call-stack states of random nested
// B/E and X slices (shuffled, clang-style children-first X included)
