package aggregate

import (
	"context"
	"math"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
)

// thesisModel is figure 5.7 of Dosimont's thesis: two resources, ten
// slices, one type.
func thesisModel(t *testing.T) *Model {
	m, err := NewModel(2, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	for s, row := range [][]float64{
		{23, 25, 22, 30, 55, 21, 26, 35, 19, 30},
		{75, 72, 71, 69, 92, 73, 75, 35, 70, 71},
	} {
		for i, v := range row {
			m.Add(s, i, 0, v)
		}
	}
	return m
}

func parts(p Partition) [][2]int {
	var out [][2]int
	for _, x := range p.Parts {
		out = append(out, [2]int{x.Start + 1, x.End + 1}) // 1-based like the thesis
	}
	return out
}

func TestTemporalReproducesThesisFigure57(t *testing.T) {
	tq, err := NewTemporal(context.Background(), thesisModel(t))
	if err != nil {
		t.Fatal(err)
	}
	sig, err := tq.Significant(context.Background(), DefaultThreshold)
	if err != nil {
		t.Fatal(err)
	}
	// The figure prints p = 0.00952148: {t1-t4}{t5}{t6-t7}{t8}{t9-t10},
	// and p = 0.0181885: {t1-t7}{t8}{t9-t10}.
	want := map[string][][2]int{
		"0.00952148": {{1, 4}, {5, 5}, {6, 7}, {8, 8}, {9, 10}},
		"0.0181885":  {{1, 7}, {8, 8}, {9, 10}},
	}
	foundCount := 0
	for _, p := range sig {
		key := formatP(p.P)
		if w, ok := want[key]; ok {
			foundCount++
			if got := parts(p); !equalParts(got, w) {
				t.Errorf("p = %s: partition %v, want %v", key, got, w)
			}
		}
	}
	if foundCount != len(want) {
		var ps []string
		for _, p := range sig {
			ps = append(ps, formatP(p.P))
		}
		t.Errorf("significant p = %v; want it to contain 0.00952148 and 0.0181885", ps)
	}
	if first, last := sig[0], sig[len(sig)-1]; first.P != 0 || len(first.Parts) != 10 || len(last.Parts) != 1 {
		t.Errorf("ends: p=%g %d parts, p=%g %d parts", first.P, len(first.Parts), last.P, len(last.Parts))
	}
	// Aggregated amounts as printed: s1 = 100 55 47 35 49 at p = 0.00952148.
	if q := tq.Quality(0, 3); q.Gain <= 0 || q.Loss <= 0 {
		t.Errorf("quality of [t1, t4] = %+v, want positive gain and loss", q)
	}
}

// formatP prints p with six significant digits, as the thesis does.
func formatP(p float64) string { return strconv.FormatFloat(p, 'g', 6, 64) }

func equalParts(a, b [][2]int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestTemporalMatchesBruteForce compares the dynamic program with an
// enumeration of every contiguous partition, qualities computed directly
// from the model.
func TestTemporalMatchesBruteForce(t *testing.T) {
	r := coretest.Rand(t)
	for round := range 200 {
		S, T, J := 1+r.IntN(3), 1+r.IntN(8), 1+r.IntN(3)
		m, _ := NewModel(S, T, J)
		for s := range S {
			for i := range T {
				for j := range J {
					if r.IntN(3) > 0 {
						m.Add(s, i, j, float64(r.IntN(50)))
					}
				}
			}
		}
		tq, err := NewTemporal(context.Background(), m)
		if err != nil {
			t.Fatal(err)
		}
		p := r.Float64()
		if r.IntN(4) == 0 {
			p = float64(r.IntN(2))
		}
		got := tq.Best(p)
		want := bruteBest(m, p)
		// Several partitions can tie exactly (e.g. merging zeros costs
		// nothing): compare the optimum, and the DP's own sums.
		gt, wt := newTradeoff(p, got.Quality), newTradeoff(p, want.Quality)
		var sum Quality
		for _, x := range got.Parts {
			q := directQuality(m, x.Start, x.End)
			sum.Gain += q.Gain
			sum.Loss += q.Loss
		}
		if better(gt, wt) || better(wt, gt) || better(newTradeoff(p, sum), gt) || better(gt, newTradeoff(p, sum)) {
			t.Fatalf("round %d (S=%d T=%d J=%d p=%g): DP %v (pIC %g), brute force %v (pIC %g)", round, S, T, J, p,
				got.Parts, p*got.Gain-(1-p)*got.Loss, want.Parts, p*want.Gain-(1-p)*want.Loss)
		}
	}
}

// directQuality computes a part's qualities from the definitions.
func directQuality(m *Model, i, j int) Quality {
	var q Quality
	size := float64(j - i + 1)
	for s := range m.S {
		for k := range m.J {
			var sum, info float64
			for t := i; t <= j; t++ {
				v := m.At(s, t, k)
				sum += v
				info += ent(v)
			}
			if sum > 0 {
				g := ent(sum) - info
				q.Gain += g
				q.Loss += sum*math.Log2(size) - g
			}
		}
	}
	return q
}

func bruteBest(m *Model, p float64) Partition {
	var best Partition
	var bestT tradeoff
	for mask := 0; mask < 1<<(m.T-1); mask++ {
		var cand Partition
		start := 0
		for i := 0; i < m.T; i++ {
			if i == m.T-1 || mask&(1<<i) != 0 {
				q := directQuality(m, start, i)
				cand.Parts = append(cand.Parts, Part{start, i})
				cand.Gain += q.Gain
				cand.Loss += q.Loss
				start = i + 1
			}
		}
		ct := newTradeoff(p, cand.Quality)
		if mask == 0 || better(ct, bestT) {
			best, bestT = cand, ct
		}
	}
	return best
}

// better compares with a relative tolerance: the brute force sums in
// another order, so exact float ties may differ in the last bit.
func better(a, b tradeoff) bool {
	eq := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Max(math.Abs(x), math.Abs(y))) }
	if !eq(a.pic, b.pic) {
		return a.pic > b.pic
	}
	if !eq(a.gain, b.gain) {
		return a.gain > b.gain
	}
	return !eq(a.loss, b.loss) && a.loss < b.loss
}
