package tui

import (
	"cmp"
	"context"
	"regexp"
	"slices"
	"strconv"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/pstree"
)

// rowKind is what a row of the tree stands for.
type rowKind uint8

const (
	kindProcess   rowKind = iota // a process: its leader thread (tid == PID), or a name only
	kindThread                   // a thread
	kindCallStack                // one call stack depth of a thread
	kindCPU                      // a CPU
	kindIRQ                      // an IRQ line of a CPU
	kindSoftIRQ                  // a soft IRQ vector of a CPU
	kindAsync                    // a lane of a process's async slices (Chrome)
	kindCounter                  // a counter of a process (Chrome) or a variable of a container (Pajé)
)

// domain returns how the row's integer values are read.
func (k rowKind) domain() valueDomain {
	switch k {
	case kindProcess, kindThread:
		return domainThread
	case kindCPU, kindIRQ, kindSoftIRQ:
		return domainCPU
	case kindCounter:
		return domainCounter
	case kindCallStack:
		return domainFrame
	}
	return domainOther
}

// node is one row of a tree (expanded or not).
type node struct {
	label    string   // "name tid", "CPU 3", "IRQ 18"
	tid      string   // the Threads/<tid> attribute name, "" for other rows
	kind     rowKind  //
	key      core.Key // the attribute drawn; -1 for a process without a leader thread
	thread   core.Key // Threads/<tid>, for the details line; -1 otherwise
	depth    int
	parent   int32 // -1 for a root
	children []int32
	expanded bool
}

// rowTree is the rows of one view (Control Flow or Resources): the tree,
// its flattened visible rows, the selected row and the scroll position.
// Built once at open; expanding and collapsing re-flattens (linear in the
// rows shown, a few ms for millions).
type rowTree struct {
	nodes   []node
	roots   []int32
	visible []int32 // indexes into nodes, in screen order
	order   []int32 // every node in depth-first order (for search)
	pos     []int32 // node -> index in order
	byTID   map[string]int32
	sel     int // index into visible
	top     int // first visible row on screen
}

// processTabler is implemented by traces whose index stores the process
// tree (ingest's), so that opening needs no query of the history.
type processTabler interface {
	ProcessTable() *pstree.Table
}

// processTable returns the trace's stored process tree, or nil.
func processTable(tr Trace) *pstree.Table {
	if p, ok := tr.(processTabler); ok {
		return p.ProcessTable()
	}
	return nil
}

// buildControlFlow arranges the process tree ps (read from h with one 2D
// query, as the R-SHT article's PsTree query does, when ps is nil or does
// not fit h's threads; see package pstree for the rule) into rows.
// Threads with a PID other than their own tid sit under the process row
// (the leader thread, or a row of the process name alone when the trace
// has no leader thread); threads without PID are at the top level.
func buildControlFlow(ctx context.Context, h core.History, ps *pstree.Table) (*rowTree, error) {
	at := h.Attributes()
	if ps == nil || !ps.Fits(at) {
		var err error
		if ps, err = pstree.Query(ctx, h); err != nil {
			return nil, err
		}
	}
	tids := make([]core.Key, len(ps.Threads))
	for i, th := range ps.Threads {
		tids[i] = th.Key
	}
	info, procNames := ps.Threads, ps.Processes

	// A row per thread and a few more: growing the slice of rows was a
	// quarter of the CPU at 200 k threads.
	nodes := make([]node, 0, len(tids)+len(tids)/8+len(procNames))
	add := func(n node) int32 {
		nodes = append(nodes, n)
		return int32(len(nodes) - 1)
	}
	// Leaders first, so threads can find their process row.
	procRow := map[int64]int32{}
	threadRow := make([]int32, len(tids))
	for i, t := range tids {
		threadRow[i] = -1
		tid := at.Name(t)
		n, err := strconv.ParseInt(tid, 10, 64)
		if info[i].HasPID && err == nil && n == info[i].PID {
			threadRow[i] = add(node{label: rowLabel(info[i].Name, tid), tid: tid, kind: kindProcess, key: t, thread: t, parent: -1, expanded: true})
			procRow[n] = threadRow[i]
		}
	}
	for i, t := range tids {
		if threadRow[i] >= 0 {
			continue
		}
		tid := at.Name(t)
		parent := int32(-1)
		if info[i].HasPID {
			p, ok := procRow[info[i].PID]
			if !ok { // no leader thread: a row for the process itself
				name := cmp.Or(procNames[info[i].PID], info[i].Name)
				pidText := strconv.FormatInt(info[i].PID, 10)
				p = add(node{label: rowLabel(name, pidText), kind: kindProcess, key: -1, thread: -1, parent: -1, expanded: true})
				procRow[info[i].PID] = p
			}
			parent = p
		}
		threadRow[i] = add(node{label: rowLabel(info[i].Name, tid), tid: tid, kind: kindThread, key: t, thread: t, parent: parent})
	}
	// Call stacks as collapsed children of their thread.
	for i, t := range tids {
		if cs, ok := at.Child(t, core.AttrCallStack); ok {
			for _, d := range at.Children(cs) {
				add(node{label: "depth " + at.Name(d), kind: kindCallStack, key: d, thread: t, parent: threadRow[i]})
			}
		}
	}
	nodes = addTracks(at, nodes, procRow, procNames, tids, threadRow)
	return newRowTree(nodes, func(a, b *node) int {
		// Call stack depths first (by depth), then tracks (in creation
		// order), then threads by tid.
		if c := cmp.Compare(rowRank(a.kind), rowRank(b.kind)); c != 0 {
			return c
		}
		if a.kind == kindAsync || a.kind == kindCounter {
			return 0 // the sort is stable
		}
		return compareIDs(idOf(a), idOf(b))
	}), nil
}

