package frame

import (
	"slices"
	"sort"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index/pstree"
)

// RowTree is the rows of one view (Control Flow or Resources): the rows,
// read on demand from their encoded form (numbered depth-first, so a row's
// descendants follow it), which rows the user opened or closed, the
// visible rows that follow, the selected row and the scroll position. No
// row is read until it is on screen, so opening costs the same at a
// thousand rows as at millions; the visible rows are the rows less the
// closed subtrees (cuts), so that expanding and collapsing costs the
// number of closed rows, not the number of rows.
type RowTree struct {
	Rows    *pstree.Rows
	at      *core.AttributeTree
	threads core.Key // Threads, for byTID; -1 when absent

	closed  []int32        // rows closed at open (or by CollapseAll) that have children
	allOpen bool           // ExpandAll: every row open unless toggled
	toggled map[int32]bool // rows the user opened (true) or closed
	hidden  []int32        // rows hidden with their subtrees (SetHidden), ascending
	cuts    []cut          // the hidden rows, outermost subtrees, in order
	nvis    int            // visible rows
	Sel     int            // index into the visible rows
	Top     int            // first visible row on screen
	pinned  bool           // Pin put the selected row first: Scroll keeps it there
}

// cut is the hidden descendants [from, to) of a closed row; hiddenBefore
// counts the rows hidden by the cuts before it.
type cut struct {
	from, to     int32
	hiddenBefore int
}

// NewRowTree starts a tree on rows, with the attribute tree they
// describe, as it opens.
func NewRowTree(rows *pstree.Rows, at *core.AttributeTree) *RowTree {
	t := &RowTree{Rows: rows, at: at, threads: -1, closed: rows.Collapsed(), toggled: map[int32]bool{}}
	if k, ok := at.Lookup(core.AttrThreads); ok {
		t.threads = k
	}
	t.flatten()
	return t
}

// Len returns the number of rows.
func (t *RowTree) Len() int { return t.Rows.Len() }

// Node reads row i.
func (t *RowTree) Node(i int32) Node {
	r := t.Rows.Row(i)
	n := Node{Label: t.Rows.Label(r), Kind: rowKind(r.Kind), Key: core.Key(r.Key), Thread: core.Key(r.Thread),
		Depth: r.Depth, Parent: r.Parent, End: r.End, Leaf: r.End <= i+1, Expanded: t.isExpanded(i)}
	if k := r.TIDLen(); k > 0 && k <= len(n.Label) {
		n.Tid = n.Label[len(n.Label)-k:]
	}
	return n
}

// Children returns row i's children, in order.
func (t *RowTree) Children(i int32) []int32 {
	var out []int32
	end := t.Rows.Row(i).End
	if end-i > SmallSubtree { // a process of many threads: one walk
		t.Rows.ScanRecords(i+1, end, func(c int32, r pstree.RowInfo) bool {
			if r.Parent == i {
				out = append(out, c)
			}
			return true
		})
		return out
	}
	for c := i + 1; c < end; c = t.Rows.Row(c).End {
		out = append(out, c)
	}
	return out
}

// SmallSubtree is the size of subtree whose children are read one by one
// (through the block cache) rather than in one walk.
const SmallSubtree = 1024

// Roots returns the top-level rows, in order.
func (t *RowTree) Roots() []int32 {
	var out []int32
	for r := int32(0); int(r) < t.Len(); r = t.Rows.Row(r).End {
		out = append(out, r)
	}
	return out
}

// ByTID returns the row of the thread whose attribute is Threads/<tid>.
func (t *RowTree) ByTID(tid string) (int32, bool) {
	if t == nil || t.threads < 0 {
		return -1, false
	}
	k, ok := t.at.Child(t.threads, tid)
	if !ok {
		return -1, false
	}
	return t.Rows.RowOfKey(int32(k))
}

// isExpanded reports whether row i is open.
func (t *RowTree) isExpanded(i int32) bool {
	if e, ok := t.toggled[i]; ok {
		return e
	}
	return t.openAtBase(i)
}

// openAtBase reports whether row i is open before the user's toggles: as
// stored, or every row after ExpandAll, less the rows CollapseAll closed.
func (t *RowTree) openAtBase(i int32) bool {
	if _, found := slices.BinarySearch(t.closed, i); found {
		return false
	}
	return t.allOpen || t.Rows.Row(i).Expanded
}

// ExpandAll opens every row: O(1), whatever the number of rows.
func (t *RowTree) ExpandAll() {
	t.allOpen, t.closed = true, nil
	clear(t.toggled)
	t.flatten()
}

// CollapseAll closes every top-level row with children (and the rows
// closed at open), leaving the roots alone on screen.
func (t *RowTree) CollapseAll() {
	closed := slices.Clone(t.Rows.Collapsed())
	for _, r := range t.Roots() {
		if t.Rows.Row(r).End > r+1 {
			closed = append(closed, r)
		}
	}
	slices.Sort(closed)
	t.allOpen, t.closed = false, slices.Compact(closed)
	clear(t.toggled)
	t.flatten()
}

// VisibleLen returns the number of visible rows.
func (t *RowTree) VisibleLen() int { return t.nvis }

// VisibleRow returns the row shown at visible index v (0 <= v < visibleLen).
func (t *RowTree) VisibleRow(v int) int32 {
	// The cuts that start at or before v's place hide rows before it.
	k := sort.Search(len(t.cuts), func(j int) bool { return int(t.cuts[j].from)-t.cuts[j].hiddenBefore > v })
	return int32(v + t.hiddenBefore(k))
}

