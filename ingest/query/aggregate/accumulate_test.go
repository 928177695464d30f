package aggregate

import (
	"context"
	"math"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
)

// TestAccumulatorMatchesDense streams random models (sparse rows, repeated
// rows that take the memo, rows split over two merged accumulators)
// through the accumulator and compares every quality with NewTemporal's.
func TestAccumulatorMatchesDense(t *testing.T) {
	r := coretest.Rand(t)
	ctx := context.Background()
	for round := range 60 {
		S, T, J := 1+r.IntN(12), 1+r.IntN(8), 1+r.IntN(4)
		if round%4 == 0 {
			T = 46 + r.IntN(20) // busy rows cost >= memoMinCost: memoised
		}
		m, _ := NewModel(S, T, J)
		for s := range S {
			src := s
			if s > 0 && r.IntN(3) == 0 { // a copy of an earlier row
				src = r.IntN(s)
				for i := range T {
					for j := range J {
						m.Add(s, i, j, m.At(src, i, j))
					}
				}
				continue
			}
			for i := range T {
				for j := range J {
					if r.IntN(3) == 0 || (round%4 == 0 && j == 0) {
						v := float64(1 + r.IntN(40))
						if round%3 != 0 { // else integers: ent from the table
							v /= float64(1 + r.IntN(3))
						}
						m.Add(s, i, j, v)
					}
				}
			}
		}
		want, err := NewTemporal(ctx, m)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := NewTemporalAccumulator(T, J)
		b, _ := NewTemporalAccumulator(T, J)
		for s := range S {
			acc := a
			if r.IntN(2) == 0 {
				acc = b
			}
			if r.IntN(2) == 0 {
				acc.Add(m.row(s), 1)
				continue
			}
			// The sparse form: the non-zero cells in any order.
			var idx []int32
			for i, v := range m.row(s) {
				if v > 0 {
					idx = append(idx, int32(i))
				}
			}
			r.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
			acc.AddSparse(m.row(s), idx, 1)
		}
		if err := a.Merge(b); err != nil {
			t.Fatal(err)
		}
		if a.Resources() != float64(S) {
			t.Errorf("round %d: %g resources, want %d", round, a.Resources(), S)
		}
		got := a.Temporal()
		for i := range T {
			for k := i; k < T; k++ {
				g, w := got.Quality(i, k), want.Quality(i, k)
				if !near(g.Gain, w.Gain) || !near(g.Loss, w.Loss) {
					t.Fatalf("round %d (S=%d T=%d J=%d): quality [%d, %d] = %+v, dense %+v", round, S, T, J, i, k, g, w)
				}
			}
			for j := range J {
				if got.mode[i][j] != want.mode[i][j] && !near(got.mode[i][j], want.mode[i][j]) {
					t.Fatalf("round %d: amount of type %d in slice %d = %g, want %g", round, j, i, got.mode[i][j], want.mode[i][j])
				}
			}
		}
		p := r.Float64()
		if gp, wp := got.Best(p), want.Best(p); better(newTradeoff(p, gp.Quality), newTradeoff(p, wp.Quality)) ||
			better(newTradeoff(p, wp.Quality), newTradeoff(p, gp.Quality)) {
			t.Fatalf("round %d: best at p=%g differs: %v vs %v", round, p, gp.Parts, wp.Parts)
		}
	}
}

// TestAccumulatorWeights: a row added with weight w counts as w copies.
func TestAccumulatorWeights(t *testing.T) {
	row := []float64{1, 0, 2, 1, 0, 3, 0.5, 0.5}
	a, _ := NewTemporalAccumulator(4, 2)
	a.Add(row, 3)
	b, _ := NewTemporalAccumulator(4, 2)
	for range 3 {
		b.Add(row, 1)
	}
	qa, qb := a.Temporal(), b.Temporal()
	for i := range 4 {
		for k := i; k < 4; k++ {
			if x, y := qa.Quality(i, k), qb.Quality(i, k); !near(x.Gain, y.Gain) || !near(x.Loss, y.Loss) {
				t.Errorf("[%d, %d]: weighted %+v, repeated %+v", i, k, x, y)
			}
		}
	}
	if _, err := NewTemporalAccumulator(0, 1); err == nil {
		t.Error("an accumulator of 0 slices was accepted")
	}
	c, _ := NewTemporalAccumulator(3, 2)
	if err := a.Merge(c); err == nil {
		t.Error("merging accumulators of different sizes was accepted")
	}
}

func near(x, y float64) bool {
	return math.Abs(x-y) <= 1e-9*math.Max(1, math.Max(math.Abs(x), math.Abs(y)))
}