// idOf is the id a row sorts by: its tid, or the number in its label.
func idOf(n *node) string {
	if n.tid != "" {
		return n.tid
	}
	for i := len(n.label) - 1; i >= 0; i-- {
		if n.label[i] == ' ' {
			return n.label[i+1:]
		}
	}
	return n.label
}

// compareIDs orders numeric ids numerically, before other ids in string
// order.
func compareIDs(a, b string) int {
	x, errA := strconv.ParseInt(a, 10, 64)
	y, errB := strconv.ParseInt(b, 10, 64)
	switch {
	case errA == nil && errB == nil:
		return cmp.Compare(x, y)
	case errA == nil:
		return -1
	case errB == nil:
		return 1
	}
	return cmp.Compare(a, b)
}

// rowLabel is a thread's row text, "name tid" (the tid alone without name).
func rowLabel(name, tid string) string {
	if name == "" {
		return tid
	}
	return name + " " + tid
}

// buildResources lists CPUs/* with their IRQs/* and Soft_IRQs/* children
// (collapsed). No query: the rows come from the attribute tree.
func buildResources(h core.History) *rowTree {
	at := h.Attributes()
	cpus, ok := at.Lookup(core.AttrCPUs)
	if !ok {
		return newRowTree(nil, nil)
	}
	var nodes []node
	for _, c := range at.Children(cpus) {
		row := int32(len(nodes))
		nodes = append(nodes, node{label: "CPU " + at.Name(c), kind: kindCPU, key: c, thread: -1, parent: -1})
		for _, sub := range []struct {
			attr, label string
			kind        rowKind
		}{{core.AttrIRQs, "IRQ ", kindIRQ}, {core.AttrSoftIRQs, "SoftIRQ ", kindSoftIRQ}} {
			if g, ok := at.Child(c, sub.attr); ok {
				for _, k := range at.Children(g) {
					nodes = append(nodes, node{label: sub.label + at.Name(k), kind: sub.kind, key: k, thread: -1, parent: row})
				}
			}
		}
	}
	return newRowTree(nodes, func(a, b *node) int {
		if a.kind != b.kind {
			return cmp.Compare(a.kind, b.kind)
		}
		return compareIDs(idOf(a), idOf(b))
	})
}

// newRowTree links nodes (whose parent fields are set) into a tree with
// siblings sorted by less, and flattens it.
func newRowTree(nodes []node, order func(a, b *node) int) *rowTree {
	t := &rowTree{nodes: nodes, byTID: make(map[string]int32, len(nodes))}
	for i := range nodes {
		n := &nodes[i]
		if n.parent < 0 {
			t.roots = append(t.roots, int32(i))
		} else {
			p := &nodes[n.parent]
			p.children = append(p.children, int32(i))
		}
		if n.tid != "" {
			t.byTID[n.tid] = int32(i)
		}
	}
	sortIdx := func(idx []int32) {
		slices.SortStableFunc(idx, func(a, b int32) int { return order(&nodes[a], &nodes[b]) })
	}
	if order != nil {
		sortIdx(t.roots)
		for i := range nodes {
			sortIdx(nodes[i].children)
		}
	}
	// Depth-first order, depths and positions.
	t.pos = make([]int32, len(nodes))
	stack := slices.Clone(t.roots)
	slices.Reverse(stack)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		t.pos[i] = int32(len(t.order))
		t.order = append(t.order, i)
		n := &nodes[i]
		if n.parent >= 0 {
			n.depth = nodes[n.parent].depth + 1
		}
		for j := len(n.children) - 1; j >= 0; j-- {
			stack = append(stack, n.children[j])
		}
	}
	t.flatten()
	return t
}

