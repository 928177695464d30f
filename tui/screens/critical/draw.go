package critical

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/critpath"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// critRows lists the path's threads: the target first, then in the order
// they appear on the path, with their time on it.
func critRows(p *critpath.Path, b Host) []critRow {
	if p == nil {
		return nil
	}
	rows := []critRow{{worker: p.Target}}
	at := map[critpath.Worker]int{p.Target: 0}
	for _, s := range p.Segments {
		i, ok := at[s.Worker]
		if !ok {
			i = len(rows)
			at[s.Worker] = i
			rows = append(rows, critRow{worker: s.Worker})
		}
		rows[i].elapsed += s.End - s.Start
	}
	for i := range rows {
		w := rows[i].worker
		rows[i].label = b.ThreadLabel(core.Waker{Kind: core.WakerThread, ID: w.TID, CPU: w.CPU})
	}
	return rows
}

// label is a worker's label.
func (v *Screen) label(w critpath.Worker) string {
	if i := slices.IndexFunc(v.Rows, func(r critRow) bool { return r.worker == w }); i >= 0 {
		return v.Rows[i].label
	}
	return v.host.ThreadLabel(core.Waker{Kind: core.WakerThread, ID: w.TID, CPU: w.CPU})
}

// startText is a segment's start, to the nanosecond (offset from the
// trace start, or absolute seconds when the user toggled them).
func (v *Screen) startText(t core.Time) string { return v.sh.RelTime(v.start, t, 1) }

func itoa(i int) string { return strconv.Itoa(i) }

// View draws the title, the Gantt, the legend and a table (away: the
// main screen).
func (v *Screen) View(a ui.Area) []string {
	if v.away {
		return v.host.View(a)
	}
	st := v.sh.Styles
	lines := []string{st.Title.Render(v.title)}
	switch {
	case v.Err != nil:
		lines = append(lines, st.Error.Render("failed: "+v.Err.Error()))
	case v.Path == nil:
		lines = append(lines, st.Dim.Render(v.ellipsis("computing")))
	default:
		lines = append(lines, v.summary())
		lines = append(lines, v.gantt(a.Width, max(a.Height/4, 1))...)
		lines = append(lines, v.legend(a.Width)...)
		lines = append(lines, v.tabs())
		lines = append(lines, v.table(a.Width, a.Height-len(lines))...)
	}
	for i := range lines {
		lines[i] = ui.PadStyled(ui.FitANSI(lines[i], a.Width), a.Width)
	}
	for len(lines) < a.Height {
		lines = append(lines, strings.Repeat(" ", a.Width))
	}
	return lines[:a.Height]
}

// ellipsis is s followed by an ellipsis, in 7-bit ASCII when asked.
func (v *Screen) ellipsis(s string) string {
	if v.sh.Styles.ASCII {
		return s + "..."
	}
	return s + "…"
}

// summary says how much of the range the path covers and at what cost.
func (v *Screen) summary() string {
	p := v.Path
	s := fmt.Sprintf("%d segments on %d threads, %d edges visited", len(p.Segments), len(v.Rows), p.Work)
	if p.Truncated {
		s += "; work bound reached: some waits are unknown"
	}
	return v.sh.Styles.Dim.Render(s)
}

// critLabelWidth is the width of the Gantt's row labels.
const critLabelWidth = 24

// gantt draws up to n rows of the path over the range, one column per
// equal slice of it; a column shows the first segment of the row in it.
func (v *Screen) gantt(width, n int) []string {
	p := v.Path
	cols := max(width-critLabelWidth-1, 1)
	colStart := func(c int) core.Time { return p.From + core.Time(int64(p.To-p.From)*int64(c)/int64(cols)) }
	var out []string
	for _, r := range v.Rows[:min(n, len(v.Rows))] {
		var b strings.Builder
		b.WriteString(ui.Fit(v.trunc(r.label, critLabelWidth), critLabelWidth) + " ")
		i := 0 // first segment ending after the column's start
		for c := range cols {
			c0, c1 := colStart(c), max(colStart(c+1), colStart(c)+1)
			for i < len(p.Segments) && p.Segments[i].End <= c0 {
				i++
			}
			g := " "
			for j := i; j < len(p.Segments) && p.Segments[j].Start < c1; j++ {
				s := p.Segments[j]
				if s.Worker != r.worker {
					continue
				}
				g = v.sh.Styles.Crit[s.State].Render(critGlyphs[s.State])
				if j > 0 && p.Segments[j-1].Worker != s.Worker && s.Start >= c0 {
					g = v.sh.Styles.Crit[s.State].Render(">") // the path jumps to this row here
				}
				break
			}
			b.WriteString(g)
		}
		out = append(out, b.String())
	}
	return out
}

