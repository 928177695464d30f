package aggregate

import (
	"fmt"
	"hash/maphash"
	"math"
	"slices"
)

// TemporalAccumulator computes the qualities [NewTemporal] computes,
// resource by resource, without holding the model: a 50 k-resource model
// of 100 slices is streamed through it in chunks, and two accumulators fed
// by two goroutines are merged at the end.
//
// The qualities of an interval [i, k] are
//
//	gain(i, k) = E(i, k) - I(i, k),  loss(i, k) = Tot(i, k)*log2(k-i+1) - gain(i, k)
//
// where I (sum of mu*log2 mu over the cells) and Tot (sum of mu) are prefix
// sums over per-slice totals, and only E(i, k), the sum over (s, j) of
// ent(sum of mu(s, [i, k], j)), depends on the resources. For one (s, j)
// whose non-zero slices are p_1 < ... < p_m, the sum over [i, k] only
// depends on which p fall inside, so it is constant on m(m+1)/2 rectangles
// of the (i, k) triangle: each is added to a 2D difference array with two
// updates. A resource present in few slices costs little; a busy one
// costs at most |T|(|T|+1)/2 per type, like the dense loop.
//
// Identical expensive resources (a thread blocked over the whole range, a
// thousand times) are detected by hashing and computed once, weighted.
type TemporalAccumulator struct {
	t, j  int
	diff  []float64 // (T+1)*(T+1): 2D difference array of E
	info  []float64 // per slice: sum of ent(mu)
	total []float64 // per slice: sum of mu
	mode  []float64 // per slice and type: sum of mu (T*J)
	rows  float64   // resources added (weights)

	pos  []int     // scratch: non-zero slices of one type
	pre  []float64 // scratch: prefix sums over them
	seed maphash.Seed
	memo map[uint64]*memoRow
}

// memoRow is an expensive resource seen once or more, computed at the end.
type memoRow struct {
	row    []float64
	weight float64
}

// Memoisation limits: rows cheaper than memoMinCost rectangles are
// computed at once (hashing would cost more than it saves); at most
// memoMaxRows distinct rows are kept, so memory stays bounded.
const (
	memoMinCost = 1024
	memoMaxRows = 4096
)

// NewTemporalAccumulator returns an empty accumulator for models of T
// slices and J types.
func NewTemporalAccumulator(T, J int) (*TemporalAccumulator, error) {
	if T < 1 || J < 1 || T > math.MaxInt16 {
		return nil, fmt.Errorf("aggregate: accumulator of %d slices x %d types: want 1..%d slices and >= 1 type", T, J, math.MaxInt16)
	}
	return &TemporalAccumulator{t: T, j: J, diff: make([]float64, (T+1)*(T+1)), info: make([]float64, T),
		total: make([]float64, T), mode: make([]float64, T*J), seed: maphash.MakeSeed(), memo: map[uint64]*memoRow{}}, nil
}

// Add adds one resource: row holds its T*J amounts (slice-major, >= 0)
// and counts weight times (identical resources added once with their
// number). The accumulator does not keep row.
func (a *TemporalAccumulator) Add(row []float64, weight float64) {
	if len(row) != a.t*a.j {
		panic(fmt.Sprintf("aggregate: row of %d amounts, want %d x %d", len(row), a.t, a.j))
	}
	if weight <= 0 {
		return
	}
	a.rows += weight
	for t := range a.t {
		for j := range a.j {
			if v := row[t*a.j+j]; v > 0 {
				a.total[t] += weight * v
				a.info[t] += weight * ent(v)
				a.mode[t*a.j+j] += weight * v
			}
		}
	}
	if a.cost(row) < memoMinCost {
		a.addRectangles(row, weight)
		return
	}
	h := a.hash(row)
	if m, ok := a.memo[h]; ok && slices.Equal(m.row, row) {
		m.weight += weight
		return
	}
	if _, taken := a.memo[h]; taken || len(a.memo) >= memoMaxRows {
		a.addRectangles(row, weight)
		return
	}
	a.memo[h] = &memoRow{row: slices.Clone(row), weight: weight}
}

// cost is the number of rectangles a row adds.
func (a *TemporalAccumulator) cost(row []float64) int {
	c := 0
	for j := range a.j {
		m := 0
		for t := range a.t {
			if row[t*a.j+j] > 0 {
				m++
			}
		}
		c += m * (m + 1) / 2
	}
	return c
}

