package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
)

// helpView is the full help (?): every binding, by group. Any key closes
// it.
type helpView struct{ sh *shared }

// Update closes the help on any key.
func (hv *helpView) Update(msg tea.Msg) step {
	if _, ok := msg.(tea.KeyMsg); ok {
		return step{done: true}
	}
	return step{}
}

// Help leaves the help line of the view below.
func (hv *helpView) Help() string { return "" }

// Close has nothing to cancel.
func (hv *helpView) Close() {}

// screenNotes explains what the keys table cannot: esc, the glyphs and
// the status line's words.
func screenNotes(st *Styles) []string {
	multi, sel := "▒", "the selected row is reversed"
	if st.ASCII {
		multi, sel = "%", "* marks the selected row and event, [ ] the focused column"
	}
	return []string{
		"esc  clears the selection, closes a view or the prompt; " + sel,
		multi + "  the row changed state more than once in the column: zoom in",
		"╱ (/)  overview: several parts share the cell (never a state)",
		"status: exact = every interval read, sampled = 4 instants per column (zoom in for exact)",
	}
}

// View lays the help groups out in as many columns as fit, block under
// block, cut to the area.
func (hv *helpView) View(a area) []string {
	sh := hv.sh
	h := help.New()
	h.Styles = sh.styles.Help
	groups := sh.keys.FullHelp()
	var blocks []string
	for i := 0; i < len(groups); {
		j := i + 1
		for j < len(groups) && lipgloss.Width(h.FullHelpView(groups[i:j+1])) <= a.width {
			j++
		}
		blocks = append(blocks, h.FullHelpView(groups[i:j]))
		i = j
	}
	title := sh.styles.Title.Render("Keys") + sh.styles.Dim.Render("  (any key closes; keys.json overrides them)")
	out := append([]string{title}, strings.Split(strings.Join(blocks, "\n\n"), "\n")...)
	out = append(out, "")
	for _, l := range screenNotes(sh.styles) {
		out = append(out, sh.styles.Dim.Render(fit(l, a.width)))
	}
	out = fillLines(out, a.height)
	for i := range out {
		out[i] = padStyled(out[i], a.width)
	}
	return out
}
