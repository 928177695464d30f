package aggregate

import (
	"context"
	"math"
)

// Temporal holds the qualities of every interval of slices [i, j] of a
// model, from which the best partition for any p is a cheap dynamic
// program.
type Temporal struct {
	t    int
	q    []Quality // q[i*t+j] for i <= j
	sums []float64 // total amount per slice, for the parts' amplitudes
	mode [][]float64
}

// NewTemporal computes the qualities of all intervals: O(|T|^2 |S| |J|)
// time, O(|T|^2) memory. It checks ctx between resources.
func NewTemporal(ctx context.Context, m *Model) (*Temporal, error) {
	T, J := m.T, m.J
	tq := &Temporal{t: T, q: make([]Quality, T*T), sums: make([]float64, T), mode: make([][]float64, T)}
	for t := range T {
		tq.mode[t] = make([]float64, J)
	}
	sum := make([]float64, J)  // running sum over [i, j] per type
	info := make([]float64, J) // running sum of ent over [i, j] per type
	for s := range m.S {
		if s%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		row := m.row(s)
		for t := range T {
			for j := range J {
				v := row[t*J+j]
				tq.sums[t] += v
				tq.mode[t][j] += v
			}
		}
		for i := range T {
			clear(sum)
			clear(info)
			for jj := i; jj < T; jj++ {
				size := math.Log2(float64(jj - i + 1))
				var g, l float64
				for j := range J {
					v := row[jj*J+j]
					sum[j] += v
					info[j] += ent(v)
					if sum[j] > 0 {
						gain := ent(sum[j]) - info[j]
						g += gain
						l += sum[j]*size - gain
					}
				}
				q := &tq.q[i*T+jj]
				q.Gain += g
				q.Loss += l
			}
		}
	}
	return tq, nil
}

// Slices returns |T|.
func (tq *Temporal) Slices() int { return tq.t }

// Quality returns the qualities of the part [i, j].
func (tq *Temporal) Quality(i, j int) Quality { return tq.q[i*tq.t+j] }

// Part is a contiguous interval of slices [Start, End] (inclusive).
type Part struct {
	Start, End int
}

// Partition is the best partition for a value of p.
type Partition struct {
	P     float64
	Parts []Part
	Quality
}

// Best returns the optimal partition for p (0 keeps every slice apart, 1
// merges all): the best cut of every suffix [i, |T|-1], from the last.
func (tq *Temporal) Best(p float64) Partition {
	T := tq.t
	best := make([]tradeoff, T+1) // best[i]: optimal partition of [i, T-1]
	cut := make([]int, T)         // cut[i]: end of the first part of best[i]
	for i := T - 1; i >= 0; i-- {
		best[i], cut[i] = newTradeoff(p, tq.Quality(i, T-1)), T-1
		for x := i; x < T-1; x++ {
			cand := newTradeoff(p, tq.Quality(i, x)).add(best[x+1])
			if cand.better(best[i]) {
				best[i], cut[i] = cand, x
			}
		}
	}
	part := Partition{P: p, Quality: Quality{Gain: best[0].gain, Loss: best[0].loss}}
	for i := 0; i < T; i = cut[i] + 1 {
		part.Parts = append(part.Parts, Part{Start: i, End: cut[i]})
	}
	return part
}

// DefaultThreshold is the dichotomy's resolution on p (the thesis uses
// 1e-3 to 1e-4; its figures come from 1e-4).
const DefaultThreshold = 1e-4

// Significant returns one partition per distinct optimal partition, in
// increasing p, found by dichotomy on [0, 1]: an interval of p is split
// while its ends give different partitions and it is wider than
// threshold. Each partition carries the smallest p at which it was met.
func (tq *Temporal) Significant(ctx context.Context, threshold float64) ([]Partition, error) {
	return significant(ctx, threshold, tq.Best)
}

// significant runs the dichotomy over any best-partition function (the
// temporal and spatiotemporal algorithms share it).
func significant[P interface{ samePartition(P) bool }](ctx context.Context, threshold float64, best func(float64) P) ([]P, error) {
	if threshold <= 0 {
		threshold = DefaultThreshold
	}
	type found struct {
		p    float64
		part P
	}
	var all []found
	var rec func(p1, p2 float64, a, b P) error
	rec = func(p1, p2 float64, a, b P) error {
		if a.samePartition(b) || p2-p1 <= threshold {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		pm := (p1 + p2) / 2
		m := best(pm)
		all = append(all, found{pm, m})
		if !m.samePartition(a) {
			if err := rec(p1, pm, a, m); err != nil {
				return err
			}
		}
		if !m.samePartition(b) {
			return rec(pm, p2, m, b)
		}
		return nil
	}
	lo, hi := best(0), best(1)
	all = append(all, found{0, lo}, found{1, hi})
	if err := rec(0, 1, lo, hi); err != nil {
		return nil, err
	}
	// Keep the smallest p of each distinct partition, in increasing p.
	var out []P
	var ps []float64
	for _, f := range all {
		dup := false
		for i, o := range out {
			if o.samePartition(f.part) {
				dup = true
				if f.p < ps[i] {
					ps[i], out[i] = f.p, f.part
				}
			}
		}
		if !dup {
			out = append(out, f.part)
			ps = append(ps, f.p)
		}
	}
	sortByP(out, ps)
	return out, nil
}

func sortByP[P any](out []P, ps []float64) {
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && ps[j] < ps[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}

func (a Partition) samePartition(b Partition) bool {
	if len(a.Parts) != len(b.Parts) {
		return false
	}
	for i := range a.Parts {
		if a.Parts[i] != b.Parts[i] {
			return false
		}
	}
	return true
}
