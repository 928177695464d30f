package diff

import (
	"context"
	"fmt"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/calltree"
)

// The units of a call tree's figures (Result.CallTreeUnit).
const (
	UnitNS      = "ns"      // call stacks: self time in nanoseconds
	UnitSamples = "samples" // sampled stacks (perf.data): self samples
)

// Profile is a trace's sampled call stacks (ingest/trace's Profile): the
// call paths as a trie (calltree.Paths) and a count of the samples per
// path over a selection.
type Profile interface {
	calltree.Paths
	// Samples returns the number of samples with a stack in the trace.
	Samples() int64
	// Count returns, per path, the samples of threads tids (nil: all)
	// in [from, to) whose stack is that path.
	Count(ctx context.Context, from, to core.Time, tids []int64) ([]int64, error)
}

// SampledTree is the call tree of the side's sampled stacks (of its
// Threads, if selected) in [from, to) (to <= from: the whole history),
// counted (Node.Samples); nil without a profile or samples.
func (s Side) SampledTree(ctx context.Context, from, to core.Time) (*calltree.Node, error) {
	if s.Profile == nil {
		return nil, nil
	}
	p, err := s.Profile(ctx)
	if err != nil {
		return nil, fmt.Errorf("diff: profile of %s: %w", s.Name, err)
	}
	if p == nil || p.Samples() == 0 {
		return nil, nil
	}
	if to <= from {
		start, end := s.History.Bounds()
		from, to = start, end+1
	}
	self, err := p.Count(ctx, from, to, int64s(s.Threads))
	if err != nil {
		return nil, fmt.Errorf("diff: samples of %s: %w", s.Name, err)
	}
	root, err := calltree.FromSamples(ctx, p, self)
	if err != nil {
		return nil, fmt.Errorf("diff: call tree of %s: %w", s.Name, err)
	}
	return root, nil
}

// sideTree is a side's call tree: its sampled stacks counted when its
// profile has samples (unit UnitSamples), else its call stacks timed.
func sideTree(ctx context.Context, s Side) (*calltree.Node, string, error) {
	root, err := s.SampledTree(ctx, s.From, s.To)
	if err != nil || root != nil {
		return root, UnitSamples, err
	}
	opts := calltree.Options{From: s.From, To: s.To, Label: s.Label}
	if s.Threads != nil {
		opts.Threads = threadAttrs(s.History, s.Threads)
	}
	root, err = calltree.Compute(ctx, s.History, opts)
	if err != nil {
		return nil, "", fmt.Errorf("diff: call tree of %s: %w", s.Name, err)
	}
	return root, UnitNS, nil
}

// callTrees computes both sides' call trees and their common unit: a side
// with no call path takes the other's; samples against times is an
// error (the figures cannot be subtracted).
func callTrees(ctx context.Context, base, next Side) ([2]*calltree.Node, string, error) {
	var roots [2]*calltree.Node
	var units [2]string
	for i, s := range []Side{base, next} {
		root, unit, err := sideTree(ctx, s)
		if err != nil {
			return roots, "", err
		}
		roots[i], units[i] = root, unit
	}
	switch {
	case units[0] == units[1]:
	case len(roots[1].Children) == 0:
		units[1] = units[0]
	case len(roots[0].Children) == 0:
		units[0] = units[1]
	default:
		what := map[string]string{UnitNS: "times call stacks", UnitSamples: "counts sampled stacks (perf.data)"}
		return roots, "", fmt.Errorf("diff: %s's call tree %s and %s's %s: the two cannot be compared; compare two profiles, or two traces with call stacks",
			base.Name, what[units[0]], next.Name, what[units[1]])
	}
	return roots, units[0], nil
}

// selfByPath flattens a call tree into the self time (or samples) of each
// call path.
func selfByPath(root *calltree.Node) map[string]int64 {
	out := map[string]int64{}
	type at struct {
		n    *calltree.Node
		path string
	}
	stack := []at{}
	for _, c := range root.Children {
		stack = append(stack, at{c, c.Name})
	}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out[top.path] += int64(top.n.Self)
		for _, c := range top.n.Children {
			stack = append(stack, at{c, top.path + ";" + c.Name})
		}
	}
	return out
}

// Trees is the call trees of both sides and their difference per call
// path.
type Trees struct {
	Base, New *calltree.Node
	Rows      []PathRow // as Result.CallTree
	Unit      string    // UnitNS or UnitSamples
}

// CallTree compares base's call tree with next's alone (what Compute adds
// with Options.CallTree), with both trees (a differential flame graph
// draws them).
func CallTree(ctx context.Context, base, next Side, top int) (*Trees, error) {
	if top < 1 || top > MaxTop {
		return nil, fmt.Errorf("diff: top %d: want 1 to %d", top, MaxTop)
	}
	roots, unit, err := callTrees(ctx, base, next)
	if err != nil {
		return nil, err
	}
	return &Trees{Base: roots[0], New: roots[1], Rows: pathRows(selfByPath(roots[0]), selfByPath(roots[1]), top), Unit: unit}, nil
}
