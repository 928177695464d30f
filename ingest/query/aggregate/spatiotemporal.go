package aggregate

import (
	"context"
	"fmt"
	"math"
	"sync"
)

// Hierarchy is a tree over the model's resources (for the Control Flow
// view: processes > threads; for Resources: CPUs). Node 0 is the root;
// leaves are resources of the model.
type Hierarchy struct {
	Children [][]int // children of each node
	Resource []int   // model resource of each leaf, -1 for inner nodes
}

// Check verifies that the hierarchy is a tree rooted at 0 whose leaves are
// exactly the model's resources, each once.
func (h *Hierarchy) Check(resources int) error {
	n := len(h.Children)
	if n == 0 || len(h.Resource) != n {
		return fmt.Errorf("aggregate: hierarchy with %d nodes and %d resource entries", n, len(h.Resource))
	}
	seenNode := make([]bool, n)
	seenRes := make([]bool, resources)
	stack := []int{0}
	seenNode[0] = true
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if len(h.Children[v]) == 0 {
			r := h.Resource[v]
			if r < 0 || r >= resources || seenRes[r] {
				return fmt.Errorf("aggregate: leaf %d has resource %d (bad or repeated)", v, r)
			}
			seenRes[r] = true
			continue
		}
		for _, c := range h.Children[v] {
			if c <= 0 || c >= n || seenNode[c] {
				return fmt.Errorf("aggregate: node %d has child %d (bad or shared)", v, c)
			}
			seenNode[c] = true
			stack = append(stack, c)
		}
	}
	for r, ok := range seenRes {
		if !ok {
			return fmt.Errorf("aggregate: resource %d is not a leaf of the hierarchy", r)
		}
	}
	return nil
}

// Area is a part of a spatiotemporal partition: a hierarchy node (all the
// resources under it) over the slices [Start, End].
type Area struct {
	Node       int
	Start, End int
}

// STPartition is the best spatiotemporal partition for a value of p.
type STPartition struct {
	P     float64
	Areas []Area
	Quality
}

func (a STPartition) samePartition(b STPartition) bool {
	if len(a.Areas) != len(b.Areas) {
		return false
	}
	for i := range a.Areas {
		if a.Areas[i] != b.Areas[i] {
			return false
		}
	}
	return true
}

// Cut codes stored per (node, i, j).
const (
	cutWhole   = -1 // the node over [i, j] is one part
	cutSpatial = -2 // split into the node's children over [i, j]
	// >= 0: split in time after slice x
)

// Spatiotemporal computes best partitions of a model over a hierarchy.
// The qualities of every (node, interval) do not depend on p: they are
// computed once, on the first call, and every Best reuses them, so a
// dichotomy over p costs only the cuts. A Spatiotemporal is safe for
// concurrent calls of Best (the dichotomy evaluates several p at once).
type Spatiotemporal struct {
	m *Model
	h *Hierarchy

	once   sync.Once
	post   []int       // nodes, children before parents
	parent []int       // parent of each node, -1 for the root
	leaves []int       // resources under each node
	rows   [][]float64 // amounts of each node (T*J), sums of its leaves
	q      [][]Quality // qualities of each node over [i, k], at i*T+k
	err    error
	pool   sync.Pool // *bests, Best's scratch
}

// NewSpatiotemporal checks the hierarchy against the model.
func NewSpatiotemporal(m *Model, h *Hierarchy) (*Spatiotemporal, error) {
	if err := h.Check(m.S); err != nil {
		return nil, err
	}
	if m.T > math.MaxInt16 {
		return nil, fmt.Errorf("aggregate: %d slices, at most %d", m.T, math.MaxInt16)
	}
	return &Spatiotemporal{m: m, h: h}, nil
}

// SpatiotemporalWork estimates the cost of one Best call, in elementary
// steps, for a hierarchy of H nodes and a model of T slices and J types:
// |H| * |T|^3 / 6 for the cuts plus |H| * |T|^2 * |J| for the qualities
// (computed once, on the first call).
func SpatiotemporalWork(H, T, J int) float64 {
	h, t, j := float64(H), float64(T), float64(J)
	return h * (t*t*t/6 + t*t*j)
}

