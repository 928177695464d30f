package help

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// Screen is the full help (?): the keys of every focus (the Gantt, the
// table, each view), then what the screen's glyphs and words mean. It
// scrolls, so that nothing is cut on a small terminal.
type Screen struct {
	sh  *ui.Shared
	Top int // first line of the text shown
}

// Update scrolls on the movement keys and closes on esc or the help key.
func (hv *Screen) Update(msg tea.Msg) ui.Step {
	m, ok := msg.(tea.KeyMsg)
	if !ok {
		return ui.Step{}
	}
	km := &hv.sh.Keys
	if m.Type == tea.KeyEsc || key.Matches(m, km.Help) {
		return ui.Step{Done: true}
	}
	page := hv.Page()
	if d, ok := ui.LineMove(km, m, int64(page)); ok {
		last := max(len(HelpText(hv.sh, hv.sh.Width))-page, 0)
		hv.Top = int(max(min(int64(hv.Top)+d, int64(last)), 0))
		return ui.Step{}
	}
	return ui.Step{Note: "help: " + hv.Help()}
}

// Page is how many lines of the text the screen shows (the title line
// stays).
func (hv *Screen) Page() int { return max(hv.sh.PanelLines()-1, 1) }

// Help is the help screen's own keys.
func (hv *Screen) Help() string { return hv.sh.Hint(keymap.FocusHelp) }

// Close has nothing to cancel.
func (hv *Screen) Close() {}

// View draws the title with the position, then the text from top.
func (hv *Screen) View(a ui.Area) []string {
	st := hv.sh.Styles
	text := HelpText(hv.sh, a.Width)
	page := max(a.Height-1, 1)
	top := max(min(hv.Top, len(text)-page), 0)
	end := min(top+page, len(text))
	where := "lines " + strconv.Itoa(top+1) + "–" + strconv.Itoa(end) + " of " + strconv.Itoa(len(text))
	if st.ASCII {
		where = strings.ReplaceAll(where, "–", "-")
	}
	out := []string{ui.PadStyled(st.Title.Render("Keys by focus")+st.Dim.Render("  "+where+"; keys.json overrides the keys"), a.Width)}
	for _, l := range text[top:end] {
		out = append(out, ui.PadStyled(l, a.Width))
	}
	return ui.FillLines(out, a.Height)
}

// HintBindings is a focus's hint as bindings, for the main screen's
// help line (bubbles' short help styles keys and words apart).
func HintBindings(km *keymap.KeyMap, focus string) []key.Binding {
	var out []key.Binding
	for _, u := range km.Hint(focus) {
		out = append(out, key.NewBinding(key.WithKeys(u.Keys()), key.WithHelp(u.Keys(), u.HintText())))
	}
	return out
}

// HelpText is the help's text at a width: each focus's keys, in as many
// columns as fit, then the notes.
func HelpText(sh *ui.Shared, width int) []string {
	st := sh.Styles
	var out []string
	for _, f := range sh.Keys.Focuses() {
		switch intro := ": " + f.Intro; {
		case f.Intro == "":
			out = append(out, st.Bold.Render(ui.Trunc(f.Name, width)))
		case frame.Cells(f.Name+intro) <= width:
			out = append(out, st.Bold.Render(f.Name)+st.Dim.Render(intro))
		default: // the intro wrapped under the name
			out = append(out, st.Bold.Render(ui.Trunc(f.Name, width)))
			for _, l := range ui.WrapText(f.Intro, max(width, 10)) {
				out = append(out, st.Dim.Render(l))
			}
		}
		out = append(out, keyColumns(st, f.Uses, width)...)
		out = append(out, "")
	}
	out = append(out, st.Bold.Render("What the screen shows"))
	for _, n := range screenNotes(st) {
		for i, l := range ui.WrapText(n, max(width-2, 10)) {
			if i > 0 {
				l = "  " + l
			}
			out = append(out, l)
		}
	}
	return out
}

