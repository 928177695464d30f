package calltree

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// Node is one function at one call path: the root (Name "") holds the
// outermost functions as its children and their sums.
type Node struct {
	Name     string    `json:"function"`
	Calls    int64     `json:"calls"`
	Total    core.Time `json:"total_ns"`
	Self     core.Time `json:"self_ns"`
	Min      core.Time `json:"min_ns"`
	Max      core.Time `json:"max_ns"`
	Children []*Node   `json:"children,omitempty"`

	// LongestStart and LongestEnd bound the longest call (inclusive,
	// clipped to the range): where a browser zooms to show it.
	LongestStart core.Time `json:"longest_start_ns"`
	LongestEnd   core.Time `json:"longest_end_ns"`

	byName map[string]*Node
}

// Labeler names a frame value of a thread (its Threads/<id> key): a
// symbol for an address, the name itself for a string.
type Labeler func(thread core.Key, v core.Value) string

// Options selects what to aggregate.
type Options struct {
	// From and To bound the range [From, To). To <= From means the whole
	// history.
	From, To core.Time
	// Threads are the Threads/<id> keys to aggregate; nil (not an empty
	// list) means every thread that has a call stack ([StackThreads]).
	Threads []core.Key
	// Label names frames; nil uses [DefaultLabel].
	Label Labeler
}

// DefaultLabel names a string frame by itself and an address in
// hexadecimal.
func DefaultLabel(_ core.Key, v core.Value) string {
	if v.Kind() == core.KindInt64 {
		return "0x" + strconv.FormatUint(uint64(v.Int()), 16)
	}
	return v.String()
}

// StackThreads returns the Threads/<id> keys that have a CallStack.
func StackThreads(tree *core.AttributeTree) []core.Key {
	var out []core.Key
	for _, k := range tree.Glob(core.AttrThreads + "/*/" + core.AttrCallStack) {
		out = append(out, tree.Parent(k))
	}
	return out
}

// Compute aggregates the call stacks of the selected threads over the
// range. It returns ctx's error when cancelled.
func Compute(ctx context.Context, h core.History, opts Options) (*Node, error) {
	tree := h.Attributes()
	from, to := opts.From, opts.To
	if to <= from {
		start, end := h.Bounds()
		from, to = start, end+1
	}
	label := opts.Label
	if label == nil {
		label = DefaultLabel
	}
	threads := opts.Threads
	if threads == nil {
		threads = StackThreads(tree)
	}
	root := newNode("")
	for _, th := range threads {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := addThread(ctx, h, th, from, to, label, root); err != nil {
			return nil, err
		}
	}
	for _, c := range root.Children {
		root.Total += c.Total
		root.Calls += c.Calls
	}
	root.finish()
	return root, nil
}

// addThread adds one thread's calls in [from, to) to root.
func addThread(ctx context.Context, h core.History, th core.Key, from, to core.Time, label Labeler, root *Node) error {
	tree := h.Attributes()
	stack, ok := tree.Child(th, core.AttrCallStack)
	if !ok {
		return nil
	}
	depthOf := map[core.Key]int{} // CallStack/<d> key -> d-1
	var keys []core.Key
	deepest := 0
	tree.EachChild(stack, func(k core.Key) {
		if d, err := strconv.Atoi(tree.Name(k)); err == nil && d >= 1 {
			depthOf[k] = d - 1
			keys = append(keys, k)
			deepest = max(deepest, d)
		}
	})
	levels := make([][]core.Interval, deepest)
	_, err := h.Query2D(ctx, keys, from, to-1, func(iv core.Interval) bool {
		if !iv.Value.IsNull() {
			d := depthOf[iv.Key]
			levels[d] = append(levels[d], iv)
		}
		return true
	})
	if err != nil {
		return fmt.Errorf("reading the call stack of %s: %w", tree.Path(th), err)
	}
	labels := map[core.Value]string{} // a thread calls few functions many times
	var parents []*Node               // the node of each interval of the level above
	for d, level := range levels {
		slices.SortFunc(level, func(a, b core.Interval) int { return cmp.Compare(a.Start, b.Start) })
		nodes := make([]*Node, len(level))
		for i, iv := range level {
			parent := root
			if d > 0 {
				above := levels[d-1]
				j := sort.Search(len(above), func(j int) bool { return above[j].End >= iv.Start })
				if j < len(above) && above[j].Start <= iv.Start {
					parent = parents[j]
				}
			}
			name, ok := labels[iv.Value]
			if !ok {
				name = label(th, iv.Value)
				labels[iv.Value] = name
			}
			n := parent.child(name)
			n.add(max(iv.Start, from), min(iv.End, to-1))
			nodes[i] = n
		}
		parents = nodes
		if len(level) == 0 {
			break // nothing deeper can have a caller
		}
	}
	return nil
}

func newNode(name string) *Node { return &Node{Name: name, byName: map[string]*Node{}} }

// child returns n's child called name, creating it.
func (n *Node) child(name string) *Node {
	c, ok := n.byName[name]
	if !ok {
		c = newNode(name)
		n.byName[name] = c
		n.Children = append(n.Children, c)
	}
	return c
}

// add counts one call covering [start, end].
func (n *Node) add(start, end core.Time) {
	d := end - start + 1
	if n.Calls == 0 || d < n.Min {
		n.Min = d
	}
	if d > n.Max {
		n.Max, n.LongestStart, n.LongestEnd = d, start, end
	}
	n.Calls++
	n.Total += d
}

// finish computes self times and orders children by total time (longest
// first, then by name).
func (n *Node) finish() {
	var children core.Time
	for _, c := range n.Children {
		c.finish()
		children += c.Total
	}
	n.Self = n.Total - children
	n.byName = nil
	slices.SortFunc(n.Children, func(a, b *Node) int {
		if c := cmp.Compare(b.Total, a.Total); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
}
