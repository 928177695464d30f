package gantt

import (
	"fmt"
	"strconv"
	"strings"

	bubblehelp "github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/screens/help"
	"github.com/tracetui/tracetui/tui/ui"
)

// Render draws the whole screen: the chrome (density strip, ruler, status
// and help lines) around the body of the stack's top view.
func (b *Gantt) Render() string {
	st := b.sh.Styles
	if b.loadErr != nil {
		return st.Error.Render("cannot read the process tree: "+b.loadErr.Error()) + "\n" + st.Dim.Render("press q to quit")
	}
	if b.tree() == nil {
		return st.Dim.Render("reading the process tree of " + b.trace.Name() + "…")
	}
	l := b.sh.Layout(b.showTable, b.tableLines)
	lines := make([]string, 0, b.sh.Height)
	lines = append(lines, b.stripLine(l))
	lines = append(lines, b.rulerLines(l)...)
	a := ui.Area{Width: b.sh.Width, Height: b.sh.PanelLines()}
	lines = append(lines, b.views.Body(a)...)
	lines = append(lines, b.statusLine(), b.helpLine())
	return strings.Join(lines, "\n")
}

// body draws the base: the Gantt, the details line and the table.
func (b *Gantt) body(l ui.ScreenLayout, legend bool) []string {
	lines := b.ganttLines(l)
	if legend {
		b.overlayLegend(lines, l)
	}
	lines = append(lines, ui.Fit(b.detailsText(), b.sh.Width))
	if l.TableEvents > 0 {
		lines = append(lines, b.table.View(ui.Area{Width: b.sh.Width, Height: l.TableEvents + 2})...)
	}
	return lines
}

// ViewWithLegend draws the base with the Gantt's legend.
func (b *Gantt) ViewWithLegend(ui.Area) []string {
	return b.body(b.sh.Layout(b.showTable, b.tableLines), true)
}

// drawCell is one cell ready to draw.
type drawCell struct {
	colour  uint8
	variant ui.CellVariant
	glyph   rune
	level   uint8 // counter rows: the value's height, 1 to 8 (0: a state)
	text    rune  // a character of a label written in the run (0: none)
}

// Counter levels, lowest to highest, in block characters and in ASCII.
var (
	levelBlocks = []string{"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"}
	levelASCII  = []string{".", ":", "-", "=", "+", "*", "#", "@"}
)

// ganttLines draws the row tree and the Gantt, one line per row.
func (b *Gantt) ganttLines(l ui.ScreenLayout) []string {
	st := b.sh.Styles
	t := b.tree()
	v := b.win
	f := b.frame
	frameRow := map[core.Key]int{}
	var colMap []int // current column -> frame column, -1 for none
	if f != nil {
		for i, k := range f.Keys {
			if k >= 0 {
				frameRow[k] = i
			}
		}
		colMap = make([]int, v.Cols)
		for c := range colMap {
			if f.Window == v {
				colMap[c] = c
				continue
			}
			mid := v.ColStart(c) + (v.ColEnd(c)-v.ColStart(c))/2
			colMap[c] = -1
			if mid >= f.Window.T0 && mid <= f.Window.T1 {
				colMap[c] = f.Window.ColOf(mid)
			}
		}
	}
	curCol := -1
	if b.cursor >= v.T0 && b.cursor <= v.T1 {
		curCol = v.ColOf(b.cursor)
	}
	selFrom, selTo := -1, -2
	if b.hasSel && b.selEnd >= v.T0 && b.selStart <= v.T1 {
		selFrom, selTo = v.ColOf(max(b.selStart, v.T0)), v.ColOf(min(b.selEnd, v.T1))
	}
	sep := "│"
	if st.ASCII {
		sep = ":" // "|" is the cursor
	}
	sep = st.Dim.Render(sep)
	cells := make([]drawCell, v.Cols)
	lines := make([]string, 0, l.GanttRows)
	var sb strings.Builder
	for i := range l.GanttRows {
		r := t.Top + i
		if r >= t.VisibleLen() {
			lines = append(lines, strings.Repeat(" ", l.TreeW)+sep)
			continue
		}
		n := new(t.Node(t.VisibleRow(r)))
		sb.Reset()
		sb.WriteString(b.treeCell(n, r == t.Sel, l.TreeW))
		sb.WriteString(sep)
		fr, ok := -1, false
		if f != nil && n.Key >= 0 {
			fr, ok = frameRow[n.Key]
		}
		for c := range cells {
			dc := drawCell{colour: frame.PalNone, glyph: ' '}
			if ok && colMap[c] >= 0 {
				fc := f.Cells[fr*f.Window.Cols+colMap[c]]
				if fc.Known {
					dc.colour, dc.glyph = fc.Paint.Colour, fc.Paint.Glyph
					if fc.Multi {
						dc.variant = ui.VariantMulti
					}
					dc.level = fc.Level
				}
			}
			switch {
			case c == curCol:
				dc.variant = ui.VariantCursor
			case c >= selFrom && c <= selTo:
				dc.variant += ui.VariantSelSolid // solid->sel solid, multi->sel multi
			}
			cells[c] = dc
		}
		if ok && f.Window == v && fr < len(f.Runs) {
			b.labelRuns(cells, f.Runs[fr])
		}
		b.writeCells(&sb, cells)
		lines = append(lines, sb.String())
	}
	return lines
}