// prepare computes, once, every node's amounts and qualities. A
// preparation cancelled by ctx leaves the Spatiotemporal failing with
// ctx's error: make a new one to try again.
func (st *Spatiotemporal) prepare(ctx context.Context) error {
	st.once.Do(func() { st.err = st.computeQualities(ctx) })
	return st.err
}

func (st *Spatiotemporal) computeQualities(ctx context.Context) error {
	n, T, J := len(st.h.Children), st.m.T, st.m.J
	st.parent = make([]int, n)
	st.leaves = make([]int, n)
	st.rows = make([][]float64, n)
	st.q = make([][]Quality, n)
	st.post = st.post[:0]
	st.parent[0] = -1
	// Iterative post-order (hierarchies of 50 k nodes are not deep, but
	// a chain would be).
	type frame struct{ v, next int }
	stack := []frame{{0, 0}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next < len(st.h.Children[f.v]) {
			c := st.h.Children[f.v][f.next]
			f.next++
			st.parent[c] = f.v
			stack = append(stack, frame{c, 0})
			continue
		}
		st.post = append(st.post, f.v)
		stack = stack[:len(stack)-1]
	}
	info := make([][]float64, n) // per node and slice: sum of ent over its leaves' cells
	sum := make([]float64, J)
	for count, v := range st.post {
		if count%64 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		row, inf := make([]float64, T*J), make([]float64, T)
		if len(st.h.Children[v]) == 0 {
			copy(row, st.m.row(st.h.Resource[v]))
			for t := range T {
				for j := range J {
					inf[t] += ent(row[t*J+j])
				}
			}
			st.leaves[v] = 1
		} else {
			for _, c := range st.h.Children[v] {
				for k, x := range st.rows[c] {
					row[k] += x
				}
				for t, x := range info[c] {
					inf[t] += x
				}
				st.leaves[v] += st.leaves[c]
				info[c] = nil
			}
		}
		st.rows[v], info[v] = row, inf
		q := make([]Quality, T*T)
		for i := range T {
			clear(sum)
			var in, total float64
			for k := i; k < T; k++ {
				in += inf[k]
				var e float64
				for j := range J {
					sum[j] += row[k*J+j]
					total += row[k*J+j]
					e += ent(sum[j])
				}
				q[i*T+k] = qualityOf(e, in, total, float64(st.leaves[v]*(k-i+1)))
			}
		}
		st.q[v] = q
	}
	return nil
}

// Leaves returns the number of resources under node v.
func (st *Spatiotemporal) Leaves(ctx context.Context, v int) (int, error) {
	if err := st.prepare(ctx); err != nil {
		return 0, err
	}
	return st.leaves[v], nil
}

// Amounts adds to dst (len J) the amounts of each type of node v over the
// slices [i, k] and returns it.
func (st *Spatiotemporal) Amounts(ctx context.Context, v, i, k int, dst []float64) ([]float64, error) {
	if err := st.prepare(ctx); err != nil {
		return nil, err
	}
	J := st.m.J
	row := st.rows[v]
	for t := i; t <= k; t++ {
		for j := range J {
			dst[j] += row[t*J+j]
		}
	}
	return dst, nil
}

// bests are the best trade-offs of one node over every interval [i, k]
// (at i*T+k), in columns: the cut loop reads pic along a row and down a
// column, so pic is also kept transposed (colPic[k*T+i]).
type bests struct {
	pic, gain, loss, colPic []float64
}

func (st *Spatiotemporal) scratch() *bests {
	if s, ok := st.pool.Get().(*bests); ok {
		return s
	}
	n := st.m.T * st.m.T
	return &bests{make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)}
}

func (st *Spatiotemporal) release(s *bests) { st.pool.Put(s) }

