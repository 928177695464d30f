package gantt

import (
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// The ruler: tick steps, labels and the marks drawn on it.

// niceStep returns the smallest 1-2-5 x 10^k duration >= d.
func niceStep(d core.Time) core.Time {
	step := core.Time(1)
	for {
		for _, m := range []core.Time{1, 2, 5} {
			if step*m >= d {
				return step * m
			}
		}
		if step > core.MaxTime/100 {
			return step * 10
		}
		step *= 10
	}
}

// rulerStep is the ruler's tick step: a round duration such that a label
// (with the digits that tell ticks apart) and a gap fit between ticks.
func rulerStep(sh *ui.Shared, v frame.Window, cols int) core.Time {
	cols = max(cols, 1)
	width := core.Time(12)
	step := niceStep(v.Span() * width / core.Time(cols))
	for range 3 { // a label's width depends on the step
		w := core.Time(len(sh.TickLabel(v.Start, v.T1, step)) + 3)
		if w <= width {
			break
		}
		width = w
		step = niceStep(v.Span() * width / core.Time(cols))
	}
	return step
}

// firstTick is the ruler's first tick in the view: a multiple of step
// from the trace start (offsets read round), or, with absolute times, a
// multiple of step since the epoch (the seconds read round).
func firstTick(sh *ui.Shared, v frame.Window, step core.Time) core.Time {
	if sh.AbsTimes && v.T0 >= 0 {
		return (v.T0 + step - 1) / step * step
	}
	return v.Start + (v.T0-v.Start+step-1)/step*step
}

// rulerLines draws the time ruler: tick labels (offsets from the trace
// start in adaptive units, or absolute seconds: see tickLabel) and a tick line with the cursor, mark and
// selection.
func (b *Gantt) rulerLines(l ui.ScreenLayout) []string {
	st := b.sh.Styles
	v := b.win
	title := b.panes[b.pane].title
	left1 := st.Title.Render(ui.Fit(title, l.TreeW))
	curMark := "▼ "
	if st.ASCII {
		curMark = "v "
	}
	marks := b.rulerMarks()
	left2 := st.RulerCursor.Render(ui.Fit(curMark+b.RelTime(marks.CursorTime), l.TreeW)) // the cursor's time

	labels := []rune(strings.Repeat(" ", l.GanttW))
	ticks := make([]bool, l.GanttW)
	step := rulerStep(b.sh, v, l.GanttW)
	first := firstTick(b.sh, v, step)
	next := 0 // first free label column
	for t := first; t <= v.T1 && t >= v.Start; t += step {
		c := v.ColOf(t)
		ticks[c] = true
		lab := []rune(b.sh.TickLabel(v.Start, t, step))
		if c >= next && c+len(lab) <= l.GanttW {
			copy(labels[c:], lab)
			next = c + len(lab) + 2
		}
	}
	line1 := left1 + " " + st.Ruler.Render(string(labels))

	base, tick, cur, mark := "─", "┬", "▼", "M"
	if st.ASCII {
		base, tick, cur, mark = "-", "+", "v", "M"
	}
	curCol, markCol := marks.CursorCol, marks.MarkCol
	var sb strings.Builder
	sb.WriteString(left2 + " ")
	for c := range l.GanttW {
		ch := base
		if ticks[c] {
			ch = tick
		}
		inSel := c >= marks.SelFrom && c <= marks.SelTo
		if inSel && st.ASCII {
			ch = "="
		}
		switch c {
		case curCol:
			sb.WriteString(st.RulerCursor.Render(cur))
			continue
		case markCol:
			ch = mark
		}
		if r, ok := marks.Named[c]; ok {
			ch = string(r)
		}
		if inSel {
			sb.WriteString(st.RulerSelect.Render(ch))
		} else {
			sb.WriteString(st.Ruler.Render(ch))
		}
	}
	return []string{line1, sb.String()}
}

func (b *Gantt) rulerMarks() ui.RulerMarks {
	if m, ok := b.views.Marks(); ok {
		return m
	}
	v := b.win
	m := ui.RulerMarks{CursorTime: b.cursor, CursorCol: -1, MarkCol: -1, SelFrom: -1, SelTo: -2}
	if b.cursor >= v.T0 && b.cursor <= v.T1 {
		m.CursorCol = v.ColOf(b.cursor)
	}
	for r, t := range b.marks.at {
		if t >= v.T0 && t <= v.T1 {
			if m.Named == nil {
				m.Named = map[int]rune{}
			}
			if c := v.ColOf(t); m.Named[c] == 0 || r < m.Named[c] {
				m.Named[c] = r // the smallest letter wins a shared column, so frames are stable
			}
		}
	}
	if b.hasSel && b.selEnd >= v.T0 && b.selStart <= v.T1 {
		m.SelFrom, m.SelTo = v.ColOf(max(b.selStart, v.T0)), v.ColOf(min(b.selEnd, v.T1))
	}
	return m
}