// writeCells appends cells, merging runs that share a pen.
func (b *Gantt) writeCells(sb *strings.Builder, cells []drawCell) {
	st := b.sh.Styles
	for i := 0; i < len(cells); {
		c := cells[i]
		j := i + 1
		for j < len(cells) && cells[j] == c {
			j++
		}
		p := st.Pens[c.colour][c.variant]
		g := p.Glyph
		switch {
		case c.level > 0 && c.variant != ui.VariantCursor: // a counter: its height, in the row's colour
			v := ui.VariantMulti
			if c.variant == ui.VariantSelSolid || c.variant == ui.VariantSelMulti {
				v = ui.VariantSelMulti
			}
			p, g = st.Pens[c.colour][v], levelBlocks[c.level-1]
			if st.ASCII {
				g = levelASCII[c.level-1]
			}
		case c.text != 0 && c.variant == ui.VariantCursor:
			// The cursor on a label: the letter in reverse video, so
			// neither hides the other ("co|pile" read as "compile").
			p, g = st.Pens[c.colour][0], st.Reverse.Render(string(c.text))
		case c.text != 0:
			g = string(c.text)
		case g == "": // ASCII solid: the state's own glyph
			g = string(c.glyph)
		}
		sb.WriteString(p.Prefix)
		for range j - i {
			sb.WriteString(g)
		}
		sb.WriteString(p.Suffix)
		i = j
	}
}

// treeCell draws a row of the tree: indent, expander and "name tid".
func (b *Gantt) treeCell(n *frame.Node, selected bool, w int) string {
	st := b.sh.Styles
	exp := "  "
	if !n.Leaf {
		switch {
		case n.Expanded && st.ASCII:
			exp = "v "
		case n.Expanded:
			exp = "▾ "
		case st.ASCII:
			exp = "> "
		default:
			exp = "▸ "
		}
	}
	indent := strings.Repeat(" ", min(n.Depth, 6))
	if st.ASCII { // no colour, no attribute: a marker column says which row is selected
		mark := " "
		if selected {
			mark = ui.SelMarker
		}
		indent = mark + indent
	}
	text := ui.Fit(indent+exp+n.Label, w)
	switch {
	case selected && !b.table.focused:
		return st.TreeSelected.Render(text)
	case selected:
		return st.TreeMatch.Render(text)
	case n.Kind == frame.KindProcess:
		return st.TreeProcess.Render(text)
	}
	return text
}

