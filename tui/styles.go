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

// ink is a text style resolved once: the escape sequences around a
// single line of text. Rendering with an ink is two string appends, where a
// lipgloss render converts colours on every call (a frame draws hundreds
// of styled spans).
type ink struct{ prefix, suffix string }

// Render styles one line of text.
func (i ink) Render(s string) string {
	if i.prefix == "" {
		return s
	}
	return i.prefix + s + i.suffix
}

// inkOf resolves a lipgloss style (colours, bold, reverse...; no width,
// padding or border) into an ink.
func inkOf(st lipgloss.Style) ink {
	pre, suf, _ := strings.Cut(st.Render("X"), "X")
	return ink{pre, suf}
}

// Styles is every style of the browser, built once for a renderer (and
// so a colour profile). In ASCII mode (--ascii, NO_COLOR or a terminal
// without colour) states are told apart by glyphs alone.
type Styles struct {
	ASCII bool

	pens [numPalette][numVariants]pen

	Title, Dim, Bold, Error, Warning                 ink
	Status, Details, Ruler, RulerCursor, RulerSelect ink
	TreeSelected, TreeProcess, TreeMatch             ink
	TableHeader, TableSelected, TableFocusCol        ink
	FilterRow, FilterError, Prompt, Reverse          ink
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
	fg := func(hex string) lipgloss.Style { return st().Foreground(lipgloss.Color(hex)) }
	s.Title = inkOf(st().Bold(true))
	s.Dim = inkOf(fg("#808080"))
	s.Bold = inkOf(st().Bold(true))
	s.Error = inkOf(fg("#ff5f5f").Bold(true))
	s.Warning = inkOf(fg("#ffaf00"))
	s.Status = inkOf(st().Background(lipgloss.Color("#303030")).Foreground(lipgloss.Color("#d0d0d0")))
	s.Details = inkOf(fg("#d0d0d0"))
	s.Ruler = inkOf(fg("#a0a0a0"))
	s.RulerCursor = inkOf(fg("#ffffff").Bold(true))
	s.RulerSelect = inkOf(st().Background(lipgloss.Color("#5f5f87")).Foreground(lipgloss.Color("#ffffff")))
	s.TreeSelected = inkOf(st().Reverse(true))
	s.TreeProcess = inkOf(st().Bold(true))
	s.TreeMatch = inkOf(fg("#87d7ff").Bold(true))
	s.TableHeader = inkOf(st().Bold(true))
	s.TableSelected = inkOf(st().Reverse(true))
	s.TableFocusCol = inkOf(fg("#87d7ff").Bold(true))
	s.FilterRow = inkOf(fg("#87d7ff"))
	s.FilterError = s.Error
	s.Prompt = inkOf(st().Bold(true))
	s.Reverse = inkOf(st().Reverse(true))
	s.Box = st().Border(lipgloss.NormalBorder()).Padding(0, 1)
	if ascii {
		s.Box = st().Border(lipgloss.Border{Top: "-", Bottom: "-", Left: "|", Right: "|",
			TopLeft: "+", TopRight: "+", BottomLeft: "+", BottomRight: "+"}).Padding(0, 1)
	}
	s.Help = help.Styles{
		ShortKey: fg("#b0b0b0").Bold(true), ShortDesc: fg("#808080"),
		ShortSeparator: fg("#4e4e4e"), Ellipsis: fg("#4e4e4e"),
		FullKey: fg("#b0b0b0").Bold(true), FullDesc: fg("#808080"),
		FullSeparator: fg("#4e4e4e"),
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
