package gantt

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/index/pstree"
	"github.com/tracetui/tracetui/tui/frame"
)

// eagerTree is the reference: the row tree as the browser kept it before
// rows were read on demand, one object per row with its children and its
// expansion, flattened whole after every change.
type eagerTree struct {
	rows     []pstree.Row
	children [][]int32
	roots    []int32
	expanded []bool
	order    []int32 // depth-first
	pos      []int32 // row -> index in order
	visible  []int32
	hidden   map[int32]bool // rows hidden with their subtrees
	sel      int
}

func newEagerTree(rows []pstree.Row) *eagerTree {
	t := &eagerTree{rows: rows, children: make([][]int32, len(rows)), expanded: make([]bool, len(rows)), pos: make([]int32, len(rows))}
	for i, r := range rows {
		t.expanded[i] = r.Expanded
		if r.Parent < 0 {
			t.roots = append(t.roots, int32(i))
		} else {
			t.children[r.Parent] = append(t.children[r.Parent], int32(i))
		}
	}
	id := func(r *pstree.Row) string {
		if r.TIDLen > 0 {
			return r.Label[len(r.Label)-r.TIDLen:]
		}
		return r.Label[strings.LastIndexByte(r.Label, ' ')+1:]
	}
	less := func(a, b int32) int {
		x, y := &rows[a], &rows[b]
		if c := cmp.Compare(x.Rank, y.Rank); c != 0 || !x.ByID || !y.ByID {
			return c
		}
		p, errP := strconv.ParseInt(id(x), 10, 64)
		q, errQ := strconv.ParseInt(id(y), 10, 64)
		switch {
		case errP == nil && errQ == nil:
			return cmp.Compare(p, q)
		case errP == nil:
			return -1
		case errQ == nil:
			return 1
		}
		return cmp.Compare(id(x), id(y))
	}
	slices.SortStableFunc(t.roots, less)
	for i := range t.children {
		slices.SortStableFunc(t.children[i], less)
	}
	var walk func(i int32)
	walk = func(i int32) {
		t.pos[i] = int32(len(t.order))
		t.order = append(t.order, i)
		for _, c := range t.children[i] {
			walk(c)
		}
	}
	for _, r := range t.roots {
		walk(r)
	}
	t.flatten()
	return t
}

func (t *eagerTree) selected() int32 {
	if t.sel < 0 || t.sel >= len(t.visible) {
		return -1
	}
	return t.visible[t.sel]
}

func (t *eagerTree) flatten() {
	selNode := t.selected()
	t.visible = t.visible[:0]
	var walk func(i int32)
	walk = func(i int32) {
		if t.hidden[i] {
			return
		}
		t.visible = append(t.visible, i)
		if t.expanded[i] {
			for _, c := range t.children[i] {
				walk(c)
			}
		}
	}
	for _, r := range t.roots {
		walk(r)
	}
	t.sel = 0
	for n := selNode; n >= 0; n = t.rows[n].Parent {
		if i := slices.Index(t.visible, n); i >= 0 {
			t.sel = i
			return
		}
	}
}

func (t *eagerTree) selectNode(n int32) {
	delete(t.hidden, n)
	for p := t.rows[n].Parent; p >= 0; p = t.rows[p].Parent {
		t.expanded[p] = true
		delete(t.hidden, p)
	}
	t.flatten()
	t.sel = slices.Index(t.visible, n)
}

func (t *eagerTree) toggle() bool {
	n := t.selected()
	if n < 0 || len(t.children[n]) == 0 {
		return false
	}
	t.expanded[n] = !t.expanded[n]
	t.flatten()
	return true
}

// findPatterns are the finds of TestRowTreeMatchesEager: literals, literal
// prefixes, anchors at either end, word boundaries, a case-insensitive one,
// an alternation, no match.
var findPatterns = []string{"1", "^b", "main", "depth", "7$", "zz", `\b1`, `^1`, `(?i)MAIN`, `h 1`, `[0-9]$`, `\B1`, `b.m`, `1[0-9]`, `x y|w`}

