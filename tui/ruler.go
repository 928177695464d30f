package tui

import (
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
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
func (sh *shared) rulerStep(v frame.Window, cols int) core.Time {
	cols = max(cols, 1)
	width := core.Time(12)
	step := niceStep(v.Span() * width / core.Time(cols))
	for range 3 { // a label's width depends on the step
		w := core.Time(len(sh.tickLabel(v.Start, v.T1, step)) + 3)
		if w <= width {
			break
		}
		width = w
		step = niceStep(v.Span() * width / core.Time(cols))
	}
	return step
}

// rulerLines draws the time ruler: tick labels (offsets from the trace
// start in adaptive units, or absolute seconds: see tickLabel) and a tick line with the cursor, mark and
// selection.
func (b *browser) rulerLines(l screenLayout) []string {
	st := b.sh.styles
	v := b.tv
	title := b.panes[b.pane].title
	left1 := st.Title.Render(fit(title, l.treeW))
	curMark := "▼ "
	if st.ASCII {
		curMark = "v "
	}
	marks := b.rulerMarks()
	left2 := st.RulerCursor.Render(fit(curMark+b.relTime(marks.cursorTime), l.treeW)) // the cursor's time

	labels := []rune(strings.Repeat(" ", l.ganttW))
	ticks := make([]bool, l.ganttW)
	step := b.sh.rulerStep(v, l.ganttW)
	first := v.Start + (v.T0-v.Start+step-1)/step*step
	next := 0 // first free label column
	for t := first; t <= v.T1 && t >= v.Start; t += step {
		c := v.ColOf(t)
		ticks[c] = true
		lab := []rune(b.sh.tickLabel(v.Start, t, step))
		if c >= next && c+len(lab) <= l.ganttW {
			copy(labels[c:], lab)
			next = c + len(lab) + 2
		}
	}
	line1 := left1 + " " + st.Ruler.Render(string(labels))

	base, tick, cur, mark := "─", "┬", "▼", "M"
	if st.ASCII {
		base, tick, cur, mark = "-", "+", "v", "M"
	}
	curCol, markCol := marks.cursorCol, marks.markCol
	var sb strings.Builder
	sb.WriteString(left2 + " ")
	for c := range l.ganttW {
		ch := base
		if ticks[c] {
			ch = tick
		}
		inSel := c >= marks.selFrom && c <= marks.selTo
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
		if r, ok := marks.named[c]; ok {
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

// rulerMarks are the columns the ruler marks: the cursor, the mark and
// the selection (on the overview: its cursor and the part under it).
type rulerMarks struct {
	cursorTime     core.Time
	cursorCol      int
	markCol        int
	named          map[int]rune // column → mark letter (the browser's named marks)
	selFrom, selTo int          // -1, -2 when none
}

func (b *browser) rulerMarks() rulerMarks {
	if m, ok := b.viewMarks(); ok {
		return m
	}
	v := b.tv
	m := rulerMarks{cursorTime: b.cursor, cursorCol: -1, markCol: -1, selFrom: -1, selTo: -2}
	if b.cursor >= v.T0 && b.cursor <= v.T1 {
		m.cursorCol = v.ColOf(b.cursor)
	}
	for r, t := range b.marks.at {
		if t >= v.T0 && t <= v.T1 {
			if m.named == nil {
				m.named = map[int]rune{}
			}
			if c := v.ColOf(t); m.named[c] == 0 || r < m.named[c] {
				m.named[c] = r // the smallest letter wins a shared column, so frames are stable
			}
		}
	}
	if b.hasSel && b.selEnd >= v.T0 && b.selStart <= v.T1 {
		m.selFrom, m.selTo = v.ColOf(max(b.selStart, v.T0)), v.ColOf(min(b.selEnd, v.T1))
	}
	return m
}
