package tui

import (
	"io"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
)

// Smallest usable terminal.
const (
	minWidth  = 40
	minHeight = 10
)

// shared is the context every component reads: terminal size, styles and
// key bindings. Only the root model writes it (on resize).
type shared struct {
	width, height int
	styles        *Styles
	keys          keymap.KeyMap
	clipboard     io.Writer // where OSC 52 copies go (nil: none)
	absTimes      bool      // instants as absolute seconds, not +offsets (see relTime)
}

// quits reports whether k quits: the quit binding, and Ctrl-C whatever
// keys.json says, so a way out always exists (a keys.json with
// {"quit": []} left none).
func (sh *shared) quits(k tea.KeyMsg) bool {
	return k.Type == tea.KeyCtrlC || key.Matches(k, sh.keys.Quit)
}

func (sh *shared) tooSmall() bool { return sh.width < minWidth || sh.height < minHeight }

// screenLayout is where each part of the browser goes.
type screenLayout struct {
	treeW, ganttW int // row tree and Gantt widths (plus a 1-column separator)
	ganttRows     int // Gantt lines
	tableEvents   int // event lines of the table (0: table hidden)
}

// Fixed lines: density strip, two ruler lines, details, status, help.
const fixedLines = 6

// layout splits the screen. The table gets the lines asked for, leaving
// the Gantt at least 3 rows; it is hidden when that is impossible.
func (sh *shared) layout(showTable bool, tableLines int) screenLayout {
	var l screenLayout
	l.treeW = min(max(sh.width/4, 12), 36)
	l.ganttW = max(sh.width-l.treeW-1, 1)
	avail := max(sh.height-fixedLines, 1)
	if showTable {
		l.tableEvents = min(max(tableLines, 1), avail-2-3) // header and filter lines
		if l.tableEvents < 1 {
			l.tableEvents = 0
		}
	}
	l.ganttRows = avail
	if l.tableEvents > 0 {
		l.ganttRows -= l.tableEvents + 2
	}
	return l
}

// relTime prints t as an offset from the trace start, precise to res, or
// as absolute seconds precise to res when the user toggled absolute
// times: the one place that decides how instants read on screen.
func (sh *shared) relTime(start, t, res core.Time) string {
	if sh.absTimes {
		return frame.FormatTimestampAt(t, res)
	}
	return "+" + frame.FormatDurationAt(t-start, res)
}

// tickLabel is a ruler tick's label, a step after the previous one: the
// offset without its "+" (every tick is one) or the absolute seconds, as
// relTime reads them.
func (sh *shared) tickLabel(start, t, step core.Time) string {
	return strings.TrimPrefix(sh.relTime(start, t, step), "+")
}
