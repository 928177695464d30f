package aggregate

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
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
	sum := make([]float64, J) // running sum over [i, j] per type
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
			var info, total float64
			for jj := i; jj < T; jj++ {
				var e float64
				for j := range J {
					v := row[jj*J+j]
					sum[j] += v
					info += ent(v)
					total += v
					e += ent(sum[j])
				}
				part := qualityOf(e, info, total, float64(jj-i+1))
				q := &tq.q[i*T+jj]
				q.Gain += part.Gain
				q.Loss += part.Loss
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
	parts, _, err := tq.SignificantWith(ctx, SignificantOptions{Threshold: threshold})
	return parts, err
}

// SignificantWith is Significant with options (see [SignificantOptions]).
func (tq *Temporal) SignificantWith(ctx context.Context, o SignificantOptions) ([]Partition, bool, error) {
	return significant(ctx, o, func(p float64) (Partition, error) { return tq.Best(p), nil })
}

// SignificantOptions tune the dichotomy on p.
type SignificantOptions struct {
	// Threshold is the resolution on p (<= 0: DefaultThreshold).
	Threshold float64
	// MaxCalls bounds the best-partition evaluations besides p = 0 and
	// p = 1 (<= 0: no bound). When the bound cuts the dichotomy short, the
	// widest intervals of p have been split first.
	MaxCalls int
	// Workers is how many evaluations run at once (<= 1: one at a time).
	Workers int
}

// significant runs the dichotomy over any best-partition function (the
// temporal and spatiotemporal algorithms share it), breadth first: the
// intervals of p of one depth are split together, their midpoints
// evaluated by up to o.Workers goroutines. Without a budget it evaluates
// the same p as the depth-first recursion of the thesis, so it finds the
// same partitions at the same p. It returns the partitions in increasing
// p and whether the budget stopped it.
func significant[P interface{ samePartition(P) bool }](ctx context.Context, o SignificantOptions, best func(float64) (P, error)) ([]P, bool, error) {
	threshold := o.Threshold
	if threshold <= 0 {
		threshold = DefaultThreshold
	}
	type found struct {
		p    float64
		part P
	}
	type span struct {
		p1, p2 float64
		a, b   P
	}
	lo, err := best(0)
	if err != nil {
		return nil, false, err
	}
	hi, err := best(1)
	if err != nil {
		return nil, false, err
	}
	all := []found{{0, lo}, {1, hi}}
	level := []span{{0, 1, lo, hi}}
	calls, truncated := 0, false
	for len(level) > 0 && !truncated {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		var todo []span
		for _, s := range level {
			if !s.a.samePartition(s.b) && s.p2-s.p1 > threshold {
				todo = append(todo, s)
			}
		}
		if o.MaxCalls > 0 && calls+len(todo) > o.MaxCalls {
			todo, truncated = todo[:o.MaxCalls-calls], true
		}
		mids := make([]P, len(todo))
		if err := parallel(len(todo), o.Workers, func(i int) error {
			var err error
			mids[i], err = best((todo[i].p1 + todo[i].p2) / 2)
			return err
		}); err != nil {
			return nil, false, err
		}
		calls += len(todo)
		level = level[:0:0]
		for i, s := range todo {
			pm, m := (s.p1+s.p2)/2, mids[i]
			all = append(all, found{pm, m})
			if !m.samePartition(s.a) {
				level = append(level, span{s.p1, pm, s.a, m})
			}
			if !m.samePartition(s.b) {
				level = append(level, span{pm, s.p2, m, s.b})
			}
		}
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
	return out, truncated, nil
}

// parallel runs fn(0..n-1) on up to workers goroutines and returns the
// first error.
func parallel(n, workers int, fn func(i int) error) error {
	if workers <= 1 || n <= 1 {
		for i := range n {
			if err := fn(i); err != nil {
				return err
			}
		}
		return nil
	}
	var wg sync.WaitGroup
	var next atomic.Int64
	errs := make([]error, min(workers, n))
	for w := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				if err := fn(i); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
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

// Types returns |J|.
func (tq *Temporal) Types() int {
	if len(tq.mode) == 0 {
		return 0
	}
	return len(tq.mode[0])
}

// Amounts adds to dst (len |J|) the amount of each type over the slices
// [i, k], all resources together, and returns it: what a part's colour
// (its dominant type) and intensity are drawn from.
func (tq *Temporal) Amounts(i, k int, dst []float64) []float64 {
	for t := i; t <= k; t++ {
		for j, v := range tq.mode[t] {
			dst[j] += v
		}
	}
	return dst
}
