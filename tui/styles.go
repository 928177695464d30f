package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// cellVariant is how a Gantt cell is drawn besides its state.
type cellVariant uint8

const (
	variantSolid    cellVariant = iota // one dominant state
	variantMulti                       // the row changed state more than once in the column
	variantCursor                      // the cursor's column
	variantSelSolid                    // inside the selection
	variantSelMulti                    // inside the selection, changed more than once
	numVariants
)

// pen is a precomputed way to draw cells: the escape sequences before and
// after a run of glyphs. Runs of equal pens are written once, so a frame
// costs a few string appends per colour change, not a lipgloss render per
// cell.
type pen struct {
	prefix, glyph, suffix string
}

// Styles is every style of the browser, built once for a renderer (and
// so a colour profile). In ASCII mode (--ascii, NO_COLOR or a terminal
// without colour) states are told apart by glyphs alone.
type Styles struct {
	ASCII bool

	pens [numPalette][numVariants]pen

	Title, Dim, Bold, Error, Warning                 lipgloss.Style
	Status, Details, Ruler, RulerCursor, RulerSelect lipgloss.Style
	TreeSelected, TreeProcess, TreeMatch             lipgloss.Style
	TableHeader, TableSelected, TableFocusCol        lipgloss.Style
	FilterRow, FilterError, Prompt                   lipgloss.Style
	Box                                              lipgloss.Style
	Help                                             help.Styles
	Renderer                                         *lipgloss.Renderer
}

// NewStyles builds the styles for r. ascii forces glyph-only drawing (the
// renderer is then switched to the ASCII profile so no escape sequence is
// written).
func NewStyles(r *lipgloss.Renderer, ascii bool) *Styles {
	if ascii {
		r.SetColorProfile(termenv.Ascii)
	}
	ascii = ascii || r.ColorProfile() == termenv.Ascii
	s := &Styles{ASCII: ascii, Renderer: r}
	st := r.NewStyle
	s.Title = st().Bold(true)
	s.Dim = st().Foreground(lipgloss.Color("#808080"))
	s.Bold = st().Bold(true)
	s.Error = st().Foreground(lipgloss.Color("#ff5f5f")).Bold(true)
	s.Warning = st().Foreground(lipgloss.Color("#ffaf00"))
	s.Status = st().Background(lipgloss.Color("#303030")).Foreground(lipgloss.Color("#d0d0d0"))
	s.Details = st().Foreground(lipgloss.Color("#d0d0d0"))
	s.Ruler = st().Foreground(lipgloss.Color("#a0a0a0"))
	s.RulerCursor = st().Foreground(lipgloss.Color("#ffffff")).Bold(true)
	s.RulerSelect = st().Background(lipgloss.Color("#5f5f87")).Foreground(lipgloss.Color("#ffffff"))
	s.TreeSelected = st().Reverse(true)
	s.TreeProcess = st().Bold(true)
	s.TreeMatch = st().Bold(true).Foreground(lipgloss.Color("#87d7ff"))
	s.TableHeader = st().Bold(true)
	s.TableSelected = st().Reverse(true)
	s.TableFocusCol = st().Bold(true).Foreground(lipgloss.Color("#87d7ff"))
	s.FilterRow = st().Foreground(lipgloss.Color("#87d7ff"))
	s.FilterError = s.Error
	s.Prompt = st().Bold(true)
	s.Box = st().Border(lipgloss.NormalBorder()).Padding(0, 1)
	if ascii {
		s.Box = st().Border(lipgloss.Border{Top: "-", Bottom: "-", Left: "|", Right: "|",
			TopLeft: "+", TopRight: "+", BottomLeft: "+", BottomRight: "+"}).Padding(0, 1)
	}
	s.Help = help.Styles{
		ShortKey: st().Foreground(lipgloss.Color("#b0b0b0")).Bold(true), ShortDesc: st().Foreground(lipgloss.Color("#808080")),
		ShortSeparator: st().Foreground(lipgloss.Color("#4e4e4e")), Ellipsis: st().Foreground(lipgloss.Color("#4e4e4e")),
		FullKey: st().Foreground(lipgloss.Color("#b0b0b0")).Bold(true), FullDesc: st().Foreground(lipgloss.Color("#808080")),
		FullSeparator: st().Foreground(lipgloss.Color("#4e4e4e")),
	}
	for i := range numPalette {
		for v := range numVariants {
			s.pens[i][v] = s.makePen(uint8(i), v)
		}
	}
	return s
}

// makePen renders one (colour, variant) pair once and splits the result
// around the glyph, so drawing reuses lipgloss's escape sequences.
func (s *Styles) makePen(colour uint8, v cellVariant) pen {
	if s.ASCII {
		switch v {
		case variantMulti, variantSelMulti:
			return pen{glyph: "%"}
		case variantCursor:
			return pen{glyph: "|"}
		}
		return pen{} // the state's own glyph, set per cell
	}
	st := s.Renderer.NewStyle()
	hex := paletteHex(colour)
	glyph := " "
	switch v {
	case variantSolid:
		if hex != "" {
			st = st.Background(lipgloss.Color(hex))
		}
	case variantMulti:
		glyph = "▒"
		if hex != "" {
			st = st.Foreground(lipgloss.Color(hex))
		}
	case variantCursor:
		glyph = "│"
		st = st.Foreground(lipgloss.Color("#ffffff")).Bold(true)
		if hex != "" {
			st = st.Background(lipgloss.Color(hex))
		}
	case variantSelSolid:
		glyph = "·"
		st = st.Foreground(lipgloss.Color("#ffffff")).Background(lipgloss.Color("#5f5f87"))
		if hex != "" {
			st = st.Background(lipgloss.Color(hex))
		}
	case variantSelMulti:
		glyph = "▒"
		st = st.Background(lipgloss.Color("#5f5f87"))
		if hex != "" {
			st = st.Foreground(lipgloss.Color(hex))
		}
	}
	out := st.Render("X")
	pre, suf, _ := strings.Cut(out, "X")
	return pen{prefix: pre, glyph: glyph, suffix: suf}
}

// swatch draws one legend sample of a paint.
func (s *Styles) swatch(p paint) string {
	pn := s.pens[p.colour][variantSolid]
	if s.ASCII {
		return string(p.glyph) + string(p.glyph)
	}
	return pn.prefix + "  " + pn.suffix
}
