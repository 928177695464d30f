package overview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/aggregate"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/screens/overview/model"
	"github.com/tracetui/tracetui/tui/ui"
)

// Drawing the overview (the thesis's mode view, 5.6.4 and 6.4.3-4). The
// leaves of the hierarchy are stacked in lines, several leaves to a line
// when they outnumber the lines; columns are the Gantt's. A cell shows the
// part covering its line and column: in the colour of the part's dominant
// state, at one of three intensities for the share of the part's time
// spent in that state (its amplitude), with a thin mark on the part's
// first column. A cell covering several parts (a spatiotemporal line of
// leaves split differently) is drawn with the hatch glyph: never a state,
// and the legend says so. The temporal overview adds, above the lines,
// the parts of all rows together.

func levelOf(amp float64) uint8 {
	switch {
	case amp >= 2.0/3:
		return 2
	case amp >= 1.0/3:
		return 1
	}
	return 0
}

// ovCell is one drawn cell.
type ovCell struct {
	Kind   uint8 // cellEmpty, cellPart, cellHatch
	level  uint8
	start  bool // first column of its part on this line
	colour uint8
	glyph  rune
	area   int32 // the part (cellPart)
}

const (
	CellEmpty = iota
	cellPart
	CellHatch
)

// ovSummary is a part's (or a part on one line's) look and content.
type ovSummary struct {
	amounts []float64 // per type
	rows    int
	slices  int
	mode    int // dominant type, -1 when nothing is known
	amp     float64
}

// ovDrawing is the cells of one partition at one screen size.
type ovDrawing struct {
	part      int
	Cols      int
	lines     int      // leaf lines on screen
	UsedLines int      // lines holding leaves
	lineFirst []int    // line l holds leaves [lineFirst[l], lineFirst[l+1])
	ColSlice  []int    // slice of each column
	PartOf    []int32  // per leaf and slice: the index of its part
	Cells     []ovCell // lines*cols
	band      []ovCell // temporal: all rows
	bandSum   []ovSummary
	res       *model.Result
}

// LeafLines is how many lines the leaves get.
func (ov *Screen) LeafLines() int { return ovLeafLines(ov.sh, ov.Spatial) }

// ovLeafLines is how many lines an overview's leaves get on the screen.
func ovLeafLines(sh *ui.Shared, spatial bool) int {
	n := sh.PanelLines() - 2 // p line, details line
	if !spatial {
		n-- // the all-rows band
	}
	return max(n, 1)
}

// Drawing returns the cells of the shown partition, computing them when
// the partition or the size changed.
func (ov *Screen) Drawing() *ovDrawing {
	l := ov.sh.Layout(false, 0)
	if d := ov.draw; d != nil && d.part == ov.Cur && d.Cols == l.GanttW && d.lines == ov.LeafLines() {
		return d
	}
	ov.draw = NewDrawing(ov.Res, ov.Cur, l.GanttW, ov.LeafLines(), *ov.Window)
	return ov.draw
}

