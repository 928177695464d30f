package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/tui/ui"
)

// The colour legend (c): an overlay drawn by the view below it, which
// knows what its colours mean (the Gantt's states, or the overview's
// states and intensities). It passes every key it does not use down, so
// the view below stays usable while it is shown.

// legendHost is a view that can draw itself with its legend.
type legendHost interface{ viewWithLegend(a ui.Area) []string }

// legendView shows its host's legend.
type legendView struct {
	sh      *ui.Shared
	host    legendHost
	passEsc bool // esc also goes to the host (the Gantt clears its selection)
}

// Update closes the legend on its key or esc and passes the rest down.
func (l *legendView) Update(msg tea.Msg) ui.Step {
	k, ok := msg.(tea.KeyMsg)
	switch {
	case !ok:
		return ui.Step{}
	case key.Matches(k, l.sh.Keys.Legend):
		return ui.Step{Done: true}
	case k.Type == tea.KeyEsc:
		return ui.Step{Done: true, Pass: l.passEsc}
	}
	return ui.Step{Pass: true}
}

// View draws the host with the legend.
func (l *legendView) View(a ui.Area) []string { return l.host.viewWithLegend(a) }

// Help leaves the host's help line.
func (l *legendView) Help() string { return "" }

// Close has nothing to cancel.
func (l *legendView) Close() {}
