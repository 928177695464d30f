package calltree

import (
	"context"

	"github.com/tracetui/tracetui/core"
)

// Paths are the call paths of sampled stacks, numbered so that a path's
// caller has a smaller number than the path: a trie of function names
// (ingest/trace's Profile).
type Paths interface {
	// Len returns the number of paths.
	Len() int
	// Parent returns the number of path i's caller, -1 for an outermost
	// frame.
	Parent(i int32) int32
	// Name returns the function of the last frame of path i.
	Name(i int32) string
}

// FromSamples builds the call tree of samples: self[i] samples stopped
// in path i (its last frame was the leaf). Every node has Samples set:
// Self counts the samples that stopped in it, Total and Calls those that
// went through it (Self plus its children's Totals); Min, Max and the
// longest call are zero. Children are in decreasing Total, then by name,
// as Compute orders them. Paths without samples are left out. It stops
// with ctx's error when ctx is cancelled.
func FromSamples(ctx context.Context, paths Paths, self []int64) (*Node, error) {
	n := paths.Len()
	if len(self) < n {
		n = len(self)
	}
	total := make([]int64, n)
	copy(total, self[:n])
	for i := n - 1; i >= 0; i-- {
		if p := paths.Parent(int32(i)); p >= 0 && int(p) < i && total[i] > 0 {
			total[p] += total[i]
		}
	}
	// Nodes and children lists come from two slabs: a selection may hold
	// hundreds of thousands of paths.
	kept, kids := 0, make([]int32, n+1) // kids[p+1]: children of p kept (p -1: the root)
	for i := range n {
		if total[i] > 0 {
			kept++
			p := paths.Parent(int32(i))
			if p < 0 || int(p) >= i {
				p = -1
			}
			kids[p+1]++
		}
	}
	slab := make([]Node, kept)
	lists := make([]*Node, kept)
	root := &Node{Samples: true}
	root.Children = lists[:0:kids[0]]
	off := int(kids[0])
	nodes := make([]*Node, n)
	for i := range n {
		if i&0xffff == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if total[i] == 0 {
			continue
		}
		nd := &slab[0]
		slab = slab[1:]
		*nd = Node{Name: paths.Name(int32(i)), Calls: total[i], Total: core.Time(total[i]), Self: core.Time(self[i]), Samples: true}
		if k := int(kids[i+1]); k > 0 {
			nd.Children = lists[off : off : off+k]
			off += k
		}
		nodes[i] = nd
		parent := root
		if p := paths.Parent(int32(i)); p >= 0 && int(p) < i && nodes[p] != nil {
			parent = nodes[p]
		} else {
			root.Total += nd.Total
			root.Calls += nd.Calls
		}
		parent.Children = append(parent.Children, nd)
	}
	root.finish() // Self = Total minus the children's: the samples stopped there
	return root, nil
}
