package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// The colour legend (c): an overlay drawn by the view below it, which
// knows what its colours mean (the Gantt's states, or the overview's
// states and intensities). It passes every key it does not use down, so
// the view below stays usable while it is shown.

// LegendHost is a view that can draw itself with its legend.
type LegendHost interface{ ViewWithLegend(a Area) []string }

// LegendView shows its host's legend.
type LegendView struct {
	Sh      *Shared
	Host    LegendHost
	PassEsc bool // esc also goes to the host (the Gantt clears its selection)
}

// Update closes the legend on its key or esc and passes the rest down.
func (l *LegendView) Update(msg tea.Msg) Step {
	k, ok := msg.(tea.KeyMsg)
	switch {
	case !ok:
		return Step{}
	case key.Matches(k, l.Sh.Keys.Legend):
		return Step{Done: true}
	case k.Type == tea.KeyEsc:
		return Step{Done: true, Pass: l.PassEsc}
	}
	return Step{Pass: true}
}

// View draws the host with the legend.
func (l *LegendView) View(a Area) []string { return l.Host.ViewWithLegend(a) }

// Help leaves the host's help line.
func (l *LegendView) Help() string { return "" }

// Close has nothing to cancel.
func (l *LegendView) Close() {}