// findIn runs the browser's find on t, in the foreground.
func findIn(t *frame.RowTree, re *regexp.Regexp, back bool) (int32, int, int) {
	n, at, total, err := findRow(context.Background(), t.Rows, newRowMatcher(re), max(t.Selected(), 0), back)
	if err != nil {
		panic(err) // a background context is never done
	}
	return n, at, total
}

// find is the browser's find then its match count, as they were.
func (t *eagerTree) find(re *regexp.Regexp, back bool) (int32, int, int) {
	n := t.findRow(re, back)
	at, total := 0, 0
	for _, m := range t.order {
		if t.matches(re, m) {
			total++
			if m == n {
				at = total
			}
		}
	}
	return n, at, total
}

func (t *eagerTree) matches(re *regexp.Regexp, i int32) bool {
	r := &t.rows[i]
	return re.MatchString(r.Label) || (r.TIDLen > 0 && re.MatchString(r.Label[len(r.Label)-r.TIDLen:]))
}

func (t *eagerTree) findRow(re *regexp.Regexp, back bool) int32 {
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
		if t.matches(re, t.order[j]) {
			return t.order[j]
		}
	}
	return -1
}

// randomRows returns a random forest of rows: processes, threads, call
// stacks and tracks, numeric and other ids, some repeated, some closed.
func randomRows(r *rand.Rand) []pstree.Row {
	n := r.IntN(40)
	rows := make([]pstree.Row, 0, n)
	ids := []string{"1", "2", "10", "007", "-3", "a", "b.main", "x y"}
	for i := range n {
		row := pstree.Row{Kind: pstree.Kind(r.IntN(8)), Key: int32(r.IntN(50)) - 1, Thread: int32(r.IntN(50)) - 1, Parent: -1,
			Expanded: r.IntN(3) > 0, Rank: uint8(r.IntN(3)), ByID: r.IntN(4) > 0}
		if i > 0 && r.IntN(4) > 0 {
			row.Parent = int32(r.IntN(i))
		}
		id := ids[r.IntN(len(ids))]
		if r.IntN(3) == 0 {
			id = strconv.Itoa(r.IntN(1000))
		}
		if r.IntN(2) == 0 {
			row.Label, row.TIDLen = []string{"", "bash ", "w "}[r.IntN(3)]+id, len(id)
		} else {
			row.Label = "depth " + id
		}
		rows = append(rows, row)
	}
	return rows
}

