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

	// Samples marks a tree of sampled stacks ([FromSamples]): Calls,
	// Total and Self count samples, not calls and nanoseconds.
	Samples bool `json:"samples,omitempty"`
}

// builder grows a tree. Names are numbered, and a node's children are
// found in one map for the whole tree (a tree has many nodes with few
// children each).
type builder struct {
	children map[childOf]*Node
	ids      map[string]int32
	names    []string
}

type childOf struct {
	parent *Node
	name   int32
}

// call is one call read from the index: no pointer, so that the garbage
// collector need not scan the hundreds of thousands of them.
type call struct {
	start, end core.Time
	name       int32
}

func newBuilder() *builder {
	return &builder{children: map[childOf]*Node{}, ids: map[string]int32{}}
}

// nameID numbers a function name.
func (b *builder) nameID(name string) int32 {
	id, ok := b.ids[name]
	if !ok {
		id = int32(len(b.names))
		b.ids[name] = id
		b.names = append(b.names, name)
	}
	return id
}

// child returns parent's child called names[name], creating it.
func (b *builder) child(parent *Node, name int32) *Node {
	k := childOf{parent, name}
	c, ok := b.children[k]
	if !ok {
		c = &Node{Name: b.names[name]}
		b.children[k] = c
		parent.Children = append(parent.Children, c)
	}
	return c
}

// Options selects what to aggregate.
type Options struct {
	// From and To bound the range [From, To). To <= From means the whole
	// history.
	From, To core.Time
	// Threads are the Threads/<id> keys to aggregate; nil (not an empty
	// list) means every thread that has a call stack ([StackThreads]).
	Threads []core.Key
	// Label names frames; nil uses [DefaultLabel].
	Label core.FrameLabeler
}

// DefaultLabel names a string frame by itself and an address with
// [core.FormatAddress].
func DefaultLabel(_ core.Key, v core.Value) string { return core.FrameText(v) }

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
	root := &Node{}
	b := newBuilder()
	if err := ctx.Err(); err != nil { // also when no thread has a stack
		return nil, err
	}
	for _, th := range threads {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := b.addThread(ctx, h, th, from, to, label, root); err != nil {
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
func (b *builder) addThread(ctx context.Context, h core.History, th core.Key, from, to core.Time, label core.FrameLabeler, root *Node) error {
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
	levels := make([][]call, deepest)
	labels := map[core.Value]int32{} // a thread calls few functions many times
	_, err := h.Query2D(ctx, keys, from, to-1, func(iv core.Interval) bool {
		if iv.Value.IsNull() {
			return true
		}
		id, ok := labels[iv.Value]
		if !ok {
			id = b.nameID(label(th, iv.Value))
			labels[iv.Value] = id
		}
		d := depthOf[iv.Key]
		levels[d] = append(levels[d], call{iv.Start, iv.End, id})
		return true
	})
	if err != nil {
		return fmt.Errorf("reading the call stack of %s: %w", tree.Path(th), err)
	}
	var parents []*Node // the node of each call of the level above
	for d, level := range levels {
		slices.SortFunc(level, func(a, b call) int { return cmp.Compare(a.start, b.start) })
		nodes := make([]*Node, len(level))
		for i, c := range level {
			parent := root
			if d > 0 {
				above := levels[d-1]
				j := sort.Search(len(above), func(j int) bool { return above[j].end >= c.start })
				if j < len(above) && above[j].start <= c.start {
					parent = parents[j]
				}
			}
			n := b.child(parent, c.name)
			n.add(max(c.start, from), min(c.end, to-1))
			nodes[i] = n
		}
		parents = nodes
		if len(level) == 0 {
			break // nothing deeper can have a caller
		}
	}
	return nil
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
	slices.SortFunc(n.Children, func(a, b *Node) int {
		if c := cmp.Compare(b.Total, a.Total); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
}