// overlayLegend replaces the top-left of the Gantt with the colour legend.
func (b *Gantt) overlayLegend(lines []string, l ui.ScreenLayout) {
	st := b.sh.Styles
	d := frame.DomainThread
	if b.pane == frame.PaneResources {
		d = frame.DomainCPU
	}
	var rows []string
	for _, e := range frame.KernelLegend(d) {
		rows = append(rows, st.Swatch(e.Paint)+" "+e.Name)
	}
	if multi := st.Pens[frame.PalRunUser][ui.VariantMulti]; st.ASCII {
		rows = append(rows, "a column shows its longest state (zoom in)")
	} else {
		rows = append(rows, multi.Prefix+multi.Glyph+multi.Glyph+multi.Suffix+" changed more than once (zoom in)")
	}
	rows = append(rows, st.Dim.Render("strings: a colour per value"))
	box := strings.Split(st.Box.Render(strings.Join(rows, "\n")), "\n")
	prefixW := l.TreeW + 1
	for i, bl := range box {
		if i >= len(lines) {
			break
		}
		lines[i] = ui.FitANSI(lines[i], prefixW) + ui.PadStyled(bl, min(lipgloss.Width(bl), l.GanttW))
	}
}

// stateWords names the state v of row n: as the legend does, except
// that a kernel thread (kthreadd, its children, a CPU's idle thread)
// never runs in user mode, which the analysis says of every thread
// running outside a system call.
func (b *Gantt) stateWords(n *frame.Node, v core.Value) string {
	words := b.names.Describe(n.Key, n.Kind.Domain(), v)
	if n.Kind.Domain() != frame.DomainThread || v.Kind() != core.KindInt32 || core.ThreadStatus(v.Int()) != core.ThreadRunUser || n.Thread < 0 {
		return words
	}
	if strings.HasPrefix(n.Tid, "0_") {
		return "idle (the CPU's idle thread)"
	}
	ppid := core.Value{}
	if k, ok := b.hist.Attributes().Child(n.Thread, core.AttrPPID); ok && b.frame != nil {
		if iv, ok := b.frame.AtCursor[k]; ok && iv.Contains(b.cursor) {
			ppid = iv.Value
		}
	}
	if n.Tid == "2" || (!ppid.IsNull() && ppid.Int() == 2) {
		return "running (kernel thread)"
	}
	return words
}

// detailsText describes the selected row at the cursor.
func (b *Gantt) detailsText() string {
	t := b.tree()
	sel := t.Selected()
	if sel < 0 {
		return ""
	}
	n := new(t.Node(sel))
	parts := []string{n.Label}
	f := b.frame
	if f == nil {
		return n.Label + " · …"
	}
	if n.Kind == frame.KindSamples {
		return b.samplesText(n, f)
	}
	if n.Key >= 0 {
		if iv, ok := f.AtCursor[n.Key]; ok && iv.Contains(b.cursor) {
			parts = append(parts, fmt.Sprintf("%s %s→%s (%s)", b.stateWords(n, iv.Value),
				b.sh.RelTime(b.win.Start, iv.Start, frame.IntervalRes(iv, b.win.ColWidth())),
				b.sh.RelTime(b.win.Start, iv.End, frame.IntervalRes(iv, b.win.ColWidth())), core.FormatDuration(iv.Duration())))
		} else {
			parts = append(parts, "…")
		}
	}
	at := b.hist.Attributes()
	value := func(parent core.Key, attr string) (core.Value, bool) {
		k, ok := at.Child(parent, attr)
		if !ok {
			return core.Value{}, false
		}
		iv, ok := f.AtCursor[k]
		return iv.Value, ok && iv.Contains(b.cursor) && !iv.Value.IsNull()
	}
	if n.Thread >= 0 {
		if v, ok := value(n.Thread, core.AttrExecName); ok {
			parts = append(parts, "exec "+v.String())
		}
		if v, ok := value(n.Thread, core.AttrPPID); ok {
			parts = append(parts, "ppid "+v.String())
		}
		if v, ok := value(n.Thread, core.AttrSystemCall); ok {
			parts = append(parts, "syscall "+v.String())
		}
		if v, ok := value(n.Thread, core.AttrFlowIn); ok {
			parts = append(parts, "flow in "+v.String()+" ("+ui.K(b.sh.Keys.FlowJump)+")")
		}
		if v, ok := value(n.Thread, core.AttrFlowOut); ok {
			parts = append(parts, "flow out "+v.String()+" ("+ui.K(b.sh.Keys.FlowJump)+")")
		}
	}
	if f.Woken {
		parts = append(parts, b.wakerText(f.Woke))
	}
	if n.Kind == frame.KindCPU {
		if v, ok := value(n.Key, core.AttrCurrentThread); ok {
			// the idle thread is one row per CPU (swapper/1 0_1)
			cpu, _ := strconv.Atoi(at.Name(n.Key))
			parts = append(parts, "running "+b.threadNamed(core.ThreadName(v.Int(), int32(cpu))))
		}
	}
	return strings.Join(parts, " · ")
}