// NewDrawing lays a partition out.
func NewDrawing(res *model.Result, part, cols, lines int, tv frame.Window) *ovDrawing {
	m, sh := res.Model, res.Req.Shape
	L, T := len(sh.Leaves), m.T
	d := &ovDrawing{part: part, Cols: cols, lines: lines, res: res}
	d.UsedLines = min(L, lines)
	d.lineFirst = make([]int, d.UsedLines+1)
	for i := range d.lineFirst {
		d.lineFirst[i] = i * L / d.UsedLines
	}
	view := frame.Window{Start: tv.Start, End: tv.End, T0: res.Req.From, T1: res.Req.To, Cols: cols}
	d.ColSlice = make([]int, cols)
	for c := range cols {
		mid := view.ColStart(c) + (view.ColEnd(c)-view.ColStart(c))/2
		d.ColSlice[c] = max(sortSearch(m.Starts, mid)-1, 0)
	}
	p := &res.Parts[part]
	d.PartOf = make([]int32, L*T)
	for i, a := range p.Areas {
		for leaf := sh.First[a.Node]; leaf <= sh.Last[a.Node]; leaf++ {
			for t := a.Start; t <= a.End; t++ {
				d.PartOf[leaf*T+t] = int32(i)
			}
		}
	}
	d.Cells = make([]ovCell, d.UsedLines*cols)
	domain := frame.DomainThread
	if res.Req.Pane == frame.PaneResources {
		domain = frame.DomainCPU
	}
	if !res.Req.Spatial {
		// Each line's summary per part, and all rows' per part.
		d.bandSum = make([]ovSummary, len(p.Areas))
		for i, a := range p.Areas {
			d.bandSum[i] = summarize(m, sh, 0, L-1, a.Start, a.End)
		}
		d.band = make([]ovCell, cols)
		for c := range cols {
			x := d.PartOf[d.ColSlice[c]] // every leaf has the same parts
			d.band[c] = cellOf(&d.bandSum[x], x, domain, m)
		}
		markStarts(d.band)
		for line := range d.UsedLines {
			sums := make([]ovSummary, len(p.Areas))
			for i, a := range p.Areas {
				sums[i] = summarize(m, sh, d.lineFirst[line], d.lineFirst[line+1]-1, a.Start, a.End)
			}
			row := d.Cells[line*cols : (line+1)*cols]
			for c := range cols {
				x := d.PartOf[d.ColSlice[c]]
				row[c] = cellOf(&sums[x], x, domain, m)
			}
			markStarts(row)
		}
		return d
	}
	sums := make([]*ovSummary, len(p.Areas)) // computed for the areas drawn
	for line := range d.UsedLines {
		row := d.Cells[line*cols : (line+1)*cols]
		for c := range cols {
			t := d.ColSlice[c]
			first := d.PartOf[d.lineFirst[line]*T+t]
			hatch := false
			for leaf := d.lineFirst[line] + 1; leaf < d.lineFirst[line+1]; leaf++ {
				if d.PartOf[leaf*T+t] != first {
					hatch = true
					break
				}
			}
			if hatch {
				row[c] = ovCell{Kind: CellHatch, area: -1}
				continue
			}
			if sums[first] == nil {
				a := p.Areas[first]
				s := summarize(m, sh, sh.First[a.Node], sh.Last[a.Node], a.Start, a.End)
				sums[first] = &s
			}
			row[c] = cellOf(sums[first], first, domain, m)
		}
		markStarts(row)
	}
	return d
}

// sortSearch returns the number of starts <= t.
func sortSearch(starts []core.Time, t core.Time) int {
	i, _ := slices.BinarySearch(starts, t+1)
	return i
}

// summarize sums the amounts of leaves [l0, l1] over slices [i, k].
func summarize(m *model.Model, sh *model.Shape, l0, l1, i, k int) ovSummary {
	s := ovSummary{amounts: make([]float64, m.J), slices: k - i + 1, mode: -1}
	for leaf := l0; leaf <= l1; leaf++ {
		s.rows += sh.Leaves[leaf].Rows
		row := m.LeafRow(leaf)
		for t := i; t <= k; t++ {
			for j, v := range row[t*m.J : (t+1)*m.J] {
				s.amounts[j] += v
			}
		}
	}
	best := 0.0
	for j, v := range s.amounts {
		if v > best {
			s.mode, best = j, v
		}
	}
	if s.mode >= 0 && s.rows > 0 {
		s.amp = best / float64(s.rows*s.slices*model.TicksPerSlice)
	}
	return s
}

// typePaint is the look of a type of the model.
func typePaint(m *model.Model, domain frame.ValueDomain, j int) frame.Paint {
	if j >= len(m.Values) {
		return frame.Paint{Colour: frame.PalOther, Glyph: 'o'}
	}
	return frame.PaintOf(domain, m.Values[j])
}

// typeName names a type of the model.
func typeName(m *model.Model, domain frame.ValueDomain, j int) string {
	if j >= len(m.Values) {
		return "other values"
	}
	return frame.DescribeValue(domain, m.Values[j])
}

func cellOf(s *ovSummary, area int32, domain frame.ValueDomain, m *model.Model) ovCell {
	if s.mode < 0 {
		return ovCell{Kind: CellEmpty, area: area}
	}
	p := typePaint(m, domain, s.mode)
	return ovCell{Kind: cellPart, level: levelOf(s.amp), colour: p.Colour, glyph: p.Glyph, area: area}
}

// markStarts marks the first column of every part of a line.
func markStarts(row []ovCell) {
	for c := range row {
		row[c].start = row[c].Kind == cellPart && (c == 0 || row[c-1].area != row[c].area || row[c-1].Kind != cellPart)
	}
}

// LineLeaves returns the leaves of a line.
func (d *ovDrawing) LineLeaves(line int) []int {
	if line < 0 || line >= d.UsedLines {
		return nil
	}
	var out []int
	for l := d.lineFirst[line]; l < d.lineFirst[line+1]; l++ {
		out = append(out, l)
	}
	return out
}

