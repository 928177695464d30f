package tui

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/aggregate"
)

// bruteModel computes the microscopic model of rows (status keys) over
// [from, to] in T slices directly from the definition: for every interval
// and slice, the overlap in ticks; amounts rounded per cell.
func bruteModel(t *testing.T, m *core.MemHistory, keys []core.Key, from, to core.Time, T int, values []core.Value) [][]float64 {
	t.Helper()
	typ := map[core.Value]int{}
	for j, v := range values {
		typ[v] = j
	}
	row := map[core.Key]int{}
	for i, k := range keys {
		row[k] = i
	}
	v := timeView{T0: from, T1: to, Cols: T}
	out := make([][]float64, len(keys))
	for i := range out {
		out[i] = make([]float64, T*maxTypes)
	}
	for _, iv := range m.Intervals() {
		r, ok := row[iv.Key]
		if !ok || iv.Value.IsNull() || !iv.Intersects(from, to) {
			continue
		}
		j, ok := typ[iv.Value]
		if !ok {
			t.Fatalf("value %v has no type in %v", iv.Value, values)
		}
		for k := range T {
			s, e := max(iv.Start, v.ColStart(k)), min(iv.End, v.ColEnd(k))
			if s <= e {
				out[r][k*maxTypes+j] += float64(e-s+1) * ticksPerSlice / float64(v.ColEnd(k)-v.ColStart(k)+1)
			}
		}
	}
	for _, r := range out {
		for i := range r {
			r[i] = math.Round(r[i])
		}
	}
	return out
}

// TestOverviewModelMatchesBruteForce builds the demo's model in chunks of
// 3 rows on 2 workers and compares the leaves' amounts and the temporal
// qualities with the definition.
func TestOverviewModelMatchesBruteForce(t *testing.T) {
	tr := newDemoTrace()
	hist := tr.hist.(*core.MemHistory)
	for _, pane := range []int{viewControlFlow, viewResources} {
		hs := newHarness(t, tr, 100, 30, true)
		tree := hs.b().panes[pane].tree
		sh := buildShape(tree, maxLeaves)
		from, to := demoStart+1_234_567, demoEnd-2_000_000
		const T = 37
		m, err := buildModel(context.Background(), ovModelRequest{hist: hist, shape: sh, from: from, to: to, slices: T,
			temporal: true, workers: 2, chunk: 3})
		if err != nil {
			t.Fatal(err)
		}
		want := bruteModel(t, hist, sh.rowKeys, from, to, T, m.values)
		dense, _ := aggregate.NewModel(len(want), T, maxTypes)
		for r, row := range want {
			for i, x := range row {
				if x > 0 {
					dense.Add(r, i/maxTypes, i%maxTypes, x)
				}
			}
		}
		for l := range sh.leaves {
			sum := make([]float64, T*maxTypes)
			for r, leaf := range sh.rowLeaf {
				if int(leaf) == l {
					for i, x := range want[r] {
						sum[i] += x
					}
				}
			}
			for i, x := range m.leafRow(l) {
				if x != sum[i] {
					t.Fatalf("pane %d leaf %d (%s) cell %d: %g ticks, want %g", pane, l, sh.leaves[l].label, i, x, sum[i])
				}
			}
		}
		ref, _ := aggregate.NewTemporal(context.Background(), dense)
		got := m.temporal.Temporal()
		for i := range T {
			for k := i; k < T; k++ {
				g, w := got.Quality(i, k), ref.Quality(i, k)
				if math.Abs(g.Gain-w.Gain) > 1e-9*math.Max(1, math.Abs(w.Gain)) || math.Abs(g.Loss-w.Loss) > 1e-9*math.Max(1, math.Abs(w.Loss)) {
					t.Fatalf("pane %d quality [%d, %d] = %+v, definition %+v", pane, i, k, g, w)
				}
			}
		}
	}
}

// TestOverviewShapeCoarsening: within the leaf budget every row is a
// leaf under its process; over it rows are summed into processes, then
// into groups; the hierarchy is always a tree over the leaves whose node
// ranges are contiguous.
func TestOverviewShapeCoarsening(t *testing.T) {
	hs := newHarness(t, newDemoTrace(), 100, 30, true)
	tree := hs.b().panes[viewControlFlow].tree
	for _, c := range []struct {
		limit, leaves int
		grouped       bool
	}{{100, 12, false}, {10, 9, true}, {3, 3, true}} {
		sh := buildShape(tree, c.limit)
		if len(sh.leaves) != c.leaves || (sh.grouped != "") != c.grouped {
			t.Errorf("limit %d: %d leaves (grouped %q), want %d", c.limit, len(sh.leaves), sh.grouped, c.leaves)
		}
		if err := sh.hier.Check(len(sh.leaves)); err != nil {
			t.Fatalf("limit %d: %v", c.limit, err)
		}
		if len(sh.rowKeys) != 12 || sh.nodeRows[0] != 12 {
			t.Errorf("limit %d: %d rows, root sums %d", c.limit, len(sh.rowKeys), sh.nodeRows[0])
		}
		for v := range sh.hier.Children {
			n := 0
			for _, l := range sh.leaves[sh.first[v] : sh.last[v]+1] {
				n += l.rows
			}
			if n != sh.nodeRows[v] {
				t.Errorf("limit %d node %d: leaves %d..%d hold %d rows, node %d", c.limit, v, sh.first[v], sh.last[v], n, sh.nodeRows[v])
			}
		}
	}
	if sh := buildShape(tree, 100); sh.leaves[4].label != "Web Content 2001" || sh.leaves[4].depth != 1 {
		t.Errorf("leaf 4 = %+v, want the thread under firefox", sh.leaves[4])
	}
}