// flatten recomputes the visible rows from the expanded flags, keeping
// the selected node selected when it is still visible.
func (t *rowTree) flatten() {
	selNode := t.selected()
	t.visible = t.visible[:0]
	for i := 0; i < len(t.order); {
		n := t.order[i]
		t.visible = append(t.visible, n)
		if t.nodes[n].expanded || len(t.nodes[n].children) == 0 {
			i++
			continue
		}
		i = t.skipSubtree(i) // collapsed: jump over its descendants
	}
	t.sel = 0
	for n := selNode; n >= 0; n = t.nodes[n].parent {
		if i := slices.Index(t.visible, n); i >= 0 {
			t.sel = i // the selected row, or its nearest visible ancestor
			return
		}
	}
}

// skipSubtree returns the depth-first index after the subtree at order[i].
func (t *rowTree) skipSubtree(i int) int {
	d := t.nodes[t.order[i]].depth
	j := i + 1
	for j < len(t.order) && t.nodes[t.order[j]].depth > d {
		j++
	}
	return j
}

// selected returns the selected node, or -1 when the tree is empty.
func (t *rowTree) selected() int32 {
	if t.sel < 0 || t.sel >= len(t.visible) {
		return -1
	}
	return t.visible[t.sel]
}

// selectNode selects node n, expanding its ancestors if needed.
func (t *rowTree) selectNode(n int32) {
	changed := false
	for p := t.nodes[n].parent; p >= 0; p = t.nodes[p].parent {
		if !t.nodes[p].expanded {
			t.nodes[p].expanded, changed = true, true
		}
	}
	if changed {
		t.flatten()
	}
	if i := slices.Index(t.visible, n); i >= 0 {
		t.sel = i
	}
}

// toggle expands or collapses the selected row (no-op on a leaf).
func (t *rowTree) toggle() bool {
	n := t.selected()
	if n < 0 || len(t.nodes[n].children) == 0 {
		return false
	}
	t.nodes[n].expanded = !t.nodes[n].expanded
	t.flatten()
	return true
}

// move moves the selection by d rows, clamped.
func (t *rowTree) move(d int) {
	if len(t.visible) == 0 {
		return
	}
	t.sel = min(max(t.sel+d, 0), len(t.visible)-1)
}

// scroll keeps the selection on a screen of h rows.
func (t *rowTree) scroll(h int) {
	if h <= 0 {
		return
	}
	if t.sel < t.top {
		t.top = t.sel
	}
	if t.sel >= t.top+h {
		t.top = t.sel - h + 1
	}
	t.top = max(0, min(t.top, len(t.visible)-h))
}

// matches reports whether a row's label or tid matches re (find).
func (n *node) matches(re *regexp.Regexp) bool {
	return re.MatchString(n.label) || (n.tid != "" && re.MatchString(n.tid))
}

// matchIndex returns the position (from 1, in depth-first order) of node
// n among the rows matching re, and how many rows match.
func (t *rowTree) matchIndex(re *regexp.Regexp, n int32) (int, int) {
	i, total := 0, 0
	for _, m := range t.order {
		if t.nodes[m].matches(re) {
			total++
			if m == n {
				i = total
			}
		}
	}
	return i, total
}

// find returns the next node (in depth-first order, after the selected
// one, wrapping; backwards when back) whose label or tid matches re, or -1.
func (t *rowTree) find(re *regexp.Regexp, back bool) int32 {
	if len(t.order) == 0 {
		return -1
	}
	start := 0
	if s := t.selected(); s >= 0 {
		start = int(t.pos[s])
	}
	step := 1
	if back {
		step = -1
	}
	for i, j := 0, start; i < len(t.order); i++ {
		j = (j + step + len(t.order)) % len(t.order)
		if t.nodes[t.order[j]].matches(re) {
			return t.order[j]
		}
	}
	return -1
}