func (a *TemporalAccumulator) hash(row []float64) uint64 {
	var h maphash.Hash
	h.SetSeed(a.seed)
	var b [8]byte
	for _, v := range row {
		u := math.Float64bits(v)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		h.Write(b[:])
	}
	return h.Sum64()
}

// addRectangles adds weight * ent(sum over [i, k]) of every type of row
// to the difference array.
func (a *TemporalAccumulator) addRectangles(row []float64, weight float64) {
	T, J, W := a.t, a.j, a.t+1
	for j := range J {
		a.pos, a.pre = a.pos[:0], append(a.pre[:0], 0)
		for t := range T {
			if v := row[t*J+j]; v > 0 {
				a.pos = append(a.pos, t)
				a.pre = append(a.pre, a.pre[len(a.pre)-1]+v)
			}
		}
		pos, pre := a.pos, a.pre
		for x := range pos {
			// i in [r0, r1] starts at or after the previous non-zero slice
			// and at or before pos[x]; k from pos[y] to the next one.
			r0 := 0
			if x > 0 {
				r0 = pos[x-1] + 1
			}
			top, bottom := a.diff[r0*W:r0*W+W], a.diff[(pos[x]+1)*W:(pos[x]+1)*W+W]
			prev := 0.0
			for y := x; y < len(pos); y++ {
				g := weight * ent(pre[y+1]-pre[x])
				d := g - prev
				prev = g
				top[pos[y]] += d
				bottom[pos[y]] -= d
			}
		}
	}
}

// Merge adds b's resources to a (same sizes). b must not be used after.
func (a *TemporalAccumulator) Merge(b *TemporalAccumulator) error {
	if a.t != b.t || a.j != b.j {
		return fmt.Errorf("aggregate: merging a %dx%d accumulator into a %dx%d one", b.t, b.j, a.t, a.j)
	}
	b.flush()
	for i, v := range b.diff {
		a.diff[i] += v
	}
	for t := range a.t {
		a.info[t] += b.info[t]
		a.total[t] += b.total[t]
	}
	for i, v := range b.mode {
		a.mode[i] += v
	}
	a.rows += b.rows
	return nil
}

// flush computes the memoised rows.
func (a *TemporalAccumulator) flush() {
	for h, m := range a.memo {
		a.addRectangles(m.row, m.weight)
		delete(a.memo, h)
	}
}

// Resources returns the number of resources added (sum of weights).
func (a *TemporalAccumulator) Resources() float64 { return a.rows }

// Temporal returns the qualities of every interval, as [NewTemporal]
// computes them from the same resources (up to rounding).
func (a *TemporalAccumulator) Temporal() *Temporal {
	a.flush()
	T, J, W := a.t, a.j, a.t+1
	tq := &Temporal{t: T, q: make([]Quality, T*T), sums: slices.Clone(a.total), mode: make([][]float64, T)}
	for t := range T {
		tq.mode[t] = slices.Clone(a.mode[t*J : (t+1)*J])
	}
	// E(i, k) is the 2D prefix sum of the difference array.
	e := slices.Clone(a.diff)
	for i := range T {
		for k := range T {
			v := e[i*W+k]
			if i > 0 {
				v += e[(i-1)*W+k]
			}
			e[i*W+k] = v
		}
	}
	for i := range T {
		for k := 1; k < T; k++ {
			e[i*W+k] += e[i*W+k-1]
		}
	}
	for i := range T {
		var info, total float64
		for k := i; k < T; k++ {
			info += a.info[k]
			total += a.total[k]
			tq.q[i*T+k] = qualityOf(e[i*W+k], info, total, float64(k-i+1))
		}
	}
	return tq
}

// TemporalWork estimates the elementary steps of computing the temporal
// qualities of S resources over T slices with J types when each
// resource meets about n state changes in the range: the rectangles of the
// accumulator (each type present in m slices costs m(m+1)/2) plus reading
// the model. With n unknown pass n < 0: every slice is assumed to change.
func TemporalWork(S, T, J int, n float64) float64 {
	if n < 0 {
		n = float64(T)
	}
	types := math.Min(float64(J), n+1)              // distinct types met
	m := math.Min(float64(T), (float64(T)+n)/types) // non-zero slices per type
	return float64(S) * (types*m*(m+1)/2 + float64(T*J) + n)
}