// TestOverviewCostGuard: over budget the slices are reduced (then, for
// the temporal overview, rows summed into their groups), and the title
// says so.
func TestOverviewCostGuard(t *testing.T) {
	p := planOverview(false, 50_000, 256, 257, 100, 20, 5e8)
	if p.slices != 100 || p.coarse || p.note != "" {
		t.Errorf("the 50 k-thread benchmark trace must fit the default budget: %+v", p)
	}
	p = planOverview(false, 50_000, 256, 257, 100, 20, 1e8)
	if p.slices >= 100 || p.slices < minSlices || p.coarse || !strings.Contains(p.note, "|T| cut from 100") {
		t.Errorf("over budget: %+v", p)
	}
	p = planOverview(false, 1_000_000, 256, 257, 100, -1, 1e8)
	if !p.coarse || !strings.Contains(p.note, "rows summed into 256 groups") {
		t.Errorf("far over budget: %+v", p)
	}
	p = planOverview(true, 50_000, 256, 257, 30, 20, 1e7)
	if p.slices != minSlices || p.coarse {
		t.Errorf("spatiotemporal over budget: %+v", p)
	}

	hs := newHarness(t, newDemoTrace(), 100, 30, true)
	hs.b().ovBudget = 1000
	hs.press("overview")
	ov := hs.ov()
	if ov.res == nil || ov.res.model.T != minSlices || ov.res.plan.coarse { // one row per leaf: nothing to sum
		t.Fatalf("with a budget of 1000 steps: %+v", ov.res.plan)
	}
	if v := hs.view(); !strings.Contains(v, "work budget") {
		t.Errorf("the title does not say the budget cut the model:\n%s", v)
	}
}

// TestOverviewHatch: on a screen with fewer lines than leaves, a line
// holds several leaves, and a column where they are in different parts is
// hatched, never drawn as a state; the legend explains the hatch.
func TestOverviewHatch(t *testing.T) {
	hs := newHarness(t, newDemoTrace(), 80, 14, true)
	hs.press("overview_st")
	ov := hs.ov()
	for ov.cur > 0 { // the finest partition: leaves apart
		hs.press("zoom_in")
	}
	d := ov.drawing()
	if d.usedLines >= len(ov.res.req.shape.leaves) {
		t.Fatalf("%d lines for %d leaves: no line holds several", d.usedLines, len(ov.res.req.shape.leaves))
	}
	hatched := 0
	for line := range d.usedLines {
		for c := range d.cols {
			cell := d.cells[line*d.cols+c]
			parts := map[int32]bool{}
			for _, leaf := range d.lineLeaves(line) {
				parts[d.partOf[leaf*ov.res.model.T+d.colSlice[c]]] = true
			}
			if (cell.kind == cellHatch) != (len(parts) > 1) {
				t.Fatalf("line %d col %d: kind %d for %d parts", line, c, cell.kind, len(parts))
			}
			if cell.kind == cellHatch {
				hatched++
			}
		}
	}
	if hatched == 0 {
		t.Fatal("the finest partition hatches nothing")
	}
	v := hs.view()
	if !strings.Contains(v, "/") || !strings.Contains(v, " (+") {
		t.Errorf("no hatch or grouped line on screen:\n%s", v)
	}
	hs.press("legend")
	if v := hs.view(); !strings.Contains(v, "// several parts in a cell: not data") {
		t.Errorf("the legend does not explain the hatch:\n%s", v)
	}
}

