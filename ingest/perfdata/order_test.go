package perfdata

import (
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
)

// TestMergeRunsSorts (property): mergeRuns orders records as a sort by
// sortKey does, on batches made as perf writes them (a few ascending
// runs, equal times among them) and on shuffled ones.
func TestMergeRunsSorts(t *testing.T) {
	r := coretest.Rand(t)
	var spare []*queued
	for range 2000 {
		var b []*queued
		off := int64(0)
		for range r.IntN(6) { // runs
			tm := uint64(r.IntN(50))
			for range r.IntN(40) {
				tm += uint64(r.IntN(3))
				off += 1 + int64(r.IntN(3))
				b = append(b, &queued{t: tm, at: pos{off: off}})
			}
		}
		if r.IntN(4) == 0 {
			r.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
		}
		want := slices.Clone(b)
		slices.SortFunc(want, sortKey)
		var got []*queued
		got, spare = mergeRuns(b, spare)
		if !slices.Equal(got, want) {
			t.Fatalf("%d records: merged %v, sorted %v", len(b), keys(got), keys(want))
		}
		if len(spare) != 0 || slices.ContainsFunc(spare[:cap(spare)], func(q *queued) bool { return q != nil }) {
			t.Fatal("the scratch keeps records")
		}
	}
}

func keys(b []*queued) [][2]int64 {
	var out [][2]int64
	for _, q := range b {
		out = append(out, [2]int64{int64(q.t), q.at.off})
	}
	return out
}
