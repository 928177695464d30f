package compare

import (
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/calltree"
	"github.com/tracetui/tracetui/ingest/query/diff"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// The differential flame graph above the call tree table: NEW's call
// tree as an icicle (callers on top, each function as wide as its total
// time in NEW), each function filled with a glyph that says how its
// total changed from BASE — "+" grown, "-" shrunk, "=" within
// sameShare — coloured too in colour mode (as the deltas are).

// flameLines is the most lines the icicle takes (one per depth).
const flameLines = 6

// sameShare is the relative change under which a function is unchanged.
const sameShare = 0.05

// flameNode is a function of NEW's call tree with its BASE total.
type flameNode struct {
	name      string
	base, new core.Time
	children  []*flameNode
}

// diffFlame lines up base's call tree with next's, by call path: the
// functions of NEW, each with the total of the same path in BASE.
func diffFlame(base, next *calltree.Node) *flameNode {
	if next == nil {
		return nil
	}
	n := &flameNode{name: next.Name, new: next.Total}
	byName := map[string]*calltree.Node{}
	if base != nil {
		n.base = base.Total
		for _, c := range base.Children {
			byName[c.Name] = c
		}
	}
	for _, c := range next.Children {
		n.children = append(n.children, diffFlame(byName[c.Name], c))
	}
	if base == nil {
		n.base = 0
	}
	return n
}

// change is a function's glyph: grown, shrunk or unchanged.
func (n *flameNode) change() byte {
	d := float64(n.new - n.base)
	switch {
	case d > sameShare*float64(max(n.base, n.new)):
		return '+'
	case -d > sameShare*float64(max(n.base, n.new)):
		return '-'
	}
	return '='
}

// flameHeight is the icicle's lines (0 without a call tree).
func (s *Screen) flameHeight() int {
	if s.flame == nil || s.flame.new == 0 {
		return 0
	}
	return min(depth(s.flame)-1, flameLines, max(s.sh.PanelLines()/3, 1))
}

func depth(n *flameNode) int {
	d := 0
	for _, c := range n.children {
		d = max(d, depth(c))
	}
	return d + 1
}

// flameView draws the icicle in h lines of w cells, then its legend.
func (s *Screen) flameView(w, h int) []string {
	st := s.sh.Styles
	type span struct {
		n      *flameNode
		x0, x1 int
	}
	level := []span{{s.flame, 0, w}}
	var out []string
	for range h {
		var next []span
		for _, sp := range level {
			x := sp.x0
			for _, c := range sp.n.children {
				cw := int(float64(c.new) * float64(sp.x1-sp.x0) / float64(max(sp.n.new, 1))) // no overflow on huge totals
				if cw < 1 || x+cw > sp.x1 {
					continue
				}
				next = append(next, span{c, x, x + cw})
				x += cw
			}
		}
		if len(next) == 0 {
			break
		}
		var b strings.Builder
		x := 0
		for _, sp := range next {
			b.WriteString(strings.Repeat(" ", sp.x0-x))
			g := sp.n.change()
			cell := string(g)
			text := ui.Trunc(sp.n.name, sp.x1-sp.x0-1)
			text = cell + text + strings.Repeat(cell, max(sp.x1-sp.x0-1-frame.Cells(text), 0))
			switch g {
			case '+':
				text = st.Warning.Render(text)
			case '-':
				text = st.TreeMatch.Render(text)
			default:
				text = st.Dim.Render(text)
			}
			b.WriteString(text)
			x = sp.x1
		}
		out = append(out, ui.PadStyled(b.String(), w))
		level = next
	}
	what := "total"
	if s.unit == diff.UnitSamples {
		what = "samples"
	}
	out = append(out, st.Dim.Render(ui.Fit("flame: NEW's call tree, width = "+what+" in NEW; + grown, - shrunk, = within 5% of BASE", w)))
	return out
}
