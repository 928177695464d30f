package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/tracetui/tracetui/tui/frame"
)

// CellVariant is how a Gantt cell is drawn besides its state.
type CellVariant uint8

const (
	variantSolid    CellVariant = iota // one dominant state
	VariantMulti                       // the row changed state more than once in the column
	VariantCursor                      // the cursor's column
	VariantSelSolid                    // inside the selection
	VariantSelMulti                    // inside the selection, changed more than once
	numVariants
)

// Pen is a precomputed way to draw cells: the escape sequences before and
// after a run of glyphs. Runs of equal pens are written once, so a frame
// costs a few string appends per colour change, not a lipgloss render per
// cell.
type Pen struct {
	Prefix, Glyph, Suffix string
}

// Ink is a text style resolved once: the escape sequences around a
// single line of text. Rendering with an ink is two string appends, where a
// lipgloss render converts colours on every call (a frame draws hundreds
// of styled spans).
type Ink struct{ prefix, suffix string }

// Render styles one line of text.
func (i Ink) Render(s string) string {
	if i.prefix == "" {
		return s
	}
	return i.prefix + s + i.suffix
}

// inkOf resolves a lipgloss style (colours, bold, reverse...; no width,
// padding or border) into an ink.
func inkOf(st lipgloss.Style) Ink {
	pre, suf, _ := strings.Cut(st.Render("X"), "X")
	return Ink{pre, suf}
}

// SelMarker marks the selected row of the tree and of the table, and
// brackets the table's focused column, in ASCII mode: without colour
// (NO_COLOR, --ascii) the terminal draws no reverse video either.
const SelMarker = "*"

// Styles is every style of the browser, built once for a renderer (and
// so a colour profile). In ASCII mode (--ascii, NO_COLOR or a terminal
// without colour) states are told apart by glyphs alone.
type Styles struct {
	ASCII bool
	// SevenBit (--ascii): the output is 7-bit only, the trace's own
	// non-ASCII text included ([Styles.Plain]).
	SevenBit bool

	Pens [frame.NumPalette][numVariants]Pen
	// OvPens draw the overview's parts: per colour, intensity level and
	// whether the cell is a part's first column.
	OvPens [frame.NumPalette][NumLevels][2]Pen
	Hatch  Pen // merged parts smaller than a cell (never a state)

	Title, Dim, Bold, Error, Warning                 Ink
	Status, Details, Ruler, RulerCursor, RulerSelect Ink
	TreeSelected, TreeProcess, TreeMatch             Ink
	TableHeader, TableSelected, TableFocusCol        Ink
	FilterRow, FilterError, Prompt, Reverse          Ink
	StripIn, StripOut, StripBracket                  Ink
	Crit                                             []Ink // critical-path states, by critpath.State
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
	fg := func(hex string) lipgloss.Style { return st().Foreground(s.colour(hex)) }
	s.Title = inkOf(st().Bold(true))
	s.Dim = inkOf(fg("#808080"))
	s.Bold = inkOf(st().Bold(true))
	s.Error = inkOf(fg("#ff5f5f").Bold(true))
	s.Warning = inkOf(fg("#ffaf00"))
	s.Status = inkOf(st().Background(s.colour("#303030")).Foreground(s.colour("#d0d0d0")))
	s.Details = inkOf(fg("#d0d0d0"))
	s.Ruler = inkOf(fg("#a0a0a0"))
	s.RulerCursor = inkOf(fg("#ffffff").Bold(true))
	s.RulerSelect = inkOf(st().Background(s.colour("#5f5f87")).Foreground(s.colour("#ffffff")))
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
	s.StripIn = inkOf(fg("#87afd7"))
	s.StripOut = inkOf(fg("#5f5f5f"))
	s.StripBracket = inkOf(fg("#ffffff").Bold(true))
	for _, hex := range critColours {
		s.Crit = append(s.Crit, inkOf(fg(hex)))
	}
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
	for i := range frame.NumPalette {
		for v := range numVariants {
			s.Pens[i][v] = s.makePen(uint8(i), v)
		}
		for level := range NumLevels {
			for start := range 2 {
				s.OvPens[i][level][start] = s.makeOvPen(uint8(i), level, start == 1)
			}
		}
	}
	s.Hatch = Pen{Glyph: "/"}
	if !ascii {
		s.Hatch = Pen{Glyph: "╱"}
		s.Hatch.Prefix, s.Hatch.Suffix, _ = strings.Cut(st().Foreground(s.colour("#b0b0b0")).Render("X"), "X")
	}
	return s
}

// colour returns a "#rrggbb" colour for the renderer's profile. On a
// 256-colour terminal it is the nearest xterm colour (of the 6x6x6 cube
// or the grey ramp): termenv's own conversion sends some saturated
// colours (#d00040, "interrupted") and many dark shades to #080808, black
// on a dark terminal.
func (s *Styles) colour(hex string) lipgloss.Color {
	if s.Renderer == nil || s.Renderer.ColorProfile() != termenv.ANSI256 {
		return lipgloss.Color(hex)
	}
	v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	if err != nil {
		return lipgloss.Color(hex)
	}
	return lipgloss.Color(strconv.Itoa(xterm256(int(v>>16&0xff), int(v>>8&0xff), int(v&0xff))))
}

