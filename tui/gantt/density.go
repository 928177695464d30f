package gantt

import (
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// The density strip: one line, always on screen, of the number of events
// per column over the whole trace (EventTable.Density, cheap on the index
// pipeline), with the visible range bracketed. It is read once per strip
// width (at open and on resize); zooming only moves the brackets.

// densityLevels are the glyphs of the 8 non-zero levels; an empty column
// is a space.
var (
	densityLevels      = []string{"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"}
	densityLevelsASCII = []string{".", ":", "-", "=", "+", "*", "#", "@"}
)

// density is the strip's data.
type density struct {
	job    ui.Job  // the strip's requests: the last one's answer only is kept
	cols   int     // columns asked by the last request
	counts []int64 // events per column of the whole trace (nil: not read yet)
	err    error
}

// densityMsg answers a density request.
type densityMsg struct {
	seq    uint64
	counts []int64
	err    error
}

// stripCols is the number of data columns of the strip: the Gantt's width
// less the two brackets.
func stripCols(l ui.ScreenLayout) int { return max(l.GanttW-2, 1) }

// requestDensity asks for the strip when its width changed.
func (b *Gantt) requestDensity(l ui.ScreenLayout) tea.Cmd {
	n := stripCols(l)
	if n == b.density.cols && (b.density.counts != nil || b.density.err != nil) {
		return nil
	}
	b.density.cols = n
	ctx, seq := b.density.job.Start(b.ctx)
	ev := b.trace.Events()
	from, to := b.win.Start, b.win.End
	return func() tea.Msg {
		counts, err := ev.Density(ctx, from, to, n)
		return densityMsg{seq: seq, counts: counts, err: err}
	}
}

// gotDensity keeps the newest answer.
func (b *Gantt) gotDensity(m densityMsg) {
	if !b.density.job.Current(m.seq) {
		return
	}
	b.density.job.Finish()
	b.density.counts, b.density.err = m.counts, m.err
	if m.err != nil && len(m.counts) != b.density.cols {
		b.density.counts = nil
	}
}

// stripLine draws the strip: the event count under the tree, then the
// density with [ and ] around the visible range.
func (b *Gantt) stripLine(l ui.ScreenLayout) string {
	st := b.sh.Styles
	d := &b.density
	label := eventCount(b.table.total) + " events"
	var sb strings.Builder
	sb.WriteString(st.Dim.Render(ui.Fit(label, l.TreeW)))
	sb.WriteByte(' ')
	n := stripCols(l)
	if why := b.info.NoEvents(); why != "" {
		sb.WriteString(st.Warning.Render(ui.Fit(why, l.GanttW)))
		return sb.String()
	}
	if len(d.counts) != n {
		text := "…"
		if d.err != nil {
			text = "event density unavailable: " + d.err.Error()
		}
		sb.WriteString(st.Dim.Render(ui.Fit(text, l.GanttW)))
		return sb.String()
	}
	var peak int64
	for _, c := range d.counts {
		peak = max(peak, c)
	}
	levels := densityLevels
	if st.ASCII {
		levels = densityLevelsASCII
	}
	whole := frame.Window{Start: b.win.Start, End: b.win.End, T0: b.win.Start, T1: b.win.End, Cols: n}
	c0, c1 := whole.ColOf(b.win.T0), whole.ColOf(b.win.T1)
	var run strings.Builder // glyphs sharing one ink, written at once
	flush := func(in ui.Ink) {
		if run.Len() > 0 {
			sb.WriteString(in.Render(run.String()))
			run.Reset()
		}
	}
	for c, v := range d.counts {
		if c == c0 {
			sb.WriteString(st.StripBracket.Render("["))
		}
		g := " "
		if v > 0 && peak > 0 {
			g = levels[min(int((v*int64(len(levels))+peak-1)/peak), len(levels))-1]
		}
		run.WriteString(g)
		if c+1 == c0 || c == c1 || c+1 == n { // the ink changes after c
			if c >= c0 && c <= c1 {
				flush(st.StripIn)
			} else {
				flush(st.StripOut)
			}
		}
		if c == c1 {
			sb.WriteString(st.StripBracket.Render("]"))
		}
	}
	return sb.String()
}

// eventCount prints a count compactly: 1518, 12.3k, 50M.
func eventCount(n int64) string {
	switch {
	case n < 10_000:
		return strconv.FormatInt(n, 10)
	case n < 1_000_000:
		return trimDecimal(float64(n)/1e3) + "k"
	case n < 1_000_000_000:
		return trimDecimal(float64(n)/1e6) + "M"
	}
	return trimDecimal(float64(n)/1e9) + "G"
}

// trimDecimal prints v with one decimal under 100, none above.
func trimDecimal(v float64) string {
	if v >= 100 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strings.TrimSuffix(strconv.FormatFloat(v, 'f', 1, 64), ".0")
}
