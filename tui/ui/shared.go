package ui

import (
	"io"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
)

// Smallest usable terminal.
const (
	minWidth  = 40
	minHeight = 10
)

// Shared is the context every view reads: terminal size, styles, key
// bindings and how instants read. The root model writes the size (on
// resize); the main screen writes AbsTimes (its absolute-times key);
// every other view only reads it.
type Shared struct {
	Width, Height int
	Styles        *Styles
	Keys          keymap.KeyMap
	Clipboard     io.Writer // where OSC 52 copies go (nil: none)
	// TmuxCopy, when the browser runs in tmux, puts text in tmux's paste
	// buffer (and on to the terminal's clipboard when tmux can): tmux's
	// default configuration drops OSC 52 from applications. nil: not in
	// tmux.
	TmuxCopy func(text string) error
	AbsTimes bool // instants as absolute seconds, not +offsets (see RelTime)
}

// Quits reports whether k quits: the quit binding, and Ctrl-C whatever
// keys.json says, so a way out always exists (a keys.json with
// {"quit": []} left none).
func (sh *Shared) Quits(k tea.KeyMsg) bool {
	return k.Type == tea.KeyCtrlC || key.Matches(k, sh.Keys.Quit)
}

// TooSmall reports whether the terminal is smaller than the browser
// can use.
func (sh *Shared) TooSmall() bool { return sh.Width < minWidth || sh.Height < minHeight }

// ScreenLayout is where each part of the browser goes.
type ScreenLayout struct {
	TreeW, GanttW int // row tree and Gantt widths (plus a 1-column separator)
	GanttRows     int // Gantt lines
	TableEvents   int // event lines of the table (0: table hidden)
}

// Fixed lines: density strip, two ruler lines, details, status, help.
const fixedLines = 6

// Layout splits the screen. The table gets the lines asked for, leaving
// the Gantt at least 3 rows; it is hidden when that is impossible.
func (sh *Shared) Layout(showTable bool, tableLines int) ScreenLayout {
	var l ScreenLayout
	l.TreeW = min(max(sh.Width/4, 12), 36)
	l.GanttW = max(sh.Width-l.TreeW-1, 1)
	avail := max(sh.Height-fixedLines, 1)
	if showTable {
		l.TableEvents = min(max(tableLines, 1), avail-2-3) // header and filter lines
		if l.TableEvents < 1 {
			l.TableEvents = 0
		}
	}
	l.GanttRows = avail
	if l.TableEvents > 0 {
		l.GanttRows -= l.TableEvents + 2
	}
	return l
}

// RelTime prints t as an offset from the trace start, precise to res, or
// as absolute seconds precise to res when the user toggled absolute
// times: the one place that decides how instants read on screen.
func (sh *Shared) RelTime(start, t, res core.Time) string {
	if sh.AbsTimes {
		return frame.FormatTimestampAt(t, res)
	}
	return "+" + frame.FormatDurationAt(t-start, res)
}

// TickLabel is a ruler tick's label, a step after the previous one: the
// offset without its "+" (every tick is one) or the absolute seconds, as
// RelTime reads them.
func (sh *Shared) TickLabel(start, t, step core.Time) string {
	return strings.TrimPrefix(sh.RelTime(start, t, step), "+")
}

// EventTime prints an event's time in the table: absolute seconds, or,
// unless the user toggled absolute times (the same switch as relTime's),
// the offset from the trace start in seconds. Both keep all nine
// decimals, so the column's digits line up from row to row.
func (sh *Shared) EventTime(start, t core.Time) string {
	switch {
	case sh.AbsTimes:
		return core.FormatTimestamp(t)
	case t < start: // an event before the history's start
		return "-" + core.FormatTimestamp(start-t)
	}
	return "+" + core.FormatTimestamp(t-start)
}

// Hint is a focus's one-line hint, as the views' help lines print it.
func (sh *Shared) Hint(focus string) string {
	var items []string
	for _, u := range sh.Keys.Hint(focus) {
		items = append(items, u.Keys()+" "+u.HintText())
	}
	return joinHelp(sh.Styles, items...)
}

// RangeTitle is the title line of a screen about [from, to]: what, the
// range relative to the trace start, and its length.
func (sh *Shared) RangeTitle(what string, start, from, to core.Time, w int) string {
	res := frame.RangeRes(from, to)
	title := what + " " + sh.RelTime(start, from, res) + "–" + sh.RelTime(start, to, res) + " (" + core.FormatDuration(to-from+1) + ")"
	return sh.Styles.Title.Render(Fit(title, w))
}

// PanelLines is the height of the statistics and overview screens: all
// but the strip, the ruler, the status and the help lines.
func (sh *Shared) PanelLines() int { return max(sh.Height-5, 1) }

// TooSmallScreen is the whole screen when the terminal is too small.
func (sh *Shared) TooSmallScreen() string {
	st := sh.Styles
	msg := st.Warning.Render("terminal too small") + "\n" + st.Dim.Render("need at least 40x10")
	return lipgloss.Place(sh.Width, sh.Height, lipgloss.Center, lipgloss.Center, msg)
}

// SplitKeys splits keys typed faster than the terminal is read, which
// arrive as one message (":+1ms" over a slow link), so that they are
// handled one by one; ok is false for any other message.
func SplitKeys(msg tea.Msg) (keys []tea.KeyMsg, ok bool) {
	k, isKey := msg.(tea.KeyMsg)
	if !isKey || k.Type != tea.KeyRunes || len(k.Runes) <= 1 || k.Paste {
		return nil, false
	}
	for _, r := range k.Runes {
		keys = append(keys, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: k.Alt})
	}
	return keys, true
}