// TestRowTreeMatchesEager: after random moves, expansions, collapses
// (one row or all), hidden rows, selections and finds on random trees, the tree read on demand shows the
// same rows, in the same order, with the same selection, as the eager
// tree (TRACETUI_SEED replays a run).
func TestRowTreeMatchesEager(t *testing.T) {
	r := coretest.Rand(t)
	for range 200 {
		rows := randomRows(r)
		ref := newEagerTree(rows)
		lazy := frame.NewRowTree(frame.InMemoryRows(pstree.EncodeRows(rows, 0)), core.NewAttributeTree())
		var log []string
		check := func() {
			t.Helper()
			if lazy.VisibleLen() != len(ref.visible) {
				t.Fatalf("after %v: %d visible rows, want %d", log, lazy.VisibleLen(), len(ref.visible))
			}
			for v, want := range ref.visible {
				if got := lazy.VisibleRow(v); got != ref.pos[want] {
					t.Fatalf("after %v: visible row %d is row %d, want %d (%q)", log, v, got, ref.pos[want], rows[want].Label)
				}
				if got, want := lazy.VisibleIndex(ref.pos[want]), v; got != want {
					t.Fatalf("after %v: row %d at visible index %d, want %d", log, ref.pos[want], got, v)
				}
				n := lazy.Node(ref.pos[want])
				if n.Label != rows[want].Label || n.Expanded != ref.expanded[want] || n.Leaf != (len(ref.children[want]) == 0) {
					t.Fatalf("after %v: row %d is %+v, want %+v", log, v, n, rows[want])
				}
			}
			if lazy.Sel != ref.sel {
				t.Fatalf("after %v: selection %d, want %d", log, lazy.Sel, ref.sel)
			}
		}
		check()
		for range 30 {
			switch op := r.IntN(8); op {
			case 7:
				ref.hidden = map[int32]bool{}
				var lz []int32
				for n := range rows {
					if r.IntN(5) == 0 {
						ref.hidden[int32(n)] = true
						lz = append(lz, ref.pos[n])
					}
				}
				slices.Sort(lz)
				log = append(log, fmt.Sprintf("hide %v", lz))
				lazy.SetHidden(lz)
				ref.flatten()
			case 5:
				log = append(log, "expand all")
				lazy.ExpandAll()
				for i := range ref.expanded {
					ref.expanded[i] = true
				}
				ref.flatten()
			case 6:
				log = append(log, "collapse all")
				lazy.CollapseAll()
				for i := range ref.expanded {
					ref.expanded[i] = rows[i].Expanded
				}
				for _, root := range ref.roots {
					if len(ref.children[root]) > 0 {
						ref.expanded[root] = false
					}
				}
				ref.flatten()
			case 0:
				d := r.IntN(11) - 5
				log = append(log, "move "+strconv.Itoa(d))
				lazy.Move(d)
				if len(ref.visible) > 0 {
					ref.sel = min(max(ref.sel+d, 0), len(ref.visible)-1)
				}
			case 1:
				log = append(log, "toggle")
				if a, b := lazy.Toggle(), ref.toggle(); a != b {
					t.Fatalf("after %v: toggle %v, want %v", log, a, b)
				}
			case 2:
				if len(rows) == 0 {
					continue
				}
				n := int32(r.IntN(len(rows)))
				log = append(log, "select "+rows[n].Label)
				lazy.SelectNode(ref.pos[n])
				ref.selectNode(n)
			case 3, 4:
				re := regexp.MustCompile(findPatterns[r.IntN(len(findPatterns))])
				back := op == 4
				log = append(log, "find "+re.String())
				got, at, total := findIn(lazy, re, back)
				want, wantAt, wantTotal := ref.find(re, back)
				if (want < 0) != (got < 0) || (want >= 0 && got != ref.pos[want]) || at != wantAt || total != wantTotal {
					t.Fatalf("after %v: found %d, match %d of %d; want %d, match %d of %d", log, got, at, total, want, wantAt, wantTotal)
				}
				if want >= 0 {
					lazy.SelectNode(got)
					ref.selectNode(want)
				}
			}
			check()
		}
	}
}

// TestChildrenOfLargeProcess: the children of a process of thousands of
// threads (read in one walk) are its threads in order, not their call
// stacks.
func TestChildrenOfLargeProcess(t *testing.T) {
	rows := []pstree.Row{{Label: "burn 1", TIDLen: 1, Kind: pstree.KindProcess, Key: 0, Thread: 0, Parent: -1, Expanded: true, Rank: 2, ByID: true}}
	const threads = 3 * frame.SmallSubtree
	for i := range threads {
		tid := strconv.Itoa(i + 2)
		rows = append(rows, pstree.Row{Label: "burn " + tid, TIDLen: len(tid), Kind: pstree.KindThread, Key: int32(i + 1), Thread: int32(i + 1), Parent: 0, Rank: 2, ByID: true})
		rows = append(rows, pstree.Row{Label: "depth 1", Kind: pstree.KindCallStack, Key: -1, Thread: int32(i + 1), Parent: int32(len(rows) - 1)})
	}
	tree := frame.NewRowTree(frame.InMemoryRows(pstree.EncodeRows(rows, 0)), core.NewAttributeTree())
	kids := tree.Children(0)
	if len(kids) != threads {
		t.Fatalf("%d children, want %d", len(kids), threads)
	}
	for i, c := range kids {
		if n := tree.Node(c); n.Label != "burn "+strconv.Itoa(i+2) || n.Parent != 0 {
			t.Fatalf("child %d is row %d %+v", i, c, n)
		}
	}
}