// cellKey identifies what a cell shows, for moving part to part.
func (d *ovDrawing) cellKey(line, c int) int32 {
	cell := d.Cells[line*d.Cols+c]
	switch cell.Kind {
	case CellHatch:
		return -2
	case CellEmpty:
		return -1 // an empty stretch is one stop
	}
	return cell.area
}

// partEdge moves a column to the next part's first column (dir > 0) or
// to the current part's first column, or the previous one's when already
// there (dir < 0). Hatched columns are stepped one by one.
func (d *ovDrawing) partEdge(line, col, dir int) int {
	if d.UsedLines == 0 || d.Cols == 0 {
		return 0
	}
	line = max(0, min(line, d.UsedLines-1))
	col = max(0, min(col, d.Cols-1))
	k := d.cellKey(line, col)
	if dir > 0 {
		c := col + 1
		for k != -2 && c < d.Cols && d.cellKey(line, c) == k {
			c++
		}
		return min(c, d.Cols-1)
	}
	c := col
	if c > 0 && (k == -2 || d.cellKey(line, c-1) != k) {
		c-- // at the part's start: go to the previous part
		k = d.cellKey(line, c)
	}
	for k != -2 && c > 0 && d.cellKey(line, c-1) == k {
		c--
	}
	return c
}

// AreaAt returns the part under a cell (for a hatched cell, the part of
// the line's first leaf).
func (d *ovDrawing) AreaAt(line, col int) (aggregate.Area, bool) {
	if line < 0 || line >= d.UsedLines || col < 0 || col >= d.Cols {
		return aggregate.Area{}, false
	}
	T := d.res.Model.T
	x := d.PartOf[d.lineFirst[line]*T+d.ColSlice[col]]
	return d.res.Parts[d.part].Areas[x], true
}

// View draws the overview screen.
func (ov *Screen) View(a ui.Area) []string { return ov.render(a, false) }

// ViewWithLegend draws the overview screen with its legend.
func (ov *Screen) ViewWithLegend(a ui.Area) []string { return ov.render(a, true) }

// render draws the overview screen, with the legend or not.
func (ov *Screen) render(a ui.Area, legend bool) []string {
	st := ov.sh.Styles
	l := ov.sh.Layout(false, 0)
	n := a.Height
	lines := make([]string, 0, n)
	if ov.Res == nil {
		lines = append(lines, st.Title.Render(ui.Fit(ov.title(), a.Width)))
		msg := ov.progress
		if ov.note != "" {
			msg += " · " + ov.note
		}
		lines = append(lines, st.Dim.Render(ui.Fit(msg+" · esc cancels", a.Width)))
		for len(lines) < n {
			lines = append(lines, "")
		}
		return lines[:n]
	}
	d := ov.Drawing()
	ov.Line = max(0, min(ov.Line, d.UsedLines-1))
	ov.Col = max(0, min(ov.Col, d.Cols-1))
	lines = append(lines, st.Title.Render(ui.Fit(ov.title(), a.Width)))
	sep := st.Dim.Render("│")
	if st.ASCII {
		sep = st.Dim.Render(":")
	}
	var sb strings.Builder
	if !ov.Spatial {
		sb.WriteString(st.Bold.Render(ui.Fit(fmt.Sprintf("all %d rows", len(ov.Res.Req.Shape.RowKeys)), l.TreeW)))
		sb.WriteString(sep)
		ov.writeCells(&sb, d.band, -1)
		lines = append(lines, sb.String())
	}
	sh := ov.Res.Req.Shape
	var prefixes []string // each line's label and separator, for the legend
	if !ov.Spatial {
		prefixes = append(prefixes, lines[1][:strings.Index(lines[1], sep)+len(sep)])
	}
	for line := range d.lines {
		sb.Reset()
		if line >= d.UsedLines {
			lines = append(lines, strings.Repeat(" ", l.TreeW)+sep)
			prefixes = append(prefixes, lines[len(lines)-1])
			continue
		}
		leaves := d.LineLeaves(line)
		first := sh.Leaves[leaves[0]]
		text := ui.Fit(strings.Repeat(" ", min(first.Depth, 4))+first.Label, l.TreeW)
		if len(leaves) > 1 { // the count stays when the name is cut
			more := fmt.Sprintf(" (+%d)", len(leaves)-1)
			text = ui.Fit(ui.Trunc(first.Label, l.TreeW-len(more))+more, l.TreeW)
		}
		if line == ov.Line {
			text = st.TreeSelected.Render(text)
		}
		sb.WriteString(text)
		sb.WriteString(sep)
		prefixes = append(prefixes, sb.String())
		cur := -1
		if line == ov.Line {
			cur = ov.Col
		}
		ov.writeCells(&sb, d.Cells[line*d.Cols:(line+1)*d.Cols], cur)
		lines = append(lines, sb.String())
	}
	if legend {
		ov.overlayLegend(lines[1:], prefixes, l)
	}
	lines = append(lines, ui.Fit(ov.details(d), a.Width))
	for len(lines) < n {
		lines = append(lines, "")
	}
	return lines[:n]
}

