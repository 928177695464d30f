package sidebyside

import (
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// Lines besides the rows: title, ruler, and a header per side.
const fixedLines = 4

// treeW is the row names' width.
func (s *Screen) treeW() int { return min(max(s.sh.Width/4, 12), 30) }

// cols is the Gantt's width in columns.
func (s *Screen) cols() int { return max(s.sh.Width-s.treeW()-1, 1) }

// rowsOf is how many rows side i shows: half the lines each.
func (s *Screen) rowsOf(i int) int {
	all := max(s.sh.PanelLines()-fixedLines, 2)
	if i == 0 {
		return all / 2
	}
	return all - all/2
}

// View draws the title, the ruler, then each side's header and rows.
func (s *Screen) View(a ui.Area) []string {
	st := s.sh.Styles
	w := a.Width
	title := "BASE and NEW side by side, aligned at their starts: +" + core.FormatDuration(s.Off) + " for " + core.FormatDuration(s.Span)
	if s.Shift != 0 {
		title = "BASE and NEW side by side, NEW " + signed(s.Shift) + " later: +" + core.FormatDuration(s.Off) + " for " + core.FormatDuration(s.Span)
	}
	lines := []string{st.Title.Render(ui.Fit(title, w)), s.ruler(w)}
	for i := range s.Sides {
		sd := &s.Sides[i]
		head := sd.title
		if i == s.Active {
			head = "» " + head
			if st.ASCII {
				head = "> " + sd.title
			}
		} else {
			head = "  " + head
		}
		if s.window(i).T0 > sd.end {
			head += " (ended before this offset)"
		}
		lines = append(lines, st.TableHeader.Render(ui.Fit(head, w)))
		lines = append(lines, s.rows(i, s.rowsOf(i))...)
	}
	return ui.FillLines(lines, a.Height)
}

// signed is a shift with its sign.
func signed(d core.Time) string {
	if d < 0 {
		return "-" + core.FormatDuration(-d)
	}
	return "+" + core.FormatDuration(d)
}

// ruler marks the offsets of the window's ends and the cursor's column
// (its offset, NEW's too when shifted, left of the Gantt).
func (s *Screen) ruler(w int) string {
	left := "+" + core.FormatDuration(s.Off)
	right := "+" + core.FormatDuration(s.Off+s.Span)
	cur := "cur +" + core.FormatDuration(s.Cur)
	if s.Shift != 0 {
		cur += " / NEW +" + core.FormatDuration(s.Cur+s.Shift)
	}
	pad := max(w-s.treeW()-1-len(left)-len(right), 1)
	line := []rune(ui.Fit(cur, s.treeW()) + " " + left + strings.Repeat(" ", pad) + right)
	glyph := '▼'
	if s.sh.Styles.ASCII {
		glyph = 'v'
	}
	if c := s.treeW() + 1 + s.window(0).ColOf(s.Sides[0].start+s.Cur); c < len(line) && c < w {
		line[c] = glyph
	}
	return s.sh.Styles.Ruler.Render(ui.Fit(string(line), w))
}

// rows draws side i's rows: names, then the cells of its last frame
// (blank until one of this window is in).
func (s *Screen) rows(i, h int) []string {
	st := s.sh.Styles
	sd := &s.Sides[i]
	tw := s.treeW()
	var out []string
	switch {
	case sd.err != nil:
		return ui.FillLines([]string{st.Error.Render(ui.Fit("cannot read the rows: "+sd.err.Error(), s.sh.Width))}, h)
	case sd.Tree == nil:
		return ui.FillLines([]string{st.Dim.Render(ui.Fit("reading the rows…", s.sh.Width))}, h)
	}
	t := sd.Tree
	f := sd.Frame
	v := s.window(i)
	fresh := f != nil && f.Window == v
	frameRow := map[core.Key]int{}
	if fresh {
		for j, k := range f.Keys {
			if k >= 0 {
				frameRow[k] = j
			}
		}
	}
	sep := st.Dim.Render(map[bool]string{false: "│", true: ":"}[st.ASCII])
	for r := t.Top; r < t.Top+h && r < t.VisibleLen(); r++ {
		n := t.Node(t.VisibleRow(r))
		var b strings.Builder
		b.WriteString(s.name(&n, i == s.Active && r == t.Sel, tw))
		b.WriteString(sep)
		fr, ok := frameRow[n.Key]
		for c := 0; c < v.Cols; {
			colour, variant, glyph := uint8(frame.PalNone), ui.CellVariant(0), ' '
			if ok && n.Key >= 0 {
				if fc := f.Cells[fr*v.Cols+c]; fc.Known {
					colour, glyph = fc.Paint.Colour, fc.Paint.Glyph
					if fc.Multi {
						variant = ui.VariantMulti
					}
				}
			}
			p := st.Pens[colour][variant]
			g := p.Glyph
			if g == "" {
				g = string(glyph)
			}
			b.WriteString(p.Prefix + g + p.Suffix)
			c++
		}
		out = append(out, b.String())
	}
	return ui.FillLines(out, h)
}

// name draws a row's name: indent, expander, label; the active side's
// selected row in reverse video (marked in ASCII).
func (s *Screen) name(n *frame.Node, sel bool, w int) string {
	st := s.sh.Styles
	exp := "  "
	if !n.Leaf {
		exp = map[[2]bool]string{{true, false}: "▾ ", {false, false}: "▸ ", {true, true}: "v ", {false, true}: "> "}[[2]bool{n.Expanded, st.ASCII}]
	}
	mark := ""
	if st.ASCII {
		mark = " "
		if sel {
			mark = ui.SelMarker
		}
	}
	text := ui.Fit(mark+strings.Repeat(" ", min(n.Depth, 6))+exp+n.Label, w)
	switch {
	case sel:
		return st.TreeSelected.Render(text)
	case n.Kind == frame.KindProcess:
		return st.TreeProcess.Render(text)
	}
	return text
}

// Help is the view's help line.
func (s *Screen) Help() string { return s.sh.Hint(keymap.FocusSideBySide) }
