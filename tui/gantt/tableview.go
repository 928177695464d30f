package gantt

import (
	"strings"

	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// tableWidths splits w cells among the columns (one space between
// columns); Contents takes what is left. Narrow screens shrink Event,
// Process and TID first.
func tableWidths(w int) [frame.NumColumns]int {
	ws := [frame.NumColumns]int{frame.ColTime: 20, frame.ColCPU: 3, frame.ColEvent: 18, frame.ColTID: 7, frame.ColProcess: 14}
	switch {
	case w < 72:
		ws[frame.ColEvent], ws[frame.ColTID], ws[frame.ColProcess] = 10, 5, 6
	case w < 100:
		ws[frame.ColEvent], ws[frame.ColProcess] = 14, 10
	}
	used := int(frame.NumColumns) - 1
	for c := range frame.ColContents {
		used += ws[c]
	}
	ws[frame.ColContents] = max(w-used, 1)
	return ws
}

// View draws the table: header (with the filter's progress),
// filter row, and the visible events, read from the row cache ("…" for a
// row still being read).
func (tb *eventTable) View(a ui.Area) []string {
	st := tb.sh.Styles
	if st.ASCII { // a marker column before the table (see selMarker)
		lines := tb.draw(a, 1)
		for i := range lines {
			m := " "
			switch {
			case i == tb.selLine():
				m = ui.SelMarker
			case tb.matchLine(i):
				m = searchMarker
			}
			lines[i] = m + lines[i]
		}
		return lines
	}
	return tb.draw(a, 0)
}

// searchMarker marks the table search's matches in the ASCII marker
// column (the selected line keeps ui.SelMarker).
const searchMarker = ">"

// matchLine reports whether line l of View shows a match of the search.
func (tb *eventTable) matchLine(l int) bool {
	if tb.search.re == nil {
		return false
	}
	first := 2 // header and filter lines
	if tb.fetchErr != nil {
		first++
	}
	vi := tb.top + int64(l-first)
	if l < first || vi >= tb.len() {
		return false
	}
	r, ok := tb.cache[tb.rankOf(vi)]
	return ok && tb.search.matches(&r)
}

// selLine is the line of View that shows the selected event (-1: none).
func (tb *eventTable) selLine() int {
	if tb.sel < tb.top || tb.sel >= tb.len() {
		return -1
	}
	l := 2 + int(tb.sel-tb.top) // header and filter lines
	if tb.fetchErr != nil {
		l++
	}
	return l
}

// draw draws the table into a, leaving its first margin columns to the
// caller (taken from Contents, so the columns keep their widths).
func (tb *eventTable) draw(a ui.Area, margin int) []string {
	st := tb.sh.Styles
	ws := tableWidths(a.Width)
	ws[frame.ColContents] = max(ws[frame.ColContents]-margin, 1)
	a.Width -= margin
	var head, filt strings.Builder
	for c := range frame.NumColumns {
		if c > 0 {
			head.WriteByte(' ')
			filt.WriteByte(' ')
		}
		h := ui.Fit(c.String(), ws[c])
		if c == frame.ColContents { // the filter's progress, right-aligned
			prog := tb.progressText()
			if gap := ws[c] - len(c.String()) - frame.Cells(prog); gap >= 2 {
				h = c.String() + strings.Repeat(" ", gap) + prog
			} else {
				h = ui.Fit(prog, ws[c])
			}
		}
		switch {
		case tb.focused && c == tb.col && st.ASCII:
			head.WriteString(ui.Fit("["+strings.TrimRight(ui.Fit(c.String(), ws[c]-2), " ")+"]", ws[c]))
		case tb.focused && c == tb.col:
			head.WriteString(st.TableFocusCol.Render(h))
		default:
			head.WriteString(st.TableHeader.Render(h))
		}
		p := tb.pattern[c]
		text := ui.Fit(p, ws[c])
		if p == "" {
			text = st.Dim.Render(ui.Fit("·", ws[c]))
		} else {
			text = st.FilterRow.Render(text)
		}
		filt.WriteString(text)
	}
	lines := []string{ui.FitANSI(head.String(), a.Width), ui.FitANSI(filt.String(), a.Width)}
	if tb.fetchErr != nil {
		lines = append(lines, st.Error.Render(ui.Fit("cannot read events: "+tb.fetchErr.Error(), a.Width)))
	}
	var sb strings.Builder
	for i := int64(0); len(lines) < a.Height; i++ {
		vi := tb.top + i
		if vi >= tb.len() {
			text := ""
			if i == 0 {
				text = "no event"
				if tb.filterOn && tb.scanning {
					text = "filtering…"
				} else if tb.filterOn {
					text = "no event matches the filter"
				}
			}
			lines = append(lines, st.Dim.Render(ui.Fit(text, a.Width)))
			continue
		}
		r, ok := tb.cache[tb.rankOf(vi)]
		sb.Reset()
		if !ok {
			sb.WriteString(ui.Fit("…", a.Width))
		} else {
			for c := range frame.NumColumns {
				if c > 0 {
					sb.WriteByte(' ')
				}
				cell := tb.cell(&r, c, ws[c])
				if c == tb.search.col && tb.search.matches(&r) && vi != tb.sel {
					cell = st.TreeMatch.Render(cell)
				}
				sb.WriteString(cell)
			}
		}
		line := ui.FitANSI(sb.String(), a.Width)
		if vi == tb.sel {
			if tb.focused {
				line = st.TableSelected.Render(line)
			} else {
				line = st.Bold.Render(line)
			}
		}
		lines = append(lines, line)
	}
	return lines
}

// cell is column c of row r fitted to w cells: Time as the other times on
// screen read (see eventTime), Contents scrolled by hoff.
func (tb *eventTable) cell(r *frame.EventRow, c frame.EventColumn, w int) string {
	switch c {
	case frame.ColTime:
		return ui.Fit(tb.sh.EventTime(tb.start, r.Time), w)
	case frame.ColContents:
		return scrolledCell(r.Contents, tb.hoff, w)
	}
	return ui.Fit(r.Text(c), w)
}

// scrolledCell fits s into w cells after scrolling its first off cells
// out to the left: « marks text cut on the left; text running on past the
// right edge ends in » once scrolled (… before, as every other cell).
func scrolledCell(s string, off, w int) string {
	if off <= 0 || w < 2 {
		return ui.Fit(s, w)
	}
	s = ui.Printable(s)
	if frame.Cells(s) <= off {
		return frame.PadCells("«", w)
	}
	s = frame.CutLeft(s, off+1, "«") // « takes the first visible cell
	if frame.Cells(s) > w {
		s = frame.TruncCells(s, w, "»")
	}
	return frame.PadCells(s, w)
}

// contentsWidth is the Contents column's width on screen (less the
// ASCII selection marker's column, see View).
func (tb *eventTable) contentsWidth() int {
	w := tableWidths(tb.sh.Width)[frame.ColContents]
	if tb.sh.Styles.ASCII {
		w--
	}
	return max(w, 1)
}

// scrollContents scrolls the Contents column by half its width, no
// further right than the longest contents on screen needs. The offset
// stays when the selection moves or the filter changes: the fields a
// user scrolled to are usually the ones they keep reading.
func (tb *eventTable) scrollContents(left bool) ui.Step {
	w := tb.contentsWidth()
	d := max(w/2, 4)
	if left {
		tb.hoff = max(tb.hoff-d, 0)
		return ui.Step{}
	}
	longest := 0
	for i := tb.top; i < min(tb.top+int64(tb.height), tb.len()); i++ {
		if r, ok := tb.cache[tb.rankOf(i)]; ok {
			longest = max(longest, frame.Cells(ui.Printable(r.Contents)))
		}
	}
	// at most so far that the longest contents' last cell is the last
	// one on screen (« takes the cell of the offset itself)
	limit := max(longest-w, 0)
	if tb.hoff >= limit {
		return ui.Step{Note: "the contents on screen end here"}
	}
	tb.hoff = min(tb.hoff+d, limit)
	return ui.Step{}
}
