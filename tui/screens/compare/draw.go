package compare

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/diff"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/ui"
)

// Lines above a table's rows: title, sides, tabs, header.
const headLines = 4

// tabNames are the tabs' short names.
var tabNames = [NumTables]string{"Processes", "Threads", "Syscalls", "Wake-up latency", "IRQs", "Call tree"}

// bodyLines is how many lines a table has, header included (less the
// flame graph's on the call tree).
func (s *Screen) bodyLines() int {
	n := s.sh.PanelLines() - headLines + 1
	if fh := s.flameHeight(); s.Focus == CallTree && fh > 0 && n-fh-1 >= 4 {
		n -= fh + 1
	}
	return max(n, 2)
}

// View draws the comparison screen.
func (s *Screen) View(a ui.Area) []string {
	st := s.sh.Styles
	w := a.Width
	lines := []string{st.Title.Render(ui.Fit("Compare "+s.in.What, w)),
		ui.Fit("base: "+sideText(s.in.Base)+"   new: "+sideText(s.in.New), w), s.tabs(w)}
	t := &s.Tables[s.Focus]
	if fh := s.flameHeight(); s.Focus == CallTree && fh > 0 && a.Height-len(lines)-fh-1 >= 4 {
		lines = append(lines, s.flameView(w, fh)...)
	}
	h := max(a.Height-len(lines), 1)
	lines = append(lines, s.tableLines(t, h, w)...)
	return ui.FillLines(lines, a.Height)
}

// sideText names a side (the main screen puts its range in the name).
func sideText(sd diff.Side) string { return sd.Name }

// tabs is the line of table names, the shown one bracketed (and
// highlighted in colour).
func (s *Screen) tabs(w int) string {
	st := s.sh.Styles
	var b strings.Builder
	plain := 0
	for i, n := range tabNames {
		if i > 0 {
			b.WriteByte(' ')
			plain++
		}
		text := " " + n + " "
		if i == s.Focus {
			text = "[" + n + "]"
			b.WriteString(st.TableFocusCol.Render(text))
		} else {
			b.WriteString(st.Dim.Render(text))
		}
		plain += len(text)
	}
	if plain > w {
		return ui.Fit("["+tabNames[s.Focus]+"] "+strconv.Itoa(s.Focus+1)+"/"+strconv.Itoa(NumTables)+" (tab: next)", w)
	}
	return ui.PadStyled(b.String(), w)
}

// Column widths.
const (
	numW   = 11
	deltaW = 12
	ratioW = 7
	callsW = 15
)

// tableLines draws the shown table in h lines: header, then rows from the
// scroll position (or its status).
func (s *Screen) tableLines(t *Table, h, w int) []string {
	st := s.sh.Styles
	calls := s.Focus == Syscalls
	nameW := w - 2*(numW+1) - (deltaW + 1) - (ratioW + 1)
	if calls {
		nameW -= callsW + 1
	}
	nameW = max(nameW, 6)
	arrow := " ↓"
	if t.Asc {
		arrow = " ↑"
	}
	if st.ASCII {
		arrow = map[bool]string{false: " v", true: " ^"}[t.Asc]
	}
	heads := [numSorts]string{SortDelta: "delta", SortNew: "new", SortBase: "base", SortRatio: "ratio", SortName: t.Title}
	heads[t.SortBy] += arrow
	head := ui.Fit(heads[SortName]+fmt.Sprintf(" (%d)", len(t.Lines)), nameW) + " " + ui.PadLeft(heads[SortBase], numW) + " " +
		ui.PadLeft(heads[SortNew], numW) + " " + ui.PadLeft(heads[SortDelta], deltaW) + " " + ui.PadLeft(heads[SortRatio], ratioW)
	if calls {
		head += " " + ui.PadLeft("calls", callsW)
	}
	out := []string{st.TableFocusCol.Render(ui.Fit(head, w))}
	if t.status != "" || len(t.Lines) == 0 {
		msg := t.status
		if msg == "" {
			msg = "nothing on either side"
		}
		out = append(out, st.Dim.Render(ui.Fit(msg, w)))
	}
	for j := t.top; t.status == "" && len(out) < h && j < len(t.Lines); j++ {
		out = append(out, s.lineText(&t.Lines[j], nameW, w, calls, j == t.Cur))
	}
	return ui.FillLines(out, h)
}

// lineText draws one row. The delta carries its sign ("+" grown, "-"
// shrunk), coloured in colour mode; the selected row is in reverse
// video, or marked with ui.SelMarker in ASCII mode.
func (s *Screen) lineText(l *Line, nameW, w int, calls, sel bool) string {
	st := s.sh.Styles
	var b strings.Builder
	if sel && st.ASCII {
		b.WriteString(ui.SelMarker)
		nameW--
	}
	name := l.Name
	if s.Focus == CallTree {
		name = strings.ReplaceAll(name, ";", " > ")
	}
	b.WriteString(ui.Fit(name, nameW))
	num, sign := dur, diff.SignedDuration
	if s.Focus == CallTree && s.unit == diff.UnitSamples { // counts, not time
		num, sign = count, diff.SignedCount
	}
	b.WriteString(" " + ui.PadLeft(num(l.Base), numW) + " " + ui.PadLeft(num(l.New), numW) + " ")
	delta := ui.PadLeft(sign(l.Delta), deltaW)
	switch {
	case sel && !st.ASCII: // reverse video over the whole line
	case l.Delta > 0:
		delta = st.Warning.Render(delta)
	case l.Delta < 0:
		delta = st.TreeMatch.Render(delta)
	}
	b.WriteString(delta)
	b.WriteString(" " + ui.PadLeft(ratio(l), ratioW))
	if calls {
		to := "→"
		if st.ASCII {
			to = ">"
		}
		b.WriteString(" " + ui.PadLeft(strconv.FormatInt(l.BaseN, 10)+to+strconv.FormatInt(l.NewN, 10), callsW))
	}
	if sel && !st.ASCII {
		return st.TableSelected.Render(ui.PadStyled(b.String(), w))
	}
	return ui.PadStyled(b.String(), w)
}

func dur(ns int64) string { return core.FormatDuration(core.Time(ns)) }

func count(n int64) string { return strconv.FormatInt(n, 10) }

// ratio is new/base: "new" when only on the new side, "gone" when only
// on the base one.
func ratio(l *Line) string {
	if l.New == 0 && l.Base != 0 {
		return "gone"
	}
	if l.Ratio == nil {
		if l.New == 0 {
			return "-"
		}
		return "new"
	}
	return strconv.FormatFloat(*l.Ratio, 'f', 2, 64) + "x"
}

// Help is the comparison screen's help line.
func (s *Screen) Help() string { return s.sh.Hint(keymap.FocusCompare) }
