package tui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/tracetui/tracetui/core"
)

// The overview screen as a view: its keys, its reports, its title, legend,
// help line and ruler marks. Computing is in overview.go, drawing the
// cells in overview_view.go.

// overviewScreen is the overview screen, a view.
type overviewScreen struct {
	sh       *shared
	tv       *timeView // the Gantt's (read only: the ruler's times of columns)
	tree     *rowTree  // the rows aggregated (labels of the hierarchy's nodes)
	cache    *[2]*ovResult
	spatial  bool
	job      job
	req      ovRequest // the request shown or running
	note     string    // what the cost guard did
	progress string
	res      *ovResult  // shown (nil while computing)
	cur      int        // index in res.parts
	line     int        // cursor line (among the leaf lines)
	col      int        // cursor column
	draw     *ovDrawing // cells of res.parts[cur] at the current size
}

func (m ovMsg) on(ch <-chan ovMsg) ovMsg { m.ch = ch; return m }

// Close cancels a running computation.
func (ov *overviewScreen) Close() { ov.job.stop() }

// Update handles a key or a report.
func (ov *overviewScreen) Update(msg tea.Msg) step {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return ov.key(msg)
	case ovMsg:
		return ov.gotReport(msg)
	}
	return step{}
}

// gotReport applies a report.
func (ov *overviewScreen) gotReport(m ovMsg) step {
	if !ov.job.current(m.seq) {
		return step{}
	}
	if m.res == nil {
		ov.progress = m.progress
		return step{cmd: waitReport(m.ch)}
	}
	ov.job.finish()
	if m.res.err != nil {
		if !errors.Is(m.res.err, context.Canceled) {
			return step{done: true, note: "overview failed: " + m.res.err.Error(), warn: true}
		}
		return step{}
	}
	ov.cache[boolIndex(m.res.req.spatial)] = m.res
	ov.show(m.res)
	return step{}
}

// show shows a result at its default partition.
func (ov *overviewScreen) show(res *ovResult) {
	ov.res, ov.cur, ov.progress, ov.draw, ov.note = res, res.def, "", nil, res.plan.note
}

// key handles a key on the overview screen.
func (ov *overviewScreen) key(msg tea.KeyMsg) step {
	km := &ov.sh.keys
	switch {
	case msg.Type == tea.KeyEsc:
		return step{done: true}
	case key.Matches(msg, km.Overview, km.OverviewST):
		// The same kind closes; the other kind is opened by the base.
		return step{done: true, pass: key.Matches(msg, km.OverviewST) != ov.spatial}
	case key.Matches(msg, km.Stats):
		return step{done: true, pass: true}
	case key.Matches(msg, km.Legend):
		return step{open: &legendView{sh: ov.sh, host: ov}}
	}
	if ov.res == nil {
		return step{note: "the overview is being computed: esc cancels"}
	}
	d := ov.drawing()
	switch {
	case key.Matches(msg, km.ZoomIn, km.ZoomOut):
		step1 := -1
		if key.Matches(msg, km.ZoomOut) {
			step1 = 1
		}
		next := ov.cur + step1
		if next < 0 || next >= len(ov.res.parts) {
			return step{note: "no finer or coarser partition: this is the last significant p"}
		}
		ov.cur, ov.draw = next, nil
	case key.Matches(msg, km.Left):
		ov.col = d.partEdge(ov.line, ov.col, -1)
	case key.Matches(msg, km.Right):
		ov.col = d.partEdge(ov.line, ov.col, 1)
	case key.Matches(msg, km.Up):
		ov.line--
	case key.Matches(msg, km.Down):
		ov.line++
	case key.Matches(msg, km.PageUp):
		ov.line -= d.lines
	case key.Matches(msg, km.PageDown):
		ov.line += d.lines
	case key.Matches(msg, km.Top):
		ov.line = 0
	case key.Matches(msg, km.Bottom):
		ov.line = d.lines
	case key.Matches(msg, km.Toggle):
		return ov.zoomToPart()
	default:
		return step{note: "overview: " + km.ZoomIn.Help().Key + "/" + km.ZoomOut.Help().Key + " finer/coarser p · ←/→ parts · enter zooms · c legend · esc closes"}
	}
	ov.line = max(0, min(ov.line, d.usedLines-1))
	return step{}
}

// zoomMsg asks the Gantt to show a time range and select a row of a view.
type zoomMsg struct {
	pane   int
	node   int32 // the row to select (-1: none)
	t0, t1 core.Time
}

// zoomToPart closes the overview and shows the part under the cursor in
// the Gantt: its time range, and (spatiotemporal) its rows.
func (ov *overviewScreen) zoomToPart() step {
	d := ov.drawing()
	a, ok := d.areaAt(ov.line, ov.col)
	if !ok {
		return step{note: "no part here"}
	}
	m := ov.res.model
	z := zoomMsg{pane: ov.req.pane, node: -1, t0: m.starts[a.Start], t1: m.starts[a.End+1] - 1}
	sh := ov.res.req.shape
	if ov.res.req.spatial {
		z.node = sh.nodeTree[a.Node]
	} else if leaves := d.lineLeaves(ov.line); len(leaves) > 0 {
		z.node = sh.leaves[leaves[0]].node
	}
	return step{done: true, cmd: func() tea.Msg { return z }}
}

