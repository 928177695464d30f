package overview

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/screens/overview/model"
	"github.com/tracetui/tracetui/tui/ui"
)

// The overview screen as a view: its keys, its reports, its title, legend,
// help line and ruler marks. Computing is in package model, drawing the
// cells in draw.go.

// Screen is the overview screen, a view.
type Screen struct {
	sh       *ui.Shared
	Window   *frame.Window  // the Gantt's (read only: the ruler's times of columns)
	tree     *frame.RowTree // the rows aggregated (labels of the hierarchy's nodes)
	cache    *[2]*model.Result
	Spatial  bool
	job      ui.Job
	req      model.Request // the request shown or running
	note     string        // what the cost guard did
	progress string
	Res      *model.Result // shown (nil while computing)
	Cur      int           // index in res.parts
	Line     int           // cursor line (among the leaf lines)
	Col      int           // cursor column
	draw     *ovDrawing    // cells of res.parts[cur] at the current size
}

// On returns the report carrying the channel it came from (ui.WaitReport).
func (m ovMsg) On(ch <-chan ovMsg) ovMsg { m.ch = ch; return m }

// Close cancels a running computation.
func (ov *Screen) Close() { ov.job.Stop() }

// Update handles a key or a report.
func (ov *Screen) Update(msg tea.Msg) ui.Step {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return ov.key(msg)
	case ovMsg:
		return ov.gotReport(msg)
	}
	return ui.Step{}
}

// gotReport applies a report.
func (ov *Screen) gotReport(m ovMsg) ui.Step {
	if !ov.job.Current(m.seq) {
		return ui.Step{}
	}
	if m.res == nil {
		ov.progress = m.progress
		return ui.Step{Cmd: ui.WaitReport(m.ch)}
	}
	ov.job.Finish()
	if m.res.Err != nil {
		if !errors.Is(m.res.Err, context.Canceled) {
			return ui.Step{Done: true, Note: "overview failed: " + m.res.Err.Error(), Warn: true}
		}
		return ui.Step{}
	}
	ov.cache[boolIndex(m.res.Req.Spatial)] = m.res
	ov.show(m.res)
	return ui.Step{}
}

// show shows a result at its default partition.
func (ov *Screen) show(res *model.Result) {
	ov.Res, ov.Cur, ov.progress, ov.draw, ov.note = res, res.Def, "", nil, res.Plan.Note
}

// key handles a key on the overview screen.
func (ov *Screen) key(msg tea.KeyMsg) ui.Step {
	km := &ov.sh.Keys
	switch {
	case msg.Type == tea.KeyEsc:
		return ui.Step{Done: true}
	case key.Matches(msg, km.Overview, km.OverviewST):
		// The same kind closes; the other kind is opened by the base.
		return ui.Step{Done: true, Pass: key.Matches(msg, km.OverviewST) != ov.Spatial}
	case key.Matches(msg, km.Stats):
		return ui.Step{Done: true, Pass: true}
	case key.Matches(msg, km.Legend):
		return ui.Step{Open: &ui.LegendView{Sh: ov.sh, Host: ov}}
	}
	if ov.Res == nil {
		return ui.Step{Note: "the overview is being computed: esc cancels"}
	}
	d := ov.Drawing()
	switch {
	case key.Matches(msg, km.ZoomIn, km.ZoomOut):
		step1 := -1
		if key.Matches(msg, km.ZoomOut) {
			step1 = 1
		}
		next := ov.Cur + step1
		if next < 0 || next >= len(ov.Res.Parts) {
			return ui.Step{Note: "no finer or coarser partition: this is the last significant p"}
		}
		ov.Cur, ov.draw = next, nil
	case key.Matches(msg, km.Left):
		ov.Col = d.partEdge(ov.Line, ov.Col, -1)
	case key.Matches(msg, km.Right):
		ov.Col = d.partEdge(ov.Line, ov.Col, 1)
	case key.Matches(msg, km.Up):
		ov.Line--
	case key.Matches(msg, km.Down):
		ov.Line++
	case key.Matches(msg, km.PageUp):
		ov.Line -= d.lines
	case key.Matches(msg, km.PageDown):
		ov.Line += d.lines
	case key.Matches(msg, km.Top):
		ov.Line = 0
	case key.Matches(msg, km.Bottom):
		ov.Line = d.lines
	case key.Matches(msg, km.Toggle):
		return ov.zoomToPart()
	default:
		return ui.Step{Note: "overview: " + ov.Help()}
	}
	ov.Line = max(0, min(ov.Line, d.UsedLines-1))
	return ui.Step{}
}

