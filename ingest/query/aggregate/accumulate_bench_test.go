package aggregate

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// fixtureRows are rows like the tui benchmark's 50 k-thread trace: 20
// random state changes over T slices, 5 states in turn, amounts in slices.
func fixtureRows(n, T, J int) [][]float64 {
	r := rand.New(rand.NewPCG(1, 2))
	rows := make([][]float64, n)
	for i := range rows {
		cuts := []float64{0, float64(T)}
		for range 19 {
			cuts = append(cuts, r.Float64()*float64(T))
		}
		slices.Sort(cuts)
		row := make([]float64, T*J)
		for c := 0; c+1 < len(cuts); c++ {
			j := 1 + (c+i)%5
			for t := int(cuts[c]); t < T && float64(t) < cuts[c+1]; t++ {
				lo, hi := max(cuts[c], float64(t)), min(cuts[c+1], float64(t+1))
				row[t*J+j] += hi - lo
			}
		}
		rows[i] = row
	}
	return rows
}

// BenchmarkAccumulatorFixtureRow is the temporal qualities' cost per
// resource of the 50 k-thread benchmark trace (|T| = 100), amounts in
// slices (floats: ent computes the logarithm) and in ticks of 1/64 slice
// (integers: ent from a table), as the overview counts them.
func BenchmarkAccumulatorFixtureRow(b *testing.B) {
	b.Run("float", func(b *testing.B) { benchRows(b, fixtureRows(1000, 100, 12), 100, 12) })
	rows := fixtureRows(1000, 100, 12)
	for _, row := range rows {
		for i, v := range row {
			row[i] = math.Round(v * 64)
		}
	}
	b.Run("ticks", func(b *testing.B) { benchRows(b, rows, 100, 12) })
}

func benchRows(b *testing.B, rows [][]float64, T, J int) {
	a, _ := NewTemporalAccumulator(T, J)
	rects := 0
	for _, row := range rows {
		for j := range J {
			m := 0
			for t := range T {
				if row[t*J+j] > 0 {
					m++
				}
			}
			rects += m * (m + 1) / 2
		}
	}
	b.ResetTimer()
	for i := range b.N {
		a.Add(rows[i%len(rows)], 1)
	}
	b.ReportMetric(float64(rects)/float64(len(rows)), "rectangles/row")
}

// BenchmarkSpatiotemporalBest is one Best call of the overview of the
// 50 k-thread benchmark trace: 512 leaves (groups of threads) under the
// root, |T| = 30, 8 types.
func BenchmarkSpatiotemporalBest(b *testing.B) {
	const L, T, J = 512, 30, 8
	rows := fixtureRows(L, T, J)
	m, _ := NewModel(L, T, J)
	h := &Hierarchy{Children: [][]int{nil}, Resource: []int{-1}}
	for l, row := range rows {
		for t := range T {
			for j := range J {
				m.Add(l, t, j, math.Round(100*64*row[t*J+j]))
			}
		}
		h.Children[0] = append(h.Children[0], l+1)
		h.Children = append(h.Children, nil)
		h.Resource = append(h.Resource, l)
	}
	st, err := NewSpatiotemporal(m, h)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := st.Best(ctx, 0.5); err != nil { // qualities
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := range b.N {
		if _, err := st.Best(ctx, float64(i%100)/100); err != nil {
			b.Fatal(err)
		}
	}
}