// zoomTo applies a zoomMsg.
func (b *browser) zoomTo(z zoomMsg) tea.Cmd {
	if z.node >= 0 && z.pane == b.pane {
		t := b.tree()
		t.selectNode(z.node)
		t.top = t.sel
	}
	b.tv = b.tv.withRange(z.t0, z.t1-z.t0+1)
	b.setNote(noteInfo, "zoomed to the part "+b.relTime(z.t0)+"–"+b.relTime(z.t1))
	return b.moveCursor(z.t0, false)
}

// title is the p line: kind, p (rank in the list), gain and
// loss, parts, slices, time and what the cost guard did.
func (ov *overviewScreen) title() string {
	kind := "Temporal overview"
	if ov.spatial {
		kind = "Spatiotemporal overview"
	}
	parts := []string{kind}
	if res := ov.res; res != nil {
		p := res.parts[ov.cur]
		parts = append(parts,
			fmt.Sprintf("p %s (%d/%d)", strconv.FormatFloat(p.p, 'g', 6, 64), ov.cur+1, len(res.parts)),
			fmt.Sprintf("gain %s loss %s", strconv.FormatFloat(p.Gain, 'g', 4, 64), strconv.FormatFloat(p.Loss, 'g', 4, 64)),
			fmt.Sprintf("%d parts", len(p.areas)),
			fmt.Sprintf("|T| %d", res.model.T))
		if ov.note != "" {
			parts[len(parts)-1] += " (" + ov.note + ")"
		}
		if res.req.shape.grouped != "" {
			parts = append(parts, fmt.Sprintf("%d groups", len(res.req.shape.leaves)))
		}
		if res.truncated {
			parts = append(parts, "p list cut at "+strconv.Itoa(spatialCalls)+" evaluations")
		}
		parts = append(parts, fmt.Sprintf("%.0fms", float64(res.elapsed.Microseconds())/1000))
	} else {
		parts = append(parts, relTime(ov.tv.Start, ov.req.from)+"–"+relTime(ov.tv.Start, ov.req.to))
		if ov.note != "" {
			parts = append(parts, ov.note)
		}
	}
	if ov.sh.styles.ASCII {
		return strings.Join(parts, " | ")
	}
	return strings.Join(parts, " · ")
}

// overlayLegend replaces the top-left of the cells with the overview's
// legend: the states met, the intensities, the hatch.
func (ov *overviewScreen) overlayLegend(lines, prefixes []string, l screenLayout) {
	st := ov.sh.styles
	res := ov.res
	m := res.model
	domain := domainThread
	if res.req.pane == viewResources {
		domain = domainCPU
	}
	// The hatch and the intensities first: on a short screen the box is
	// cut, and the states are also listed by the Gantt's legend.
	h := st.hatch
	rows := []string{h.prefix + h.glyph + h.glyph + h.suffix + " several parts in a cell: not data, zoom in"}
	sample := typePaint(m, domain, 0)
	if st.ASCII {
		rows = append(rows, "XXX part in state X: X fills >= 2/3 of it",
			"X== X fills >= 1/3, X-- less")
	} else {
		var lv strings.Builder
		for level := numLevels - 1; level >= 0; level-- {
			p := st.ovPens[sample.colour][level][0]
			lv.WriteString(p.prefix + "  " + p.suffix + " ")
		}
		rows = append(rows, lv.String()+"dominant state fills ≥ 2/3, ≥ 1/3, less")
		start := st.ovPens[sample.colour][numLevels-1][1]
		rows = append(rows, start.prefix+start.glyph+" "+start.suffix+" first column of a part")
	}
	for j := range m.J {
		if j >= len(m.values) && !(j == m.J-1 && m.other) {
			continue
		}
		rows = append(rows, st.swatch(typePaint(m, domain, j))+" "+typeName(m, domain, j))
	}
	box := strings.Split(st.Box.Render(strings.Join(rows, "\n")), "\n")
	for i, bl := range box {
		if i >= len(lines) || i >= len(prefixes) {
			break
		}
		lines[i] = prefixes[i] + padStyled(bl, min(lipgloss.Width(bl), l.ganttW))
	}
}

// Help is the overview screen's help line.
func (ov *overviewScreen) Help() string {
	km := &ov.sh.keys
	return joinHelp(ov.sh.styles, k(km.ZoomIn)+" finer p", k(km.ZoomOut)+" coarser p", k(km.Left)+" "+k(km.Right)+" parts",
		k(km.Up)+" "+k(km.Down)+" rows", k(km.Toggle)+" zoom to part", k(km.Legend)+" legend", "esc close")
}

// rulerMarks put the overview's cursor column, and the part under it, on
// the ruler.
func (ov *overviewScreen) rulerMarks() (rulerMarks, bool) {
	if ov.res == nil {
		return rulerMarks{}, false
	}
	v := *ov.tv
	m := rulerMarks{markCol: -1, selFrom: -1, selTo: -2}
	d := ov.drawing()
	col := max(0, min(ov.col, d.cols-1))
	m.cursorCol, m.cursorTime = col, v.ColStart(col)
	line := max(0, min(ov.line, d.usedLines-1))
	if d.usedLines > 0 && d.cells[line*d.cols+col].kind == cellPart {
		k := d.cellKey(line, col)
		m.selFrom, m.selTo = col, col
		for m.selFrom > 0 && d.cellKey(line, m.selFrom-1) == k {
			m.selFrom--
		}
		for m.selTo+1 < d.cols && d.cellKey(line, m.selTo+1) == k {
			m.selTo++
		}
	}
	return m, true
}