// details describes the part under the cursor: its range, its
// rows and its three main states.
func (ov *Screen) details(d *ovDrawing) string {
	res := ov.Res
	if ov.Line >= d.UsedLines {
		return ""
	}
	cell := d.Cells[ov.Line*d.Cols+ov.Col]
	if cell.Kind == CellHatch {
		return "several parts in this cell (the hatch is not data): enter zooms the Gantt here"
	}
	a, ok := d.AreaAt(ov.Line, ov.Col)
	if !ok {
		return ""
	}
	m, sh := res.Model, res.Req.Shape
	l0, l1 := sh.First[a.Node], sh.Last[a.Node]
	if !res.Req.Spatial {
		leaves := d.LineLeaves(ov.Line)
		l0, l1 = leaves[0], leaves[len(leaves)-1]
	}
	s := summarize(m, sh, l0, l1, a.Start, a.End)
	t0, t1 := m.Starts[a.Start], m.Starts[a.End+1]-1
	parts := []string{fmt.Sprintf("%s–%s", ov.sh.RelTime(ov.Window.Start, t0, frame.RangeRes(t0, t1)), ov.sh.RelTime(ov.Window.Start, t1, frame.RangeRes(t0, t1)))}
	if res.Req.Spatial && a.Node == 0 {
		parts = append(parts, fmt.Sprintf("all %d rows", s.rows))
	} else {
		label := sh.Leaves[l0].Label
		if v := sh.NodeTree[a.Node]; res.Req.Spatial && sh.Hier.Resource[a.Node] < 0 && v >= 0 {
			label = ov.treeLabel(v)
		}
		parts = append(parts, fmt.Sprintf("%s (%d rows)", label, s.rows))
	}
	domain := frame.DomainThread
	if res.Req.Pane == frame.PaneResources {
		domain = frame.DomainCPU
	}
	capacity := float64(s.rows * s.slices * model.TicksPerSlice)
	order := make([]int, 0, len(s.amounts))
	for j, v := range s.amounts {
		if v > 0 {
			order = append(order, j)
		}
	}
	slices.SortFunc(order, func(x, y int) int {
		switch {
		case s.amounts[x] > s.amounts[y]:
			return -1
		case s.amounts[x] < s.amounts[y]:
			return 1
		}
		return x - y
	})
	for i, j := range order {
		if i == 3 {
			break
		}
		parts = append(parts, fmt.Sprintf("%s %.0f%%", typeName(m, domain, j), 100*s.amounts[j]/capacity))
	}
	if len(order) == 0 {
		parts = append(parts, "no state known")
	}
	return strings.Join(parts, " · ")
}

// writeCells appends a line of cells, runs of equal cells written with
// one pen; cur is the cursor's column (-1: none).
func (ov *Screen) writeCells(sb *strings.Builder, cells []ovCell, cur int) {
	for i := 0; i < len(cells); {
		j := i + 1
		for i != cur && j < len(cells) && j != cur && cells[j] == cells[i] {
			j++
		}
		p := ov.pen(cells[i], i == cur)
		sb.WriteString(p.Prefix)
		for k := i; k < j; k++ {
			if p.Glyph == "" { // ASCII: the state's own glyph
				sb.WriteRune(cells[k].glyph)
			} else {
				sb.WriteString(p.Glyph)
			}
		}
		sb.WriteString(p.Suffix)
		i = j
	}
}

// pen is how a cell is drawn.
func (ov *Screen) pen(cell ovCell, cursor bool) ui.Pen {
	st := ov.sh.Styles
	switch {
	case cursor && cell.Kind == cellPart:
		return st.Pens[cell.colour][ui.VariantCursor]
	case cursor:
		return st.Pens[frame.PalNone][ui.VariantCursor]
	case cell.Kind == CellHatch:
		return st.Hatch
	case cell.Kind == CellEmpty:
		return ui.Pen{Glyph: " "}
	}
	return st.OvPens[cell.colour][cell.level][boolIndex(cell.start)]
}
