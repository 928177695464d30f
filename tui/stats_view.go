package tui

import (
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/ui"
)

// heights splits the panel (less its title line) among the summary
// tables: an equal share each, a table with fewer lines lending the rest
// to the focused one. An analysis table has the whole panel. Each height
// counts the header line.
func (s *statsScreen) heights() [numStatsTables]int {
	avail := s.sh.PanelLines() - 1
	var h [numStatsTables]int
	if avail < 2*numSummaryTables || s.focus >= numSummaryTables { // the focused one alone (tab cycles)
		h[s.focus] = max(avail, 1)
		return h
	}
	spare := avail
	for i := range numSummaryTables {
		h[i] = max(min(avail/numSummaryTables, len(s.tables[i].lines)+1), 2)
		spare -= h[i]
	}
	// The spare lines go to the focused table, then to the others, as
	// far as they have lines to show; what is left stays blank.
	for _, i := range []int{s.focus, (s.focus + 1) % numSummaryTables, (s.focus + 2) % numSummaryTables} {
		more := min(max(len(s.tables[i].lines)+1-h[i], 0), max(spare, 0))
		h[i] += more
		spare -= more
	}
	return h
}

// statsWidths gives the name column what the numeric ones leave.
func statsWidths(cols []statsCol, w int) []int {
	ws := make([]int, len(cols))
	used := len(cols) - 1 // one space between columns
	for i, c := range cols {
		switch c.kind {
		case colDuration:
			ws[i] = 12
		case colCount:
			ws[i] = 11
		case colPercent:
			ws[i] = 7
		}
		used += ws[i]
	}
	ws[0] = max(w-used, 6)
	return ws
}

// View draws the statistics screen.
func (s *statsScreen) View(a ui.Area) []string {
	w := a.Width
	lines := []string{s.sh.RangeTitle("Statistics of the "+s.what, s.start, s.from, s.to, w)}
	hs := s.heights()
	t := &s.tables[s.focus]
	var hist string
	if t.cur < len(t.lines) && t.lines[t.cur].hist != nil && hs[s.focus] > 2 {
		hs[s.focus]-- // the selected line's histogram under the table
		hist = histogramLine(t.lines[t.cur].name, t.lines[t.cur].hist, s.sh.Styles.ASCII, w)
	}
	for i, h := range hs {
		if h > 0 {
			lines = append(lines, s.tableLines(i, h, w)...)
		}
		if i == s.focus && hist != "" {
			lines = append(lines, hist)
		}
	}
	return ui.FillLines(lines, a.Height)
}

// tableLines draws one table in h lines: header, then its lines
// from the scroll position (or its status).
func (s *statsScreen) tableLines(i, h, w int) []string {
	st := s.sh.Styles
	t := &s.tables[i]
	ws := statsWidths(t.cols, w)
	down, up := " ↓", " ↑"
	if st.ASCII {
		down, up = " v", " ^"
	}
	var head strings.Builder
	for c, col := range t.cols {
		if c > 0 {
			head.WriteByte(' ')
		}
		name := col.head
		if c == t.sortCol {
			if (t.asc) != (col.of == 0) {
				name += up
			} else {
				name += down
			}
		}
		if c == 0 {
			head.WriteString(ui.Fit(name, ws[c]))
		} else {
			head.WriteString(ui.PadLeft(name, ws[c]))
		}
	}
	headInk := st.TableHeader
	if i == s.focus {
		headInk = st.TableFocusCol
	}
	out := []string{headInk.Render(ui.Fit(head.String(), w))}
	if t.status != "" || len(t.lines) == 0 {
		msg := t.status
		if msg == "" {
			msg = "nothing in this range"
		}
		out = append(out, st.Dim.Render(ui.Fit(msg, w)))
	}
	for j := t.top; len(out) < h && j < len(t.lines); j++ {
		out = append(out, s.lineText(t, &t.lines[j], ws, w, i == s.focus && j == t.cur))
	}
	for len(out) < h {
		out = append(out, "")
	}
	return out[:h]
}

// lineText draws one line: the state's swatch and name, then the
// values right-aligned. The selected line is in reverse video, or marked
// with selMarker in ASCII mode (no reverse video without colour).
func (s *statsScreen) lineText(t *statsTable, l *statsLine, ws []int, w int, sel bool) string {
	st := s.sh.Styles
	var sb strings.Builder
	name := l.name
	nameW := ws[0]
	if sel && st.ASCII {
		sb.WriteString(ui.SelMarker)
		nameW--
	}
	if l.paint != nil {
		sb.WriteString(st.Swatch(*l.paint))
		sb.WriteByte(' ')
		nameW -= 3
	}
	sb.WriteString(ui.Fit(name, nameW))
	for c := 1; c < len(t.cols); c++ {
		sb.WriteByte(' ')
		sb.WriteString(ui.PadLeft(formatStat(t.cols[c].kind, l.vals[c]), ws[c]))
	}
	if sel && !st.ASCII {
		return st.TableSelected.Render(ui.PadStyled(sb.String(), w))
	}
	return ui.PadStyled(sb.String(), w)
}

// formatStat prints a value of a column.
func formatStat(k colKind, v float64) string {
	switch k {
	case colDuration:
		return core.FormatDuration(core.Time(v + 0.5))
	case colCount:
		return strconv.FormatInt(int64(v), 10)
	case colPercent:
		return strconv.FormatFloat(v, 'f', 1, 64) + "%"
	}
	return ""
}

// Help is the statistics screen's help line.
func (s *statsScreen) Help() string {
	return s.sh.Hint(keymap.FocusStats)
}
