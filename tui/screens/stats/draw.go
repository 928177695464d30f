package stats

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/ui"
)

// heights splits the panel (less its title line) among the summary
// tables: an equal share each, a table with fewer lines lending the rest
// to the focused one. An analysis table has the whole panel. Each height
// counts the table's title and header lines.
func (s *Screen) heights() [NumTables]int {
	avail := s.sh.PanelLines() - 1
	var h [NumTables]int
	if avail < 3*NumSummaryTables || s.Focus >= NumSummaryTables { // the focused one alone (tab cycles)
		h[s.Focus] = max(avail, 1)
		return h
	}
	spare := avail
	for i := range NumSummaryTables {
		h[i] = max(min(avail/NumSummaryTables, len(s.Tables[i].Lines)+2), 3)
		spare -= h[i]
	}
	// The spare lines go to the focused table, then to the others, as
	// far as they have lines to show; what is left stays blank.
	for _, i := range []int{s.Focus, (s.Focus + 1) % NumSummaryTables, (s.Focus + 2) % NumSummaryTables} {
		more := min(max(len(s.Tables[i].Lines)+2-h[i], 0), max(spare, 0))
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
func (s *Screen) View(a ui.Area) []string {
	w := a.Width
	lines := []string{s.sh.RangeTitle("Statistics of the "+s.what, s.start, s.From, s.To, w)}
	hs := s.heights()
	t := &s.Tables[s.Focus]
	var hist string
	if t.Cur < len(t.Lines) && t.Lines[t.Cur].hist != nil && hs[s.Focus] > 3 {
		hs[s.Focus]-- // the selected line's histogram under the table
		hist = HistogramLine(t.Lines[t.Cur].Name, t.Lines[t.Cur].hist, s.sh.Styles.ASCII, w)
	}
	for i, h := range hs {
		if h > 0 {
			lines = append(lines, s.tableLines(i, h, w)...)
		}
		if i == s.Focus && hist != "" {
			lines = append(lines, hist)
		}
	}
	return ui.FillLines(lines, a.Height)
}

// tableLines draws one table in h lines: its title (the focused one's
// marked with '>' and its place among the tables: visible without
// colour), its header, then its lines from the scroll position (or its
// status).
func (s *Screen) tableLines(i, h, w int) []string {
	st := s.sh.Styles
	t := &s.Tables[i]
	ws := statsWidths(t.Cols, w)
	down, up := " ↓", " ↑"
	if st.ASCII {
		down, up = " v", " ^"
	}
	var head strings.Builder
	for c, col := range t.Cols {
		if c > 0 {
			head.WriteByte(' ')
		}
		name := col.Head
		if c == t.SortCol {
			if (t.Asc) != (col.of == 0) {
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
	if i == s.Focus {
		headInk = st.TableFocusCol
	}
	title := "  " + st.Dim.Render(ui.Trunc(t.Title, w-2))
	if i == s.Focus {
		title = st.Bold.Render(ui.Trunc(fmt.Sprintf("> %s  [table %d of %d, tab: next]", t.Title, i+1, NumTables), w))
	}
	out := []string{title}
	if h > 1 {
		out = append(out, headInk.Render(ui.Fit(head.String(), w)))
	}
	if t.status != "" || len(t.Lines) == 0 {
		msg := t.status
		if msg == "" {
			msg = "nothing in this range"
		}
		out = append(out, st.Dim.Render(ui.Fit(msg, w)))
	}
	for j := t.top; len(out) < h && j < len(t.Lines); j++ {
		out = append(out, s.lineText(t, &t.Lines[j], ws, w, i == s.Focus && j == t.Cur))
	}
	for len(out) < h {
		out = append(out, "")
	}
	return out[:h]
}

// lineText draws one line: the state's swatch and name, then the
// values right-aligned. The selected line is in reverse video, or marked
// with selMarker in ASCII mode (no reverse video without colour).
func (s *Screen) lineText(t *statsTable, l *Line, ws []int, w int, sel bool) string {
	st := s.sh.Styles
	var sb strings.Builder
	name := l.Name
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
	for c := 1; c < len(t.Cols); c++ {
		sb.WriteByte(' ')
		sb.WriteString(ui.PadLeft(formatStat(t.Cols[c].kind, l.Vals[c]), ws[c]))
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
func (s *Screen) Help() string {
	return s.sh.Hint(keymap.FocusStats)
}
