package aggregate

import (
	"fmt"
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

	// Scratch, per type: the non-zero slices of the row being added, the
	// prefix sums of its amounts over them (pre[j][0] = 0), and whether
	// they are all integers.
	pos    [][]int
	pre    [][]float64
	ints   []bool
	preInt []int32   // scratch: integer prefix sums (see addIntegerRectangles)
	idx    []int32   // scratch: non-zero cells of a dense row
	entTab []float64 // ent(n) for integers n, grown on demand (see addRectangles)
	memo   map[uint64]*memoRow
}

// memoRow is an expensive resource seen once or more, computed at the end.
type memoRow struct {
	row    []float64
	weight float64
}

// Memoisation: only rows with one type in at least 4/5 of the slices are
// hashed (a thread blocked or idle over the range: the rows that repeat by
// the thousand, and the most expensive ones); busy rows rarely repeat and
// are computed at once. At most memoMaxRows distinct rows are kept, so
// memory stays bounded.
const memoMaxRows = 4096

// NewTemporalAccumulator returns an empty accumulator for models of T
// slices and J types.
func NewTemporalAccumulator(T, J int) (*TemporalAccumulator, error) {
	if T < 1 || J < 1 || T > math.MaxInt16 {
		return nil, fmt.Errorf("aggregate: accumulator of %d slices x %d types: want 1..%d slices and >= 1 type", T, J, math.MaxInt16)
	}
	return &TemporalAccumulator{t: T, j: J, diff: make([]float64, (T+1)*(T+1)), info: make([]float64, T),
		total: make([]float64, T), mode: make([]float64, T*J), memo: map[uint64]*memoRow{},
		pos: make([][]int, J), pre: make([][]float64, J), ints: make([]bool, J)}, nil
}

// Add adds one resource: row holds its T*J amounts (slice-major, >= 0)
// and counts weight times (identical resources added once with their
// number). The accumulator does not keep row.
func (a *TemporalAccumulator) Add(row []float64, weight float64) {
	if len(row) != a.t*a.j {
		panic(fmt.Sprintf("aggregate: row of %d amounts, want %d x %d", len(row), a.t, a.j))
	}
	a.idx = a.idx[:0]
	for i, v := range row {
		if v > 0 {
			a.idx = append(a.idx, int32(i))
		}
	}
	a.AddSparse(row, a.idx, weight)
}

// AddSparse is Add for a row whose non-zero amounts are at the indexes
// nonzero (each once, in any order; other cells may be zero or not be
// read): it costs the non-zero cells and the rectangles, not |T| x |J|.
func (a *TemporalAccumulator) AddSparse(row []float64, nonzero []int32, weight float64) {
	if len(row) != a.t*a.j {
		panic(fmt.Sprintf("aggregate: row of %d amounts, want %d x %d", len(row), a.t, a.j))
	}
	if weight <= 0 {
		return
	}
	a.rows += weight
	a.collect(row, nonzero, weight)
	repeat := false // one type fills 4/5 of the slices: a row worth memoising
	for j := range a.j {
		repeat = repeat || 5*len(a.pos[j]) >= 4*a.t
	}
	if !repeat {
		a.addRectangles(weight)
		return
	}
	h := a.hash(row)
	if m, ok := a.memo[h]; ok && slices.Equal(m.row, row) {
		m.weight += weight
		return
	}
	if _, taken := a.memo[h]; taken || len(a.memo) >= memoMaxRows {
		a.addRectangles(weight)
		return
	}
	a.memo[h] = &memoRow{row: slices.Clone(row), weight: weight}
}

// collect reads a row's non-zero cells: the per-slice sums (times
// weight; none with weight 0, for a memoised row whose sums are in) and,
// per type, the scratch positions (ascending) and prefix sums.
func (a *TemporalAccumulator) collect(row []float64, nonzero []int32, weight float64) {
	J := a.j
	for j := range J {
		a.pos[j] = a.pos[j][:0]
	}
	for _, i := range nonzero {
		v := row[i]
		if v <= 0 {
			continue
		}
		t, j := int(i)/J, int(i)%J
		a.pos[j] = append(a.pos[j], t)
		if weight > 0 {
			a.total[t] += weight * v
			a.info[t] += weight * a.ent(v)
			a.mode[i] += weight * v
		}
	}
	for j := range J {
		pos := a.pos[j]
		if !slices.IsSorted(pos) {
			slices.Sort(pos)
		}
		pre, ints := append(a.pre[j][:0], 0), true
		for _, t := range pos {
			v := row[t*J+j]
			pre = append(pre, pre[len(pre)-1]+v)
			ints = ints && v == math.Trunc(v)
		}
		a.pre[j], a.ints[j] = pre, ints
	}
}

