package gantt

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index/pstree"
	"github.com/tracetui/tracetui/ingest/query/aggregate"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/screens/overview"
	"github.com/tracetui/tracetui/tui/screens/overview/model"
	"github.com/tracetui/tracetui/tui/ui/headless"
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
	v := frame.Window{T0: from, T1: to, Cols: T}
	out := make([][]float64, len(keys))
	for i := range out {
		out[i] = make([]float64, T*model.MaxTypes)
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
				out[r][k*model.MaxTypes+j] += float64(e-s+1) * model.TicksPerSlice / float64(v.ColEnd(k)-v.ColStart(k)+1)
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
	tr := frametest.NewDemoTrace()
	hist := tr.Hist.(*core.MemHistory)
	for _, pane := range []int{frame.PaneControlFlow, frame.PaneResources} {
		hs := newHarness(t, tr, 100, 30, true)
		tree := hs.b().panes[pane].tree
		sh := overview.BuildShape(tree, model.MaxLeaves)
		from, to := frametest.DemoStart+1_234_567, frametest.DemoEnd-2_000_000
		const T = 37
		m, err := model.BuildModel(context.Background(), model.ModelRequest{Hist: hist, Shape: sh, From: from, To: to, Slices: T,
			Temporal: true, Workers: 2, Chunk: 3})
		if err != nil {
			t.Fatal(err)
		}
		want := bruteModel(t, hist, sh.RowKeys, from, to, T, m.Values)
		dense, _ := aggregate.NewModel(len(want), T, model.MaxTypes)
		for r, row := range want {
			for i, x := range row {
				if x > 0 {
					dense.Add(r, i/model.MaxTypes, i%model.MaxTypes, x)
				}
			}
		}
		for l := range sh.Leaves {
			sum := make([]float64, T*model.MaxTypes)
			for r, leaf := range sh.RowLeaf {
				if int(leaf) == l {
					for i, x := range want[r] {
						sum[i] += x
					}
				}
			}
			for i, x := range m.LeafRow(l) {
				if x != sum[i] {
					t.Fatalf("pane %d leaf %d (%s) cell %d: %g ticks, want %g", pane, l, sh.Leaves[l].Label, i, x, sum[i])
				}
			}
		}
		ref, _ := aggregate.NewTemporal(context.Background(), dense)
		got := m.Temporal.Temporal()
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
// into groups, in bands under the root; the hierarchy is always a tree
// over the leaves whose node ranges are contiguous.
func TestOverviewShapeCoarsening(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	tree := hs.b().panes[frame.PaneControlFlow].tree
	for _, c := range []struct {
		limit, leaves int
		grouped       bool
	}{{100, 12, false}, {10, 9, true}, {3, 3, true}} {
		sh := overview.BuildShape(tree, c.limit)
		if len(sh.Leaves) != c.leaves || (sh.Grouped != "") != c.grouped {
			t.Errorf("limit %d: %d leaves (grouped %q), want %d", c.limit, len(sh.Leaves), sh.Grouped, c.leaves)
		}
		if err := sh.Hier.Check(len(sh.Leaves)); err != nil {
			t.Fatalf("limit %d: %v", c.limit, err)
		}
		if c.grouped && len(sh.Leaves) > overview.MinBanded && len(sh.Hier.Children[0]) >= len(sh.Leaves) {
			t.Errorf("limit %d: %d summed leaves flat under the root, want bands between", c.limit, len(sh.Leaves))
		}
		if len(sh.RowKeys) != 12 || sh.NodeRows[0] != 12 {
			t.Errorf("limit %d: %d rows, root sums %d", c.limit, len(sh.RowKeys), sh.NodeRows[0])
		}
		for v := range sh.Hier.Children {
			n := 0
			for _, l := range sh.Leaves[sh.First[v] : sh.Last[v]+1] {
				n += l.Rows
			}
			if n != sh.NodeRows[v] {
				t.Errorf("limit %d node %d: leaves %d..%d hold %d rows, node %d", c.limit, v, sh.First[v], sh.Last[v], n, sh.NodeRows[v])
			}
		}
	}
	if sh := overview.BuildShape(tree, 100); sh.Leaves[4].Label != "Web Content 2001" || sh.Leaves[4].Depth != 1 {
		t.Errorf("leaf 4 = %+v, want the thread under firefox", sh.Leaves[4])
	}
}

// TestOverviewCostGuard: the title says when the cost guard reduced the
// slices (the plan itself is tested in package overview).
func TestOverviewCostGuard(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	hs.b().ovBudget = 1000
	hs.press("overview")
	ov := hs.ov()
	if ov.Res == nil || ov.Res.Model.T != model.MinSlices || ov.Res.Plan.Coarse { // one row per leaf: nothing to sum
		t.Fatalf("with a budget of 1000 steps: %+v", ov.Res.Plan)
	}
	if v := hs.view(); !strings.Contains(v, "work budget") {
		t.Errorf("the title does not say the budget cut the model:\n%s", v)
	}
}

// TestOverviewHatch: an overview has no more leaves than lines, but a
// screen made shorter afterwards has fewer lines than leaves: then a
// line holds several leaves, and a column where they are in different
// parts is hatched, never drawn as a state; the legend explains the
// hatch.
func TestOverviewHatch(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 80, 24, true)
	hs.press("overview_st")
	hs.Send(tea.WindowSizeMsg{Width: 80, Height: 14})
	ov := hs.ov()
	for ov.Cur > 0 { // the finest partition: leaves apart
		hs.press("zoom_in")
	}
	d := ov.Drawing()
	if d.UsedLines >= len(ov.Res.Req.Shape.Leaves) {
		t.Fatalf("%d lines for %d leaves: no line holds several", d.UsedLines, len(ov.Res.Req.Shape.Leaves))
	}
	hatched := 0
	for line := range d.UsedLines {
		for c := range d.Cols {
			cell := d.Cells[line*d.Cols+c]
			parts := map[int32]bool{}
			for _, leaf := range d.LineLeaves(line) {
				parts[d.PartOf[leaf*ov.Res.Model.T+d.ColSlice[c]]] = true
			}
			if (cell.Kind == overview.CellHatch) != (len(parts) > 1) {
				t.Fatalf("line %d col %d: kind %d for %d parts", line, c, cell.Kind, len(parts))
			}
			if cell.Kind == overview.CellHatch {
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
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	hs.press("overview_st")
	ov := hs.ov()
	for ov.Cur > 0 {
		hs.press("zoom_in")
	}
	hs.press("down")
	hs.press("down") // ls 1200
	hs.press("right")
	d := ov.Drawing()
	a, ok := d.AreaAt(ov.Line, ov.Col)
	if !ok {
		t.Fatal("no part under the cursor")
	}
	m := ov.Res.Model
	t0, t1 := m.Starts[a.Start], m.Starts[a.End+1]-1
	node := ov.Res.Req.Shape.NodeTree[a.Node]
	hs.press("toggle")
	b := hs.b()
	if hs.ov() != nil || b.win.T0 != t0 || b.win.T1 != t1 || b.cursor != t0 {
		t.Errorf("view [%d, %d] cursor %d, want the part [%d, %d]", b.win.T0, b.win.T1, b.cursor, t0, t1)
	}
	if got := b.tree().Selected(); got != node || hs.selectedLabel() != "ls 1200" {
		t.Errorf("selected %q (node %d), want the part's row ls 1200 (node %d)", hs.selectedLabel(), got, node)
	}
}

// TestOverviewSteps: + and - stop at the ends of the list of p with a
// message; the title line shows the partition's rank in words, then its
// p, gain and loss (wide enough a screen).
func TestOverviewSteps(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 160, 30, true)
	hs.press("overview")
	ov := hs.ov()
	n := len(ov.Res.Parts)
	for range n + 1 {
		hs.press("zoom_out")
	}
	last := ov.Res.Parts[n-1]
	if ov.Cur != n-1 || len(last.Areas) != 1 || !strings.Contains(hs.b().note, "last significant p") {
		t.Errorf("at the coarsest: partition %d/%d of %d parts, note %q", ov.Cur+1, n, len(last.Areas), hs.b().note)
	}
	for range n + 1 {
		hs.press("zoom_in")
	}
	if first := ov.Res.Parts[0]; ov.Cur != 0 || first.P != 0 || first.Loss != 0 {
		t.Errorf("at the finest: partition %d, p %g, loss %g", ov.Cur, first.P, first.Loss)
	}
	if v := hs.view(); !strings.Contains(v, "| detail 1 of ") || !strings.Contains(v, "| p 0 gain 0 loss 0") {
		t.Errorf("p line:\n%s", v)
	}
	for i := 1; i < n; i++ { // the dichotomy's list: increasing p, gain, loss
		a, b := ov.Res.Parts[i-1], ov.Res.Parts[i]
		if b.P <= a.P || b.Gain < a.Gain-1e-9 || b.Loss < a.Loss-1e-9 {
			t.Errorf("partition %d (p %g, gain %g, loss %g) after p %g, gain %g, loss %g", i, b.P, b.Gain, b.Loss, a.P, a.Gain, a.Loss)
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
	tr := frametest.NewDemoTrace()
	hs := newHarness(t, tr, 100, 30, true)
	h := &blockingHistory{History: tr.Hist, started: make(chan struct{}), ended: make(chan struct{})}
	b := hs.b()
	b.hist = h
	b.panes[frame.PaneControlFlow].tree = bigTree(b.panes[frame.PaneControlFlow].tree, 200) // enough rows for one query of >= 100 keys
	_, cmd := hs.m.Update(headless.Key("o"))
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
		hs.Send(m)
	}
	if topView[*overview.Screen](b) != nil {
		t.Error("a cancelled overview was shown")
	}
}

// bigTree returns a tree of n thread rows sharing the rows of t (keys
// repeat: enough for a query of many keys).
func bigTree(t *frame.RowTree, n int) *frame.RowTree {
	var rows []pstree.Row
	for i := range n {
		src := t.Node(int32(i % t.Len()))
		rows = append(rows, pstree.Row{Label: src.Label, Kind: pstree.KindThread, Key: int32(src.Key), Thread: int32(src.Thread), Parent: -1})
	}
	return frame.NewRowTree(frame.InMemoryRows(pstree.EncodeRows(rows, 0)), core.NewAttributeTree())
}
