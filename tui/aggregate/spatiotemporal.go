package aggregate

import (
	"context"
	"fmt"
	"math"
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
type Spatiotemporal struct {
	m *Model
	h *Hierarchy
}

// NewSpatiotemporal checks the hierarchy against the model.
func NewSpatiotemporal(m *Model, h *Hierarchy) (*Spatiotemporal, error) {
	if err := h.Check(m.S); err != nil {
		return nil, err
	}
	return &Spatiotemporal{m: m, h: h}, nil
}

// Work estimates the cost of one Best call in elementary steps:
// |H| * |T|^3 / 6 for the cuts plus |H| * |T|^2 * |J| for the qualities.
func (st *Spatiotemporal) Work() float64 {
	H, T, J := float64(len(st.h.Children)), float64(st.m.T), float64(st.m.J)
	return H * (T*T*T/6 + T*T*J)
}

// Best returns the optimal partition for p: for every node, bottom-up,
// and every interval, the best of keeping the area whole, splitting it
// into the node's children, or cutting it in time. O(|H| |T|^3) time;
// memory O(|H| |T|^2) bytes for the cut codes plus one T*J row and T^2
// trade-offs per node on the current root-to-leaf path.
func (st *Spatiotemporal) Best(ctx context.Context, p float64) (STPartition, error) {
	T, J := st.m.T, st.m.J
	tri := T * T
	cuts := make([][]int16, len(st.h.Children))
	var visited int
	// visit returns the node's aggregated row (T*J), per-slice info
	// (sum of ent over its cells), leaf count, and best trade-offs.
	var visit func(v int) ([]float64, []float64, int, []tradeoff, error)
	visit = func(v int) ([]float64, []float64, int, []tradeoff, error) {
		visited++
		if visited%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, 0, nil, err
			}
		}
		row := make([]float64, T*J)
		info := make([]float64, T)
		leaves := 0
		var childBest []tradeoff // sum over children of their best, per (i, j)
		if len(st.h.Children[v]) == 0 {
			src := st.m.row(st.h.Resource[v])
			copy(row, src)
			for t := range T {
				for j := range J {
					info[t] += ent(src[t*J+j])
				}
			}
			leaves = 1
		} else {
			childBest = make([]tradeoff, tri)
			for _, c := range st.h.Children[v] {
				crow, cinfo, cl, cbest, err := visit(c)
				if err != nil {
					return nil, nil, 0, nil, err
				}
				for k := range row {
					row[k] += crow[k]
				}
				for t := range info {
					info[t] += cinfo[t]
				}
				leaves += cl
				for k := range childBest {
					childBest[k] = childBest[k].add(cbest[k])
				}
			}
		}
		best := make([]tradeoff, tri)
		cut := make([]int16, tri)
		sum := make([]float64, J)
		for i := T - 1; i >= 0; i-- {
			clear(sum)
			var inf float64
			for j := i; j < T; j++ {
				inf += info[j]
				var g, total float64
				for l := range J {
					sum[l] += row[j*J+l]
					total += sum[l]
					g += ent(sum[l])
				}
				g -= inf
				if total == 0 {
					g = 0
				}
				q := Quality{Gain: g, Loss: total*math.Log2(float64(leaves*(j-i+1))) - g}
				k := i*T + j
				best[k], cut[k] = newTradeoff(p, q), cutWhole
				if childBest != nil && childBest[k].better(best[k]) {
					best[k], cut[k] = childBest[k], cutSpatial
				}
				for x := i; x < j; x++ {
					if cand := best[i*T+x].add(best[(x+1)*T+j]); cand.better(best[k]) {
						best[k], cut[k] = cand, int16(x)
					}
				}
			}
		}
		cuts[v] = cut
		return row, info, leaves, best, nil
	}
	_, _, _, best, err := visit(0)
	if err != nil {
		return STPartition{}, err
	}
	out := STPartition{P: p, Quality: Quality{Gain: best[T-1].gain, Loss: best[T-1].loss}}
	var walk func(v, i, j int)
	walk = func(v, i, j int) {
		switch c := cuts[v][i*T+j]; c {
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
	var err error
	parts, derr := significant(ctx, threshold, func(p float64) STPartition {
		if err != nil {
			return STPartition{P: p}
		}
		var part STPartition
		part, err = st.Best(ctx, p)
		return part
	})
	if err != nil {
		return nil, err
	}
	return parts, derr
}