// Best returns the optimal partition for p: for every node, bottom-up,
// and every interval, the best of keeping the area whole, splitting it
// into the node's children, or cutting it in time. O(|H| |T|^3) time
// (the qualities, O(|H| |T|^2 |J|), are computed on the first call only);
// memory O(|H| |T|^2) bytes for the cut codes plus T^2 trade-offs per node
// on the current root-to-leaf path.
func (st *Spatiotemporal) Best(ctx context.Context, p float64) (STPartition, error) {
	if err := st.prepare(ctx); err != nil {
		return STPartition{}, err
	}
	T := st.m.T
	tri := T * T
	cuts := make([]int16, len(st.h.Children)*tri)
	childBest := make([]*bests, len(st.h.Children)) // sum of the children's best, until the node is done
	var root *bests
	for count, v := range st.post {
		if count%64 == 0 {
			if err := ctx.Err(); err != nil {
				for _, s := range childBest {
					if s != nil {
						st.release(s)
					}
				}
				return STPartition{}, err
			}
		}
		best, cut, q, cb := st.scratch(), cuts[v*tri:(v+1)*tri], st.q[v], childBest[v]
		for i := T - 1; i >= 0; i-- {
			for k := i; k < T; k++ {
				x := i*T + k
				b, c, tol := newTradeoff(p, q[x]), int16(cutWhole), tolerance(q[x])
				if cb != nil {
					if s := (tradeoff{cb.pic[x], cb.gain[x], cb.loss[x]}); s.betterWithin(b, tol) {
						b, c = s, cutSpatial
					}
				}
				// Cut after y: best[i, y] + best[y+1, k]. Most cuts lose
				// by far: compare their pic first, on two contiguous rows.
				left, right := best.pic[i*T+i:i*T+k], best.colPic[k*T+i+1:k*T+k+1]
				for d, l := range left {
					if l+right[d] < b.pic-tol {
						continue
					}
					y := i + d
					cand := tradeoff{l + right[d], best.gain[i*T+y] + best.gain[(y+1)*T+k], best.loss[i*T+y] + best.loss[(y+1)*T+k]}
					if cand.betterWithin(b, tol) {
						b, c = cand, int16(y)
					}
				}
				best.pic[x], best.gain[x], best.loss[x], best.colPic[k*T+i] = b.pic, b.gain, b.loss, b.pic
				cut[x] = c
			}
		}
		if cb != nil {
			st.release(cb)
			childBest[v] = nil
		}
		par := st.parent[v]
		if par < 0 {
			root = best
			continue
		}
		if childBest[par] == nil {
			childBest[par] = best // the first child's best is the sum so far
			continue
		}
		acc := childBest[par]
		for x := range acc.pic {
			acc.pic[x] += best.pic[x]
			acc.gain[x] += best.gain[x]
			acc.loss[x] += best.loss[x]
		}
		st.release(best)
	}
	out := STPartition{P: p, Quality: Quality{Gain: root.gain[T-1], Loss: root.loss[T-1]}}
	st.release(root)
	var walk func(v, i, j int)
	walk = func(v, i, j int) {
		switch c := cuts[v*tri+i*T+j]; c {
		case cutWhole:
			out.Areas = append(out.Areas, Area{Node: v, Start: i, End: j})
		case cutSpatial:
			for _, ch := range st.h.Children[v] {
				walk(ch, i, j)
			}
		default:
			walk(v, i, int(c))
			walk(v, int(c)+1, j)
		}
	}
	walk(0, 0, T-1)
	return out, nil
}

// Significant returns the distinct best partitions by dichotomy on p, as
// [Temporal.Significant] does.
func (st *Spatiotemporal) Significant(ctx context.Context, threshold float64) ([]STPartition, error) {
	parts, _, err := st.SignificantWith(ctx, SignificantOptions{Threshold: threshold})
	return parts, err
}

// SignificantWith is Significant with a budget of Best calls and several
// calls at once. It reports whether the budget cut the dichotomy short
// (the partitions found are then a subset, still each optimal for its p).
func (st *Spatiotemporal) SignificantWith(ctx context.Context, o SignificantOptions) ([]STPartition, bool, error) {
	return significant(ctx, o, func(p float64) (STPartition, error) { return st.Best(ctx, p) })
}
