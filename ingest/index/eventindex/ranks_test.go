package eventindex

import (
	"bytes"
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// TestApproxRanksMatchesApproxRank ranks random sorted times in one call
// and compares with ApproxRank per time, on random indexes, including
// times before, inside and after the trace, ties, and with a small read
// bound so that the per-time fallback runs too.
func TestApproxRanksMatchesApproxRank(t *testing.T) {
	r := coretest.Rand(t)
	for round := range 40 {
		x, evs, k := randomIndex(t, r)
		n := len(evs)
		ts := make([]core.Time, r.IntN(300))
		for i := range ts {
			ts[i] = core.Time(900 + r.IntN(n*30+300))
		}
		slices.Sort(ts)
		got := make([]int64, len(ts))
		bound := maxRankEntries
		if round%2 == 1 {
			bound = r.IntN(8) // mostly past it: the per-time search
		}
		if err := x.approxRanks(ts, got, bound); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		for i, at := range ts {
			want, err := x.ApproxRank(at)
			if err != nil || got[i] != want {
				t.Fatalf("round %d (n=%d k=%d bound=%d): rank of %d = %d, ApproxRank %d, %v", round, n, k, bound, at, got[i], want, err)
			}
		}
	}
}

// TestApproxRanksRefusesUnsorted: times out of order are an error, not a
// wrong answer.
func TestApproxRanksRefusesUnsorted(t *testing.T) {
	r := coretest.Rand(t)
	evs := randomEvents(r, 500)
	raw := build(t, coretest.NewSliceSource(core.SourceInfo{}, evs), 7)
	x, err := Open(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	mid := evs[250].Time
	if err := x.ApproxRanks([]core.Time{mid + 10, mid}, make([]int64, 2)); err == nil {
		t.Fatal("unsorted times ranked without an error")
	}
	if err := x.ApproxRanks([]core.Time{mid}, make([]int64, 2)); err == nil {
		t.Fatal("a short output accepted")
	}
}