// trunc cuts s to w cells, with a 7-bit mark in ASCII mode.
func (v *Screen) trunc(s string, w int) string {
	s = ui.Printable(s)
	if frame.Cells(s) <= w {
		return s
	}
	if v.sh.Styles.ASCII {
		return frame.TruncCells(s, w, "~")
	}
	return frame.TruncCells(s, w, "…")
}

// legend lists the states' glyphs, on as many lines as the width needs.
func (v *Screen) legend(width int) []string {
	var out []string
	line, w := "> jump", 6
	for _, s := range critpath.States() {
		plain := critGlyphs[s] + " " + s.String()
		if w+2+len(plain) > width {
			out, line, w = append(out, line), "", -2
		}
		line += "  " + v.sh.Styles.Crit[s].Render(critGlyphs[s]) + " " + s.String()
		w += 2 + len(plain)
	}
	return append(out, strings.TrimPrefix(line, "  "))
}

// tabs names the three tables, the shown one bracketed.
func (v *Screen) tabs() string {
	names := []string{fmt.Sprintf("Segments %d", len(v.segs.idx)), fmt.Sprintf("Threads %d", len(v.sums[0].rows)),
		fmt.Sprintf("States %d", len(v.sums[1].rows))}
	if v.segs.only != "" {
		names[0] = fmt.Sprintf("Segments of %s %d", v.segs.only, len(v.segs.idx))
	}
	for i := range names {
		if tab(i) == v.tab {
			names[i] = v.sh.Styles.Bold.Render("[" + names[i] + "]")
		} else {
			names[i] = " " + names[i] + " "
		}
	}
	return strings.Join(names, " ") + v.sh.Styles.Dim.Render("  (tab: next table)")
}

// table draws the shown table in n lines.
func (v *Screen) table(width, n int) []string {
	if n < 2 {
		return nil
	}
	v.page = n - 1
	if v.tab == tabSegments {
		return v.segTable(width, n)
	}
	return v.sumTable(&v.sums[v.tab-1], width, n)
}

// scroll keeps sel inside the rows lines from *top.
func scroll(top *int, sel, rows int) { *top = max(min(max(*top, sel-rows+1), sel), 0) }

// selLine draws a table line, the selected one marked.
func (v *Screen) selLine(line string, selected bool, width int) string {
	if selected {
		return v.sh.Styles.TableSelected.Render(frame.PadCells("> "+line, width))
	}
	return "  " + line
}

// segTable draws the listed segments in n lines, the selected one
// visible.
func (v *Screen) segTable(width, n int) []string {
	l := &v.segs
	out := []string{v.sh.Styles.TableHeader.Render(fmt.Sprintf("  %-16s %-12s %-24s %-15s %s", "start", "duration", "thread", "state", "reason"))}
	rows := n - 1
	scroll(&l.top, l.sel, rows)
	for i := l.top; i < min(l.top+rows, len(l.idx)); i++ {
		s := v.Path.Segments[l.idx[i]]
		line := fmt.Sprintf("%-16s %-12s %-24s %-15s %s", v.startText(s.Start), core.FormatDuration(s.End-s.Start),
			ui.Fit(v.trunc(v.label(s.Worker), 24), 24), critGlyphs[s.State]+" "+s.State.String(), ui.Printable(s.Reason))
		out = append(out, v.selLine(line, i == l.sel, width))
	}
	return out
}

// sumTable draws a summary in n lines: name, time, share of the path,
// segments; the sort column's header marked.
func (v *Screen) sumTable(l *sumList, width, n int) []string {
	heads := []string{"thread", "time on path", "segments"}
	if l == &v.sums[1] {
		heads[0] = "state"
	}
	arrow := "v"
	if l.asc {
		arrow = "^"
	}
	heads[l.col] += " " + arrow
	out := []string{v.sh.Styles.TableHeader.Render(fmt.Sprintf("  %-28s %14s %7s %10s", heads[0], heads[1], "share", heads[2]))}
	rows := n - 1
	scroll(&l.top, l.sel, rows)
	for i := l.top; i < min(l.top+rows, len(l.rows)); i++ {
		r := l.rows[i]
		share := 0.0
		if l.total > 0 {
			share = 100 * float64(r.time) / float64(l.total)
		}
		line := fmt.Sprintf("%s %14s %6.1f%% %10d", ui.Fit(v.trunc(r.label, 28), 28), core.FormatDuration(r.time), share, r.count)
		out = append(out, v.selLine(line, i == l.sel, width))
	}
	return out
}