// hiddenBefore returns the rows hidden by the first k cuts.
func (t *RowTree) hiddenBefore(k int) int {
	if k == 0 {
		return 0
	}
	c := t.cuts[k-1]
	return c.hiddenBefore + int(c.to-c.from)
}

// VisibleIndex returns row i's visible index, or -1 when it is hidden.
func (t *RowTree) VisibleIndex(i int32) int {
	k := sort.Search(len(t.cuts), func(j int) bool { return t.cuts[j].to > i })
	if k < len(t.cuts) && t.cuts[k].from <= i {
		return -1
	}
	return int(i) - t.hiddenBefore(k)
}

// flatten recomputes the visible rows from the open and closed rows,
// keeping the selected row selected when it is still visible (else its
// nearest visible ancestor).
func (t *RowTree) flatten() {
	selNode := t.Selected()
	closed := t.closed
	if len(t.toggled) > 0 {
		// Closed at open and not opened since, and closed since.
		closed = slices.DeleteFunc(slices.Clone(t.closed), func(i int32) bool { return t.toggled[i] })
		for i, open := range t.toggled {
			if r := t.Rows.Row(i); !open && t.openAtBase(i) && r.End > i+1 {
				closed = append(closed, i)
			}
		}
		slices.Sort(closed)
	}
	t.cuts = t.cuts[:0]
	hidden := 0
	// A closed row hides its descendants, a hidden row itself too: merged
	// in row order, a hidden row's cut before its own closed one.
	type cutAt struct {
		from int32
		self bool
	}
	all := make([]cutAt, 0, len(closed)+len(t.hidden))
	for i, j := 0, 0; i < len(closed) || j < len(t.hidden); {
		if j < len(t.hidden) && (i == len(closed) || t.hidden[j] <= closed[i]) {
			all, j = append(all, cutAt{t.hidden[j], true}), j+1
		} else {
			all, i = append(all, cutAt{closed[i], false}), i+1
		}
	}
	for _, a := range all {
		i := a.from
		if n := len(t.cuts); n > 0 && i < t.cuts[n-1].to {
			continue // inside a closed or hidden subtree
		}
		c := cut{from: i + 1, to: t.Rows.Row(i).End, hiddenBefore: hidden}
		if a.self {
			c.from = i
		}
		if c.to <= c.from {
			continue
		}
		t.cuts = append(t.cuts, c)
		hidden += int(c.to - c.from)
	}
	t.nvis = t.Len() - hidden
	t.Sel = 0
	for n := selNode; n >= 0; n = t.Rows.Row(n).Parent {
		if v := t.VisibleIndex(n); v >= 0 {
			t.Sel = v
			return
		}
	}
}

// SetHidden hides rows (ascending) with their subtrees, whatever their
// expansion; nil shows every row again.
func (t *RowTree) SetHidden(rows []int32) {
	t.hidden = rows
	t.flatten()
}

// unhide shows row i again if SetHidden hid it.
func (t *RowTree) unhide(i int32) bool {
	k, found := slices.BinarySearch(t.hidden, i)
	if found {
		t.hidden = slices.Delete(slices.Clone(t.hidden), k, k+1)
	}
	return found
}

// Hidden returns the number of rows SetHidden hides (their subtrees not
// counted).
func (t *RowTree) Hidden() int { return len(t.hidden) }

// Selected returns the selected row, or -1 when the tree is empty.
func (t *RowTree) Selected() int32 {
	if t.Sel < 0 || t.Sel >= t.nvis {
		return -1
	}
	return t.VisibleRow(t.Sel)
}

// SelectNode selects row n, expanding its ancestors and showing it and
// them again if hidden (SetHidden).
func (t *RowTree) SelectNode(n int32) {
	changed := t.unhide(n)
	for p := t.Rows.Row(n).Parent; p >= 0; p = t.Rows.Row(p).Parent {
		if !t.isExpanded(p) {
			t.toggled[p], changed = true, true
		}
		changed = t.unhide(p) || changed
	}
	if changed {
		t.flatten()
	}
	if v := t.VisibleIndex(n); v >= 0 {
		t.Sel = v
	}
}

// Toggle expands or collapses the selected row (no-op on a leaf).
func (t *RowTree) Toggle() bool {
	n := t.Selected()
	if n < 0 || t.Rows.Row(n).End <= n+1 {
		return false
	}
	t.toggled[n] = !t.isExpanded(n)
	t.flatten()
	return true
}

// Move moves the selection by d rows, clamped.
func (t *RowTree) Move(d int) {
	if t.nvis == 0 {
		return
	}
	t.Sel = min(max(t.Sel+d, 0), t.nvis-1)
}

// Scroll keeps the selection on a screen of h rows, and the last screen
// full (no blank rows below the last row) unless Pin put the selected
// row first: then until the selection leaves that screen.
func (t *RowTree) Scroll(h int) {
	if h <= 0 {
		return
	}
	if t.Sel < t.Top || t.Sel >= t.Top+h {
		t.pinned = false
	}
	if t.Sel < t.Top {
		t.Top = t.Sel
	}
	if t.Sel >= t.Top+h {
		t.Top = t.Sel - h + 1
	}
	if !t.pinned {
		t.Top = min(t.Top, t.nvis-h)
	}
	t.Top = max(0, min(t.Top, t.nvis-1))
}

// Pin shows the selected row first on screen, even among the last rows
// (tracetui record's command, whose pid is among the highest).
func (t *RowTree) Pin() { t.Top, t.pinned = t.Sel, true }