// ent is ent(v), from the table for small integers.
func (a *TemporalAccumulator) ent(v float64) float64 {
	if n := int(v); float64(n) == v && n < len(a.entTab) {
		return a.entTab[n]
	}
	return ent(v)
}

// hash mixes the non-zero amounts of a row and their positions.
func (a *TemporalAccumulator) hash(row []float64) uint64 {
	h := uint64(0x243f6a8885a308d3) // equal hashes are checked: no seed needed
	for i, v := range row {
		if v != 0 {
			h ^= math.Float64bits(v) + uint64(i)*0x9e3779b97f4a7c15
			h *= 0xff51afd7ed558ccd
			h ^= h >> 32
		}
	}
	return h
}

// addRectangles adds weight * ent(sum over [i, k]) of every type of the
// collected row to the difference array.
//
// This loop is the temporal overview's cost: one iteration per
// rectangle. When a type's amounts are small integers (a model counted in
// ticks) ent comes from a table of n*log2(n), the value ent computes;
// otherwise the logarithm is computed inline.
func (a *TemporalAccumulator) addRectangles(weight float64) {
	W := a.t + 1
	for j := range a.j {
		pos, pre := a.pos[j], a.pre[j][1:]
		if len(pos) == 0 {
			continue
		}
		if total := pre[len(pre)-1]; a.ints[j] && total < maxEntTab {
			a.addIntegerRectangles(pos, a.pre[j], int(total), weight)
			continue
		}
		for x := range pos {
			// i in [r0, r1] starts at or after the previous non-zero slice
			// and at or before pos[x]; k from pos[y] to the next one.
			r0 := 0
			if x > 0 {
				r0 = pos[x-1] + 1
			}
			top, bottom := a.diff[r0*W:r0*W+W], a.diff[(pos[x]+1)*W:(pos[x]+1)*W+W]
			base, prev := a.pre[j][x], 0.0
			ys, sums := pos[x:], pre[x:len(pos)]
			for y, c := range ys {
				// ent(v) with log2 inlined: this loop is the temporal
				// overview's cost (one iteration per rectangle).
				v := sums[y] - base
				bits := math.Float64bits(v)
				var l float64
				if e := int(bits>>52) & 0x7ff; e != 0 && e != 0x7ff && bits>>63 == 0 {
					k := (bits >> 44) & 0xff
					r := math.Float64frombits(bits&(1<<52-1)|0x3ff<<52)*log2Inv[k] - 1
					l = float64(e-1023) + log2Tab[k] + math.Log2E*r*(1-r*(1.0/2-r*(1.0/3-r*(1.0/4-r*(1.0/5-r*(1.0/6))))))
				} else {
					l = log2(v)
				}
				g := weight * v * l
				if v <= 0 {
					g = 0
				}
				top[c] += g - prev
				bottom[c] -= g - prev
				prev = g
			}
		}
	}
}

// maxEntTab bounds the integer table of ent: 1<<16 entries (512 KiB), a
// model of 100 slices in ticks of 1/64 slice sums to at most 6400 per
// (resource, type).
const maxEntTab = 1 << 16

// addIntegerRectangles is addRectangles's loop for integer amounts
// (prefix sums pre, exact in float64), with ent from the table.
func (a *TemporalAccumulator) addIntegerRectangles(pos []int, pre []float64, total int, weight float64) {
	for n := len(a.entTab); n <= total; n++ {
		a.entTab = append(a.entTab, ent(float64(n)))
	}
	a.preInt = a.preInt[:0]
	for _, v := range pre {
		a.preInt = append(a.preInt, int32(v))
	}
	W := a.t + 1
	tab := a.entTab[:total+1]
	for x := range pos {
		r0 := 0
		if x > 0 {
			r0 = pos[x-1] + 1
		}
		top, bottom := a.diff[r0*W:r0*W+W], a.diff[(pos[x]+1)*W:(pos[x]+1)*W+W]
		base, prev := a.preInt[x], 0.0
		ys := pos[x:]
		sums := a.preInt[x+1 : x+1+len(ys)]
		for y, c := range ys {
			g := tab[sums[y]-base]
			if weight != 1 {
				g *= weight
			}
			top[c] += g - prev
			bottom[c] -= g - prev
			prev = g
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
		// The sums were added with Add; only the rectangles remain.
		a.idx = a.idx[:0]
		for i, v := range m.row {
			if v > 0 {
				a.idx = append(a.idx, int32(i))
			}
		}
		a.collect(m.row, a.idx, 0)
		a.addRectangles(m.weight)
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