// xterm256 returns the index of the xterm-256 colour nearest to r, g, b.
func xterm256(r, g, b int) int {
	levels := [6]int{0, 95, 135, 175, 215, 255}
	near := func(c int) int {
		best := 0
		for i, l := range levels {
			if abs(l-c) < abs(levels[best]-c) {
				best = i
			}
		}
		return best
	}
	dist := func(x, y, z int) int { return (x-r)*(x-r) + (y-g)*(y-g) + (z-b)*(z-b) }
	ri, gi, bi := near(r), near(g), near(b)
	cube, cubeD := 16+36*ri+6*gi+bi, dist(levels[ri], levels[gi], levels[bi])
	grey := min(max((r+g+b)/3-3, 0)/10, 23) // ramp: 8, 18, ..., 238
	if lv := 8 + 10*grey; dist(lv, lv, lv) < cubeD {
		return 232 + grey
	}
	return cube
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// levelShade is how much of a state's colour each overview intensity
// keeps (the rest is the dark background's).
var levelShade = [NumLevels]float64{0.45, 0.72, 1}

// makeOvPen renders an overview pen. In ASCII mode a part shows its
// state's glyph on its first column and, after it, the glyph again at full
// intensity, '=' at mid and '-' when light.
func (s *Styles) makeOvPen(colour uint8, level int, start bool) Pen {
	if s.ASCII {
		if start || level == NumLevels-1 {
			return Pen{} // the state's own glyph
		}
		return Pen{Glyph: [NumLevels]string{"-", "="}[level]}
	}
	st := s.Renderer.NewStyle()
	if hex := frame.PaletteHex(colour); hex != "" {
		st = st.Background(s.colour(shade(hex, levelShade[level])))
	}
	glyph := " "
	if start {
		glyph = "▏"
		st = st.Foreground(s.colour("#000000"))
	}
	pre, suf, _ := strings.Cut(st.Render("X"), "X")
	return Pen{Prefix: pre, Glyph: glyph, Suffix: suf}
}

// shade scales a "#rrggbb" colour towards black.
func shade(hex string, f float64) string {
	v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	if err != nil || f >= 1 {
		return hex
	}
	r, g, b := float64(v>>16&0xff)*f, float64(v>>8&0xff)*f, float64(v&0xff)*f
	return fmt.Sprintf("#%02x%02x%02x", int(r), int(g), int(b))
}

// makePen renders one (colour, variant) pair once and splits the result
// around the glyph, so drawing reuses lipgloss's escape sequences.
func (s *Styles) makePen(colour uint8, v CellVariant) Pen {
	if s.ASCII {
		// A column that changed state shows its longest state's glyph,
		// as colour shows its colour: a mark of its own ('%') made every
		// busy CPU and every idle one alike at coarse zoom.
		switch v {
		case VariantCursor:
			return Pen{Glyph: "|"}
		}
		return Pen{} // the state's own glyph, set per cell
	}
	st := s.Renderer.NewStyle()
	hex := frame.PaletteHex(colour)
	glyph := " "
	switch v {
	case variantSolid:
		if hex != "" {
			st = st.Background(s.colour(hex))
		}
	case VariantMulti:
		glyph = "▒"
		if hex != "" {
			st = st.Foreground(s.colour(hex))
		}
	case VariantCursor:
		glyph = "│"
		st = st.Foreground(s.colour("#ffffff")).Bold(true)
		if hex != "" {
			st = st.Background(s.colour(hex))
		}
	case VariantSelSolid:
		glyph = "·"
		st = st.Foreground(s.colour("#ffffff")).Background(s.colour("#5f5f87"))
		if hex != "" {
			st = st.Background(s.colour(hex))
		}
	case VariantSelMulti:
		glyph = "▒"
		st = st.Background(s.colour("#5f5f87"))
		if hex != "" {
			st = st.Foreground(s.colour(hex))
		}
	}
	out := st.Render("X")
	pre, suf, _ := strings.Cut(out, "X")
	return Pen{Prefix: pre, Glyph: glyph, Suffix: suf}
}

// Swatch draws one legend sample of a paint.
func (s *Styles) Swatch(p frame.Paint) string {
	pn := s.Pens[p.Colour][variantSolid]
	if s.ASCII {
		return string(p.Glyph) + string(p.Glyph)
	}
	return pn.Prefix + "  " + pn.Suffix
}

// Intensity levels: the dominant state fills at least 2/3 of the part
// (full colour), at least 1/3 (mid), or less (light).
const NumLevels = 3

// critColours are Trace Compass's colours of the states, by critpath.State.
var critColours = []string{"#339900", "#c86400", "#ffdc00", "#dc143c", "#336699", "#ff9bff", "#6600cc", "#5a0101", "#6666cc", "#403b33"}
