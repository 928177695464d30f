package tui

import (
	"slices"
	"sort"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index/pstree"
)

// rowTree is the rows of one view (Control Flow or Resources): the rows,
// read on demand from their encoded form (numbered depth-first, so a row's
// descendants follow it), which rows the user opened or closed, the
// visible rows that follow, the selected row and the scroll position. No
// row is read until it is on screen, so opening costs the same at a
// thousand rows as at millions; the visible rows are the rows less the
// closed subtrees (cuts), so that expanding and collapsing costs the
// number of closed rows, not the number of rows.
type rowTree struct {
	rows    *pstree.Rows
	at      *core.AttributeTree
	threads core.Key // Threads, for byTID; -1 when absent

	closed  []int32        // rows closed at open that have children
	toggled map[int32]bool // rows the user opened (true) or closed
	cuts    []cut          // the hidden rows, outermost subtrees, in order
	nvis    int            // visible rows
	sel     int            // index into the visible rows
	top     int            // first visible row on screen
}

// cut is the hidden descendants [from, to) of a closed row; hiddenBefore
// counts the rows hidden by the cuts before it.
type cut struct {
	from, to     int32
	hiddenBefore int
}

// newRowTree starts a tree on rows, with the attribute tree they
// describe, as it opens.
func newRowTree(rows *pstree.Rows, at *core.AttributeTree) *rowTree {
	t := &rowTree{rows: rows, at: at, threads: -1, closed: rows.Collapsed(), toggled: map[int32]bool{}}
	if k, ok := at.Lookup(core.AttrThreads); ok {
		t.threads = k
	}
	t.flatten()
	return t
}

// len returns the number of rows.
func (t *rowTree) len() int { return t.rows.Len() }

// node reads row i.
func (t *rowTree) node(i int32) node {
	r := t.rows.Row(i)
	n := node{label: t.rows.Label(r), kind: rowKind(r.Kind), key: core.Key(r.Key), thread: core.Key(r.Thread),
		depth: r.Depth, parent: r.Parent, end: r.End, leaf: r.End <= i+1, expanded: r.Expanded}
	if e, ok := t.toggled[i]; ok {
		n.expanded = e
	}
	if k := r.TIDLen(); k > 0 && k <= len(n.label) {
		n.tid = n.label[len(n.label)-k:]
	}
	return n
}

// children returns row i's children, in order.
func (t *rowTree) children(i int32) []int32 {
	var out []int32
	end := t.rows.Row(i).End
	if end-i > smallSubtree { // a process of many threads: one walk
		t.rows.ScanRecords(i+1, end, func(c int32, r pstree.RowInfo) bool {
			if r.Parent == i {
				out = append(out, c)
			}
			return true
		})
		return out
	}
	for c := i + 1; c < end; c = t.rows.Row(c).End {
		out = append(out, c)
	}
	return out
}

// smallSubtree is the size of subtree whose children are read one by one
// (through the block cache) rather than in one walk.
const smallSubtree = 1024

// roots returns the top-level rows, in order.
func (t *rowTree) roots() []int32 {
	var out []int32
	for r := int32(0); int(r) < t.len(); r = t.rows.Row(r).End {
		out = append(out, r)
	}
	return out
}

// byTID returns the row of the thread whose attribute is Threads/<tid>.
func (t *rowTree) byTID(tid string) (int32, bool) {
	if t == nil || t.threads < 0 {
		return -1, false
	}
	k, ok := t.at.Child(t.threads, tid)
	if !ok {
		return -1, false
	}
	return t.rows.RowOfKey(int32(k))
}

// isExpanded reports whether row i is open.
func (t *rowTree) isExpanded(i int32) bool {
	if e, ok := t.toggled[i]; ok {
		return e
	}
	return t.rows.Row(i).Expanded
}

// visibleLen returns the number of visible rows.
func (t *rowTree) visibleLen() int { return t.nvis }

// visibleRow returns the row shown at visible index v (0 <= v < visibleLen).
func (t *rowTree) visibleRow(v int) int32 {
	// The cuts that start at or before v's place hide rows before it.
	k := sort.Search(len(t.cuts), func(j int) bool { return int(t.cuts[j].from)-t.cuts[j].hiddenBefore > v })
	return int32(v + t.hiddenBefore(k))
}

// hiddenBefore returns the rows hidden by the first k cuts.
func (t *rowTree) hiddenBefore(k int) int {
	if k == 0 {
		return 0
	}
	c := t.cuts[k-1]
	return c.hiddenBefore + int(c.to-c.from)
}

// visibleIndex returns row i's visible index, or -1 when it is hidden.
func (t *rowTree) visibleIndex(i int32) int {
	k := sort.Search(len(t.cuts), func(j int) bool { return t.cuts[j].to > i })
	if k < len(t.cuts) && t.cuts[k].from <= i {
		return -1
	}
	return int(i) - t.hiddenBefore(k)
}

// flatten recomputes the visible rows from the open and closed rows,
// keeping the selected row selected when it is still visible (else its
// nearest visible ancestor).
func (t *rowTree) flatten() {
	selNode := t.selected()
	closed := t.closed
	if len(t.toggled) > 0 {
		// Closed at open and not opened since, and closed since.
		closed = slices.DeleteFunc(slices.Clone(t.closed), func(i int32) bool { return t.toggled[i] })
		for i, open := range t.toggled {
			if r := t.rows.Row(i); !open && r.Expanded && r.End > i+1 {
				closed = append(closed, i)
			}
		}
		slices.Sort(closed)
	}
	t.cuts = t.cuts[:0]
	hidden := 0
	for _, i := range closed {
		if n := len(t.cuts); n > 0 && i < t.cuts[n-1].to {
			continue // inside a closed subtree
		}
		c := cut{from: i + 1, to: t.rows.Row(i).End, hiddenBefore: hidden}
		if c.to <= c.from {
			continue
		}
		t.cuts = append(t.cuts, c)
		hidden += int(c.to - c.from)
	}
	t.nvis = t.len() - hidden
	t.sel = 0
	for n := selNode; n >= 0; n = t.rows.Row(n).Parent {
		if v := t.visibleIndex(n); v >= 0 {
			t.sel = v
			return
		}
	}
}

// selected returns the selected row, or -1 when the tree is empty.
func (t *rowTree) selected() int32 {
	if t.sel < 0 || t.sel >= t.nvis {
		return -1
	}
	return t.visibleRow(t.sel)
}

// selectNode selects row n, expanding its ancestors if needed.
func (t *rowTree) selectNode(n int32) {
	changed := false
	for p := t.rows.Row(n).Parent; p >= 0; p = t.rows.Row(p).Parent {
		if !t.isExpanded(p) {
			t.toggled[p], changed = true, true
		}
	}
	if changed {
		t.flatten()
	}
	if v := t.visibleIndex(n); v >= 0 {
		t.sel = v
	}
}

// toggle expands or collapses the selected row (no-op on a leaf).
func (t *rowTree) toggle() bool {
	n := t.selected()
	if n < 0 || t.rows.Row(n).End <= n+1 {
		return false
	}
	t.toggled[n] = !t.isExpanded(n)
	t.flatten()
	return true
}

// move moves the selection by d rows, clamped.
func (t *rowTree) move(d int) {
	if t.nvis == 0 {
		return
	}
	t.sel = min(max(t.sel+d, 0), t.nvis-1)
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
	t.top = max(0, min(t.top, t.nvis-h))
}
