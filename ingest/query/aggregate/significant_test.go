package aggregate

import (
	"context"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
)

// dfsSignificant is the thesis's depth-first dichotomy, the reference the
// breadth-first one must match when not cut short.
func dfsSignificant(tq *Temporal, threshold float64) []Partition {
	var all []Partition
	var rec func(p1, p2 float64, a, b Partition)
	rec = func(p1, p2 float64, a, b Partition) {
		if a.samePartition(b) || p2-p1 <= threshold {
			return
		}
		pm := (p1 + p2) / 2
		m := tq.Best(pm)
		all = append(all, m)
		if !m.samePartition(a) {
			rec(p1, pm, a, m)
		}
		if !m.samePartition(b) {
			rec(pm, p2, m, b)
		}
	}
	lo, hi := tq.Best(0), tq.Best(1)
	all = append(all, lo, hi)
	rec(0, 1, lo, hi)
	var out []Partition
	for _, f := range all {
		dup := false
		for i, o := range out {
			if o.samePartition(f) {
				dup = true
				if f.P < o.P {
					out[i] = f
				}
			}
		}
		if !dup {
			out = append(out, f)
		}
	}
	ps := make([]float64, len(out))
	for i, o := range out {
		ps[i] = o.P
	}
	sortByP(out, ps)
	return out
}

func randomModel(r interface {
	IntN(int) int
}, S, T, J int) *Model {
	m, _ := NewModel(S, T, J)
	for s := range S {
		for i := range T {
			for j := range J {
				if r.IntN(3) > 0 {
					m.Add(s, i, j, float64(r.IntN(60)))
				}
			}
		}
	}
	return m
}

func TestBreadthFirstDichotomyMatchesDepthFirst(t *testing.T) {
	r := coretest.Rand(t)
	ctx := context.Background()
	for round := range 40 {
		m := randomModel(r, 1+r.IntN(4), 2+r.IntN(12), 1+r.IntN(3))
		tq, err := NewTemporal(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		want := dfsSignificant(tq, 1e-4)
		for _, workers := range []int{1, 3} {
			got, truncated, err := tq.SignificantWith(ctx, SignificantOptions{Threshold: 1e-4, Workers: workers})
			if err != nil || truncated {
				t.Fatalf("round %d: %v, truncated %v", round, err, truncated)
			}
			if len(got) != len(want) {
				t.Fatalf("round %d, %d workers: %d partitions, depth-first finds %d", round, workers, len(got), len(want))
			}
			for i := range got {
				if got[i].P != want[i].P || !got[i].samePartition(want[i]) {
					t.Fatalf("round %d: partition %d at p=%g %v, depth-first p=%g %v", round, i, got[i].P, got[i].Parts, want[i].P, want[i].Parts)
				}
			}
		}
		// A budget returns a subset, each partition optimal for its p.
		budget := 1 + r.IntN(4)
		cut, truncated, err := tq.SignificantWith(ctx, SignificantOptions{Threshold: 1e-4, MaxCalls: budget})
		if err != nil {
			t.Fatal(err)
		}
		if len(cut) > budget+2 || (len(want) > budget+2 && !truncated) {
			t.Fatalf("round %d: budget %d gave %d partitions (truncated %v), full list %d", round, budget, len(cut), truncated, len(want))
		}
		for _, c := range cut {
			if !c.samePartition(tq.Best(c.P)) {
				t.Fatalf("round %d: partition at p=%g is not the best there", round, c.P)
			}
		}
	}
}

// TestSpatiotemporalConcurrentBest runs the dichotomy on two goroutines
// (meaningful under -race) and checks it against one goroutine, and the
// amounts and leaf counts against the model.
func TestSpatiotemporalConcurrentBest(t *testing.T) {
	r := coretest.Rand(t)
	ctx := context.Background()
	m := randomModel(r, 7, 9, 3)
	h := randomHierarchy(r, 7)
	st, err := NewSpatiotemporal(m, h)
	if err != nil {
		t.Fatal(err)
	}
	one, _, err := st.SignificantWith(ctx, SignificantOptions{Threshold: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	st2, _ := NewSpatiotemporal(m, h)
	two, _, err := st2.SignificantWith(ctx, SignificantOptions{Threshold: 1e-3, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(one) != len(two) {
		t.Fatalf("%d partitions with one worker, %d with two", len(one), len(two))
	}
	for i := range one {
		if one[i].P != two[i].P || !one[i].samePartition(two[i]) {
			t.Fatalf("partition %d differs: p=%g vs p=%g", i, one[i].P, two[i].P)
		}
	}
	for v := range h.Children {
		if len(h.Children[v]) == 0 && h.Resource[v] < 0 {
			continue // an empty group randomHierarchy left out of the tree
		}
		leaves := leavesOf(h, v)
		n, err := st.Leaves(ctx, v)
		if err != nil || n != len(leaves) {
			t.Fatalf("node %d: %d leaves (%v), want %d", v, n, err, len(leaves))
		}
		got, _ := st.Amounts(ctx, v, 2, 6, make([]float64, 3))
		for j := range 3 {
			var want float64
			for _, s := range leaves {
				for i := 2; i <= 6; i++ {
					want += m.At(s, i, j)
				}
			}
			if got[j] != want {
				t.Fatalf("node %d type %d: amount %g, want %g", v, j, got[j], want)
			}
		}
	}
	ctxc, cancel := context.WithCancel(ctx)
	cancel()
	st3, _ := NewSpatiotemporal(m, h)
	if _, err := st3.Best(ctxc, 0.5); err == nil {
		t.Error("a cancelled Best returned no error")
	}
}
