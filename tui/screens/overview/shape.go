package overview

import (
	"fmt"
	"math"

	"github.com/tracetui/tracetui/ingest/index/pstree"
	"github.com/tracetui/tracetui/ingest/query/aggregate"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/screens/overview/model"
)

// ovEntry is a top-level row of the tree with the rows under it.
type ovEntry struct {
	node int32
	rows []int32 // tree nodes with a status key
}

// BuildShape lists the rows of a tree with their hierarchy (Control Flow:
// process > thread; Resources: CPUs), coarsened to at most limit leaves.
func BuildShape(t *frame.RowTree, limit int) *model.Shape {
	var entries []ovEntry
	total := 0
	// One walk of the rows (depth-first): each root, then its children.
	var e ovEntry
	process := false
	flush := func() {
		if len(e.rows) > 0 {
			entries = append(entries, e)
			total += len(e.rows)
		}
	}
	t.Rows.ScanRecords(0, int32(t.Len()), func(i int32, r pstree.RowInfo) bool {
		switch {
		case r.Parent < 0:
			flush()
			e, process = ovEntry{node: i}, r.Kind == pstree.KindProcess
			if frame.IsStatusRow(r) {
				e.rows = append(e.rows, i)
			}
		case process && r.Parent == e.node && frame.IsStatusRow(r):
			e.rows = append(e.rows, i)
		}
		return true
	})
	flush()
	sh := &model.Shape{Hier: &aggregate.Hierarchy{Children: [][]int{nil}, Resource: []int{-1}}, NodeTree: []int32{-1}}
	newNode := func(parent int, tree int32) int {
		v := len(sh.Hier.Children)
		sh.Hier.Children = append(sh.Hier.Children, nil)
		sh.Hier.Resource = append(sh.Hier.Resource, -1)
		sh.NodeTree = append(sh.NodeTree, tree)
		sh.Hier.Children[parent] = append(sh.Hier.Children[parent], v)
		return v
	}
	addLeaf := func(parent int, l model.Leaf, rows []int32) {
		v := newNode(parent, l.Node)
		sh.Hier.Resource[v] = len(sh.Leaves)
		for _, r := range rows {
			sh.RowKeys = append(sh.RowKeys, t.Node(r).Key)
			sh.RowLeaf = append(sh.RowLeaf, int32(len(sh.Leaves)))
		}
		l.Rows = len(rows)
		sh.Leaves = append(sh.Leaves, l)
	}
	switch {
	case total <= limit: // every row is a leaf, under its process
		for _, e := range entries {
			if len(e.rows) == 1 {
				addLeaf(0, model.Leaf{Label: t.Node(e.rows[0]).Label, Node: e.rows[0]}, e.rows)
				continue
			}
			p := newNode(0, e.node)
			for _, r := range e.rows {
				d := 1
				if r == e.node {
					d = 0 // the leader thread is the process's own row
				}
				addLeaf(p, model.Leaf{Label: t.Node(r).Label, Node: r, Depth: d}, []int32{r})
			}
		}
	case len(entries) <= limit: // processes are leaves
		parent := bands(len(entries), func() int { return newNode(0, -1) })
		for i, e := range entries {
			label := t.Node(e.node).Label
			if len(e.rows) > 1 {
				label += fmt.Sprintf(" (%d)", len(e.rows))
			}
			addLeaf(parent(i), model.Leaf{Label: label, Node: e.node}, e.rows)
		}
		sh.Grouped = fmt.Sprintf("%d rows summed into their %d processes", total, len(entries))
	default: // groups of consecutive processes are leaves
		parent := bands(limit, func() int { return newNode(0, -1) })
		for g := range limit {
			a, z := g*len(entries)/limit, (g+1)*len(entries)/limit
			var rows []int32
			for _, e := range entries[a:z] {
				rows = append(rows, e.rows...)
			}
			label := t.Node(entries[a].node).Label
			if z-a > 1 {
				label += fmt.Sprintf(" +%d", z-a-1)
			}
			addLeaf(parent(g), model.Leaf{Label: label, Node: entries[a].node}, rows)
		}
		sh.Grouped = fmt.Sprintf("%d rows summed into %d groups", total, limit)
	}
	n := len(sh.Hier.Children)
	sh.First, sh.Last, sh.NodeRows = make([]int, n), make([]int, n), make([]int, n)
	for v := n - 1; v >= 0; v-- { // children are created after their parent
		if r := sh.Hier.Resource[v]; r >= 0 {
			sh.First[v], sh.Last[v], sh.NodeRows[v] = r, r, sh.Leaves[r].Rows
			continue
		}
		sh.First[v], sh.Last[v] = len(sh.Leaves), -1
		for _, c := range sh.Hier.Children[v] {
			sh.First[v], sh.Last[v] = min(sh.First[v], sh.First[c]), max(sh.Last[v], sh.Last[c])
			sh.NodeRows[v] += sh.NodeRows[c]
		}
	}
	return sh
}

// bands gives n consecutive leaves a level of parents between them and
// the root: bands of about sqrt(n) leaves (made by newBand), so that the
// spatiotemporal aggregation can sum neighbours without summing all (a
// flat root offers only "each leaf" or "everything"). Few leaves stay
// under the root. It returns the parent of the i-th leaf.
func bands(n int, newBand func() int) func(i int) int {
	if n <= MinBanded {
		return func(int) int { return 0 }
	}
	per := int(math.Ceil(math.Sqrt(float64(n))))
	parents := make([]int, 0, (n+per-1)/per)
	for range (n + per - 1) / per {
		parents = append(parents, newBand())
	}
	return func(i int) int { return parents[i/per] }
}

// MinBanded is the most leaves left flat under the root.
const MinBanded = 8