// TestOverviewEnterZooms: enter shows the part under the cursor in the
// Gantt: its time range, and for a spatiotemporal part its rows.
func TestOverviewEnterZooms(t *testing.T) {
	hs := newHarness(t, newDemoTrace(), 100, 30, true)
	hs.press("overview_st")
	ov := hs.ov()
	for ov.cur > 0 {
		hs.press("zoom_in")
	}
	hs.press("down")
	hs.press("down") // ls 1200
	hs.press("right")
	d := ov.drawing()
	a, ok := d.areaAt(ov.line, ov.col)
	if !ok {
		t.Fatal("no part under the cursor")
	}
	m := ov.res.model
	t0, t1 := m.starts[a.Start], m.starts[a.End+1]-1
	node := ov.res.req.shape.nodeTree[a.Node]
	hs.press("toggle")
	b := hs.b()
	if hs.ov() != nil || b.tv.T0 != t0 || b.tv.T1 != t1 || b.cursor != t0 {
		t.Errorf("view [%d, %d] cursor %d, want the part [%d, %d]", b.tv.T0, b.tv.T1, b.cursor, t0, t1)
	}
	if got := b.tree().selected(); got != node || hs.selectedLabel() != "ls 1200" {
		t.Errorf("selected %q (node %d), want the part's row ls 1200 (node %d)", hs.selectedLabel(), got, node)
	}
}

// TestOverviewSteps: + and - stop at the ends of the list of p with a
// message; the p line shows the partition's p, rank, gain and loss.
func TestOverviewSteps(t *testing.T) {
	hs := newHarness(t, newDemoTrace(), 100, 30, true)
	hs.press("overview")
	ov := hs.ov()
	n := len(ov.res.parts)
	for range n + 1 {
		hs.press("zoom_out")
	}
	last := ov.res.parts[n-1]
	if ov.cur != n-1 || len(last.areas) != 1 || !strings.Contains(hs.b().note, "last significant p") {
		t.Errorf("at the coarsest: partition %d/%d of %d parts, note %q", ov.cur+1, n, len(last.areas), hs.b().note)
	}
	for range n + 1 {
		hs.press("zoom_in")
	}
	if first := ov.res.parts[0]; ov.cur != 0 || first.p != 0 || first.Loss != 0 {
		t.Errorf("at the finest: partition %d, p %g, loss %g", ov.cur, first.p, first.Loss)
	}
	if v := hs.view(); !strings.Contains(v, "p 0 (1/") || !strings.Contains(v, "loss 0") {
		t.Errorf("p line:\n%s", v)
	}
	for i := 1; i < n; i++ { // the dichotomy's list: increasing p, gain, loss
		a, b := ov.res.parts[i-1], ov.res.parts[i]
		if b.p <= a.p || b.Gain < a.Gain-1e-9 || b.Loss < a.Loss-1e-9 {
			t.Errorf("partition %d (p %g, gain %g, loss %g) after p %g, gain %g, loss %g", i, b.p, b.Gain, b.Loss, a.p, a.Gain, a.Loss)
		}
	}
}

// blockingHistory's Query2D waits for its context to end.
type blockingHistory struct {
	core.History
	started, ended chan struct{}
}

func (h *blockingHistory) Query2D(ctx context.Context, keys []core.Key, t0, t1 core.Time, fn func(core.Interval) bool) (core.QueryStats, error) {
	if len(keys) < 100 { // frames and the process tree pass through
		return h.History.Query2D(ctx, keys, t0, t1, fn)
	}
	close(h.started)
	<-ctx.Done()
	close(h.ended)
	return core.QueryStats{}, ctx.Err()
}

// TestOverviewCancel: esc while the model is read cancels the query, and
// the computation's late answer is dropped.
func TestOverviewCancel(t *testing.T) {
	tr := newDemoTrace()
	hs := newHarness(t, tr, 100, 30, true)
	h := &blockingHistory{History: tr.hist, started: make(chan struct{}), ended: make(chan struct{})}
	b := hs.b()
	b.hist = h
	b.panes[viewControlFlow].tree = bigTree(b.panes[viewControlFlow].tree, 200) // enough rows for one query of >= 100 keys
	_, cmd := hs.m.Update(keyMsg("o"))
	msgs := make(chan tea.Msg, 1)
	go func() { msgs <- cmd() }()
	<-h.started
	if v := hs.view(); !strings.Contains(v, "reading the states") || !strings.Contains(v, "esc cancels") {
		t.Errorf("no progress while computing:\n%s", v)
	}
	hs.keys("esc")
	select {
	case <-h.ended:
	case <-time.After(10 * time.Second):
		t.Fatal("esc did not cancel the query")
	}
	if m := <-msgs; m != nil {
		hs.send(m)
	}
	if topView[*overviewScreen](b) != nil {
		t.Error("a cancelled overview was shown")
	}
}

// bigTree returns a tree of n thread rows sharing the rows of t (keys
// repeat: enough for a query of many keys).
func bigTree(t *rowTree, n int) *rowTree {
	var nodes []node
	for i := range n {
		src := t.nodes[i%len(t.nodes)]
		nodes = append(nodes, node{label: src.label, tid: "", kind: kindThread, key: src.key, thread: src.thread, parent: -1})
	}
	return newRowTree(nodes, nil)
}