// keyColumns lays a focus's keys out column by column, as many columns
// as the width holds (each column as wide as its longest entry).
func keyColumns(st *ui.Styles, uses []keymap.Use, width int) []string {
	var shown []keymap.Use
	for _, u := range uses {
		if u.Binding == nil || u.Binding.Enabled() { // not unbound in keys.json
			shown = append(shown, u)
		}
	}
	if len(shown) == 0 {
		return nil
	}
	// keyW and descW are the widths of column c's keys and descriptions
	// when the entries are in rows lines.
	widths := func(rows, c int) (keyW, descW int) {
		for _, u := range shown[c*rows : min((c+1)*rows, len(shown))] {
			keyW = max(keyW, frame.Cells(u.Keys()))
			descW = max(descW, frame.Cells(u.Description()))
		}
		return keyW, descW
	}
	rows := len(shown)
	for cols := len(shown); cols > 1; cols-- {
		r := (len(shown) + cols - 1) / cols
		total := 3 * (cols - 1)
		for c := range (len(shown) + r - 1) / r {
			k, d := widths(r, c)
			total += k + 1 + d
		}
		if total <= width {
			rows = r
			break
		}
	}
	out := make([]string, rows)
	for c := range (len(shown) + rows - 1) / rows {
		keyW, descW := widths(rows, c)
		descW = max(min(descW, width-keyW-1), 0) // one column: cut to the width
		for r := range rows {
			i := c*rows + r
			if i >= len(shown) {
				break
			}
			if c > 0 {
				out[r] += "   "
			}
			u := shown[i]
			out[r] += st.Help.FullKey.Render(ui.Fit(u.Keys(), keyW)) + " " + st.Help.FullDesc.Render(ui.Fit(u.Description(), descW))
		}
	}
	return out
}

// screenNotes explains what the keys cannot: the glyphs, the status and
// overview words, the marks.
func screenNotes(st *ui.Styles) []string {
	multi, sel, hatch, first, cur, delta, levels := "▒", "the selected row is reversed", "╱", "▏", "▼", "B−A", "▁ to █"
	multiNote := multi + "  the row changed state more than once in that column: zoom in to see each state."
	if st.ASCII {
		levels = ". to @"
		sel, hatch, first, cur, delta = "* marks the selected row and event, [ ] the focused column", "/", "|", "v", "B-A"
		multiNote = "A column where the row changed state shows its longest state's glyph: zoom in to see each state."
	}
	return []string{
		"esc  clears the selection, closes a view or the prompt; " + sel + ".",
		multiNote,
		"samples (perf.data profiles), under each thread that took any: its samples in each column, " + levels + " of the busiest column on screen; select a range (space, move, space) and press F for its flame graph.",
		"Times read +offset from the trace start, or absolute seconds after T (ruler, status, details); they carry the digits that tell ticks and columns apart.",
		"Status line: the trace, the visible range, the zoom factor, the cursor, sel the selection's length, " + delta + " the marks' delta, q the time the frame's query took, then exact (every interval read), sampled (4 instants per column: zoom in for exact) or summary (thread, CPU and IRQ rows drawn from the index's per-bucket summaries, no interval read; a mark may also mean changes just outside the column: zoom in for exact).",
		"Ruler: " + cur + " the cursor, letters the marks (set with m, jump with '), the selection highlighted.",
		"Overviews aggregate rows and time into parts at a p from 0 (every detail) to 1 (one part): w/s step through the p that change the picture.",
		hatch + "  overview: several parts share the cell, too small to draw (never a state): press w for a finer p or enter to zoom.",
		first + "  overview: the first column of a part; its shade says how much of the part its dominant state fills.",
		"Overview labels: \"asm 18386 (7)\" sums a process's 7 rows; \"asm 18386 +1\" sums a group of processes, this one and 1 more; a trailing \"(+6)\" says 6 more rows or groups share the screen line.",
		"Overview title: the detail level (w finer, s coarser: the levels worth showing), the parts and the time slices, the groups when rows were summed, the time it took, then the measures: p, and the gain and loss of information of the parts.",
	}
}

// New returns the full help screen, scrolled to its top.
func New(sh *ui.Shared) *Screen { return &Screen{sh: sh} }
