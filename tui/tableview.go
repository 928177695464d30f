package tui

import (
	"strings"

	"github.com/mattn/go-runewidth"
)

// tableWidths splits w cells among the columns (one space between
// columns); Contents takes what is left. Narrow screens shrink Event,
// Process and TID first.
func tableWidths(w int) [NumColumns]int {
	ws := [NumColumns]int{ColTime: 20, ColCPU: 3, ColEvent: 18, ColTID: 7, ColProcess: 14}
	switch {
	case w < 72:
		ws[ColEvent], ws[ColTID], ws[ColProcess] = 10, 5, 6
	case w < 100:
		ws[ColEvent], ws[ColProcess] = 14, 10
	}
	used := int(NumColumns) - 1
	for c := range ColContents {
		used += ws[c]
	}
	ws[ColContents] = max(w-used, 1)
	return ws
}

// View draws the table: header (with the filter's progress),
// filter row, and the visible events, read from the row cache ("…" for a
// row still being read).
func (tb *eventTable) View(a area) []string {
	st := tb.sh.styles
	if st.ASCII { // a marker column before the table (see selMarker)
		lines := tb.draw(a, 1)
		for i := range lines {
			m := " "
			if i == tb.selLine() {
				m = selMarker
			}
			lines[i] = m + lines[i]
		}
		return lines
	}
	return tb.draw(a, 0)
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
func (tb *eventTable) draw(a area, margin int) []string {
	st := tb.sh.styles
	ws := tableWidths(a.width)
	ws[ColContents] = max(ws[ColContents]-margin, 1)
	a.width -= margin
	var head, filt strings.Builder
	for c := range NumColumns {
		if c > 0 {
			head.WriteByte(' ')
			filt.WriteByte(' ')
		}
		h := fit(c.String(), ws[c])
		if c == ColContents { // the filter's progress, right-aligned
			prog := tb.progressText()
			if gap := ws[c] - len(c.String()) - runewidth.StringWidth(prog); gap >= 2 {
				h = c.String() + strings.Repeat(" ", gap) + prog
			} else {
				h = fit(prog, ws[c])
			}
		}
		switch {
		case tb.focused && c == tb.col && st.ASCII:
			head.WriteString(fit("["+strings.TrimRight(fit(c.String(), ws[c]-2), " ")+"]", ws[c]))
		case tb.focused && c == tb.col:
			head.WriteString(st.TableFocusCol.Render(h))
		default:
			head.WriteString(st.TableHeader.Render(h))
		}
		p := tb.pattern[c]
		text := fit(p, ws[c])
		if p == "" {
			text = st.Dim.Render(fit("·", ws[c]))
		} else {
			text = st.FilterRow.Render(text)
		}
		filt.WriteString(text)
	}
	lines := []string{fitANSI(head.String(), a.width), fitANSI(filt.String(), a.width)}
	if tb.fetchErr != nil {
		lines = append(lines, st.Error.Render(fit("cannot read events: "+tb.fetchErr.Error(), a.width)))
	}
	var sb strings.Builder
	for i := int64(0); len(lines) < a.height; i++ {
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
			lines = append(lines, st.Dim.Render(fit(text, a.width)))
			continue
		}
		r, ok := tb.cache[tb.rankOf(vi)]
		sb.Reset()
		if !ok {
			sb.WriteString(fit("…", a.width))
		} else {
			for c := range NumColumns {
				if c > 0 {
					sb.WriteByte(' ')
				}
				sb.WriteString(fit(r.Text(c), ws[c]))
			}
		}
		line := fit(sb.String(), a.width)
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