// zoomText is the zoom factor as the status line says it: "×2.5",
// "×16.4k", "×3.2M" (never "×1.64e+04").
func zoomText(f float64) string {
	switch {
	case f >= 1e6:
		return "×" + strconv.FormatFloat(f/1e6, 'g', 3, 64) + "M"
	case f >= 1e3:
		return "×" + strconv.FormatFloat(f/1e3, 'g', 3, 64) + "k"
	}
	return "×" + strconv.FormatFloat(f, 'g', 3, 64)
}

// statusLine: trace, range, zoom, cursor, selection, query time, warnings.
func (b *Gantt) statusLine() string {
	st := b.sh.Styles
	v := b.win
	name := b.trace.Name()
	if b.other != nil {
		name = "BASE " + name + " (NEW " + b.other.Name() + ")"
	}
	if b.opening.job.Running() {
		name += " (" + b.openingText() + ")"
	}
	parts := []string{
		name,
		fmt.Sprintf("%s–%s", b.RelTime(v.T0), b.RelTime(v.T1)),
		zoomText(v.ZoomFactor()),
		"cur " + b.RelTime(b.cursor),
	}
	if b.hasSel {
		parts = append(parts, "sel "+core.FormatDuration(b.selEnd-b.selStart+1))
	}
	if d, ok := b.marks.delta(); ok {
		parts = append(parts, "B−A "+d)
	}
	if t := b.tree(); b.idle.on && t != nil {
		parts = append(parts, fmt.Sprintf("%d idle hidden", t.Hidden()))
	}
	if f := b.frame; f != nil {
		parts = append(parts, fmt.Sprintf("q %.1fms %s", float64(f.Elapsed.Microseconds())/1000, f.Mode))
	}
	s := " " + strings.Join(parts, " │ ")
	if st.ASCII {
		s = " " + strings.Join(parts, " | ")
	}
	warn := ""
	switch {
	case b.info.NoEvents() != "":
		warn = " ! no events "
	case b.info.Discarded > 0:
		warn = fmt.Sprintf(" ! %d events discarded ", b.info.Discarded)
	case len(b.info.Warnings) > 0:
		warn = fmt.Sprintf(" ! %d warnings ", core.WarningCount(b.info.Warnings))
	}
	w := b.sh.Width - frame.Cells(warn)
	return st.Status.Render(ui.Fit(s, max(w, 0))) + st.Warning.Render(ui.Fit(warn, b.sh.Width-max(w, 0)))
}

// helpLine is the prompt while editing, else a message, else the short
// help.
func (b *Gantt) helpLine() string {
	st := b.sh.Styles
	switch {
	case b.views.Line() != "":
		return ui.FitANSI(b.views.Line(), b.sh.Width)
	case b.note != "" && b.noteIs == noteError:
		return st.Error.Render(ui.Fit(b.note, b.sh.Width))
	case b.note != "":
		return ui.Fit(b.note, b.sh.Width)
	}
	if h := b.views.Help(); h != "" {
		return st.Dim.Render(ui.Fit(h, b.sh.Width))
	}
	return b.shortHelp()
}

// shortHelp is the Gantt's help line: the keys of its focus.
func (b *Gantt) shortHelp() string {
	st := b.sh.Styles
	focus := keymap.FocusGantt
	if b.table.focused {
		focus = keymap.FocusTable
	}
	if b.helpW != b.sh.Width || b.helpFocus != focus { // rendered once per width and focus
		h := bubblehelp.New()
		h.Styles = st.Help
		h.Width = b.sh.Width
		// Clipped: bubbles adds every remaining item when the line is
		// exactly full and its ellipsis no longer fits.
		b.helpW, b.helpFocus = b.sh.Width, focus
		b.helpText = ui.FitANSI(h.ShortHelpView(help.HintBindings(&b.sh.Keys, focus)), b.sh.Width)
	}
	return b.helpText
}