// zoomToPart closes the overview and shows the part under the cursor in
// the Gantt: its time range, and (spatiotemporal) its rows.
func (ov *Screen) zoomToPart() ui.Step {
	d := ov.Drawing()
	a, ok := d.AreaAt(ov.Line, ov.Col)
	if !ok {
		return ui.Step{Note: "no part here"}
	}
	m := ov.Res.Model
	z := ui.ZoomMsg{Pane: ov.req.Pane, Node: -1, T0: m.Starts[a.Start], T1: m.Starts[a.End+1] - 1, What: "the part"}
	sh := ov.Res.Req.Shape
	if ov.Res.Req.Spatial {
		z.Node = sh.NodeTree[a.Node]
	} else if leaves := d.LineLeaves(ov.Line); len(leaves) > 0 {
		z.Node = sh.Leaves[leaves[0]].Node
	}
	return ui.Step{Done: true, Cmd: func() tea.Msg { return z }}
}

// title is the p line: kind, p (rank in the list), gain and
// loss, parts, slices, time and what the cost guard did.
func (ov *Screen) title() string {
	kind := "Temporal overview"
	if ov.Spatial {
		kind = "Spatiotemporal overview"
	}
	parts := []string{kind}
	if res := ov.Res; res != nil {
		p := res.Parts[ov.Cur]
		// Plain words first; the measures (p, gain and loss of
		// information) last, for who knows them, cut first when narrow.
		parts = append(parts,
			fmt.Sprintf("detail %d of %d", ov.Cur+1, len(res.Parts)),
			fmt.Sprintf("%d parts over %d time slices", len(p.Areas), res.Model.T))
		if ov.note != "" {
			parts[len(parts)-1] += " (" + ov.note + ")"
		}
		if res.Req.Shape.Grouped != "" {
			parts = append(parts, fmt.Sprintf("%d groups", len(res.Req.Shape.Leaves)))
		}
		if res.Truncated {
			parts = append(parts, "p list cut at "+strconv.Itoa(model.SpatialCalls)+" evaluations")
		}
		parts = append(parts, fmt.Sprintf("took %.0fms", float64(res.Elapsed.Microseconds())/1000),
			fmt.Sprintf("p %s gain %s loss %s", strconv.FormatFloat(p.P, 'g', 3, 64), strconv.FormatFloat(p.Gain, 'g', 3, 64),
				strconv.FormatFloat(p.Loss, 'g', 3, 64)))
	} else {
		parts = append(parts, ov.sh.RelTime(ov.Window.Start, ov.req.From, frame.RangeRes(ov.req.From, ov.req.To))+"–"+ov.sh.RelTime(ov.Window.Start, ov.req.To, frame.RangeRes(ov.req.From, ov.req.To)))
		if ov.note != "" {
			parts = append(parts, ov.note)
		}
	}
	if ov.sh.Styles.ASCII {
		return strings.Join(parts, " | ")
	}
	return strings.Join(parts, " · ")
}

// overlayLegend replaces the top-left of the cells with the overview's
// legend: the states met, the intensities, the hatch.
func (ov *Screen) overlayLegend(lines, prefixes []string, l ui.ScreenLayout) {
	st := ov.sh.Styles
	res := ov.Res
	m := res.Model
	domain := frame.DomainThread
	if res.Req.Pane == frame.PaneResources {
		domain = frame.DomainCPU
	}
	// The hatch and the intensities first: on a short screen the box is
	// cut, and the states are also listed by the Gantt's legend.
	h := st.Hatch
	rows := []string{h.Prefix + h.Glyph + h.Glyph + h.Suffix + " several parts in a cell: not data, zoom in"}
	sample := typePaint(m, domain, 0)
	if st.ASCII {
		rows = append(rows, "XXX part in state X: X fills >= 2/3 of it",
			"X== X fills >= 1/3, X-- less")
	} else {
		var lv strings.Builder
		for level := ui.NumLevels - 1; level >= 0; level-- {
			p := st.OvPens[sample.Colour][level][0]
			lv.WriteString(p.Prefix + "  " + p.Suffix + " ")
		}
		rows = append(rows, lv.String()+"dominant state fills ≥ 2/3, ≥ 1/3, less")
		start := st.OvPens[sample.Colour][ui.NumLevels-1][1]
		rows = append(rows, start.Prefix+start.Glyph+" "+start.Suffix+" first column of a part")
	}
	for j := range m.J {
		if j >= len(m.Values) && !(j == m.J-1 && m.Other) {
			continue
		}
		rows = append(rows, st.Swatch(typePaint(m, domain, j))+" "+typeName(m, domain, j))
	}
	box := strings.Split(st.Box.Render(strings.Join(rows, "\n")), "\n")
	for i, bl := range box {
		if i >= len(lines) || i >= len(prefixes) {
			break
		}
		lines[i] = prefixes[i] + ui.PadStyled(bl, min(lipgloss.Width(bl), l.GanttW))
	}
}

// Help is the overview screen's help line.
func (ov *Screen) Help() string {
	return ov.sh.Hint(keymap.FocusOverview)
}

// RulerMarks put the overview's cursor column, and the part under it, on
// the ruler.
func (ov *Screen) RulerMarks() (ui.RulerMarks, bool) {
	if ov.Res == nil {
		return ui.RulerMarks{}, false
	}
	v := *ov.Window
	m := ui.RulerMarks{MarkCol: -1, SelFrom: -1, SelTo: -2}
	d := ov.Drawing()
	col := max(0, min(ov.Col, d.Cols-1))
	m.CursorCol, m.CursorTime = col, v.ColStart(col)
	line := max(0, min(ov.Line, d.UsedLines-1))
	if d.UsedLines > 0 && d.Cells[line*d.Cols+col].Kind == cellPart {
		k := d.cellKey(line, col)
		m.SelFrom, m.SelTo = col, col
		for m.SelFrom > 0 && d.cellKey(line, m.SelFrom-1) == k {
			m.SelFrom--
		}
		for m.SelTo+1 < d.Cols && d.cellKey(line, m.SelTo+1) == k {
			m.SelTo++
		}
	}
	return m, true
}

// ovMsg is one report of a running computation.
type ovMsg struct {
	seq      uint64
	progress string
	res      *model.Result
	ch       <-chan ovMsg
}

// Input is what an overview is of: the pane's rows over the window
// (read through a pointer: the Gantt below may still zoom), where the last
// overview of each kind is kept for reopening, and the work budget.
type Input struct {
	Window  *frame.Window
	Tree    *frame.RowTree
	Cache   *[2]*model.Result
	Spatial bool
	Pane    int
	Hist    core.History
	GanttW  int     // the Gantt's width: at most one slice per column
	Budget  float64 // the aggregation's work budget
	Now     func() time.Time
}

// New opens (or reuses) the overview of the visible range and
// returns the command computing it; ok is false when the pane has no
// rows to aggregate.
func New(ctx context.Context, sh *ui.Shared, in Input) (ov *Screen, cmd tea.Cmd, ok bool) {
	// No more leaves than lines: a line holding several leaves hatches
	// every column where they split differently, which on a busy trace is
	// every column (and the extra leaves cost the aggregation dearly).
	shape := BuildShape(in.Tree, min(model.MaxLeaves, ovLeafLines(sh, in.Spatial)))
	if len(shape.Leaves) == 0 {
		return nil, nil, false
	}
	spatial, win := in.Spatial, *in.Window
	slices := model.TemporalSlices
	if spatial {
		slices = model.SpatialSlices
	}
	slices = int(min(int64(slices), int64(max(in.GanttW, 1)), int64(win.Span())))
	// The cost guard runs with the computation, off the UI goroutine: it
	// samples the rows' state changes first (see planFor).
	req := model.Request{Spatial: spatial, Pane: in.Pane, Hist: in.Hist, Shape: shape, From: win.T0, To: win.T1,
		Slices: slices, Budget: in.Budget, Workers: model.DefaultWorkers(), MaxCalls: model.SpatialCalls, Now: in.Now}
	ov = &Screen{sh: sh, Window: in.Window, tree: in.Tree, cache: in.Cache, Spatial: spatial, req: req}
	if c := in.Cache[boolIndex(spatial)]; c != nil && c.Req.SameAs(req) {
		ov.show(c)
		return ov, nil, true
	}
	ctx, seq := ov.job.Start(ctx)
	req.Seq = seq
	ov.req = req
	ov.progress = "reading the states…"
	return ov, ui.Spawn(4, func(ch chan<- ovMsg) {
		res := model.Compute(ctx, req, func(s string) {
			select { // a report the UI has not read yet is superseded
			case ch <- ovMsg{seq: req.Seq, progress: s}:
			default:
			}
		})
		select {
		case ch <- ovMsg{seq: req.Seq, res: res}:
		case <-ctx.Done():
		}
	}), true
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// treeLabel is a tree node's label (of the overview's view).
func (ov *Screen) treeLabel(n int32) string {
	t := ov.tree
	if t == nil || int(n) >= t.Len() {
		return ""
	}
	return t.Node(n).Label
}
