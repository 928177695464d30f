package details

import (
	"context"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// The details pane (i): everything the table and the details line cut.
// The selected event's columns, its fields one per line, untruncated and
// wrapped; then the Gantt cursor's context: the selected row's state
// interval and every attribute under the row at the cursor (Exec_name,
// PPID, System_call, Current_cpu_rq, call stack...), read with one 2D
// query at the cursor instant in the background. j/k and pgup/pgdn scroll.

// Screen is the details pane, a view.
type Screen struct {
	sh     *ui.Shared
	names  *frame.FrameNames
	Event  *core.EventRow // nil: no event selected (or not read yet)
	start  core.Time      // the trace start, for offsets
	col    core.Time      // a column's duration, the precision of times
	cursor core.Time
	row    string // the selected row's label
	domain frame.ValueDomain
	keys   []core.Key // the row's attributes, the drawn one first
	paths  []string   // per key: its path under the row
	Values []string   // per key: its value and interval at the cursor ("" unknown)
	err    error
	Job    ui.Job
	Top    int // first line shown
}

// detailsMsg is the cursor context read in the background.
type detailsMsg struct {
	seq uint64
	ivs []core.Interval
	err error
	ch  <-chan detailsMsg
}

// On returns the report carrying the channel it came from (ui.WaitReport).
func (m detailsMsg) On(ch <-chan detailsMsg) detailsMsg { m.ch = ch; return m }

// New opens the details pane of the event (nil: none selected)
// and of the row n (nil: none) at the cursor, and returns the command
// reading the row's attributes there.
func New(ctx context.Context, sh *ui.Shared, names *frame.FrameNames, hist core.History, win frame.Window, cursor core.Time, event *core.EventRow, n *frame.Node) (*Screen, tea.Cmd) {
	d := &Screen{sh: sh, names: names, start: win.Start, col: win.ColWidth(), cursor: cursor, Event: event}
	if n != nil {
		d.row, d.domain = n.Label, n.Kind.Domain()
		d.collectKeys(hist.Attributes(), n)
	}
	if len(d.keys) == 0 {
		return d, nil
	}
	ctx, seq := d.Job.Start(ctx)
	keys, at := d.keys, cursor
	return d, ui.Spawn(1, func(ch chan<- detailsMsg) {
		m := detailsMsg{seq: seq}
		_, m.err = hist.Query2D(ctx, keys, at, at, func(iv core.Interval) bool {
			m.ivs = append(m.ivs, iv)
			return true
		})
		ch <- m
	})
}

// maxDetailKeys bounds the attributes listed under one row (a thread's
// call stack can be deep; a CPU's children are few).
const maxDetailKeys = 256

// collectKeys lists the row's drawn attribute and every attribute under
// the row's thread (or under the drawn attribute), depth first.
func (d *Screen) collectKeys(at *core.AttributeTree, n *frame.Node) {
	root := n.Thread
	if root < 0 {
		root = n.Key
	}
	if n.Key >= 0 {
		first := "state"
		if n.Kind == frame.KindSamples {
			first = core.AttrSamples
		}
		d.keys, d.paths = append(d.keys, n.Key), append(d.paths, first)
	}
	if root < 0 {
		return
	}
	var walk func(k core.Key, prefix string)
	walk = func(k core.Key, prefix string) {
		at.EachChild(k, func(c core.Key) {
			if len(d.keys) >= maxDetailKeys {
				return
			}
			p := prefix + at.Name(c)
			if c != n.Key {
				d.keys, d.paths = append(d.keys, c), append(d.paths, p)
			}
			walk(c, p+"/")
		})
	}
	walk(root, "")
	d.Values = make([]string, len(d.keys))
}

// Update scrolls, closes on its key or esc, and takes its query's result.
func (d *Screen) Update(msg tea.Msg) ui.Step {
	switch m := msg.(type) {
	case detailsMsg:
		if !d.Job.Current(m.seq) {
			return ui.Step{}
		}
		d.Job.Finish()
		d.err = m.err
		pos := map[core.Key]int{}
		for i, k := range d.keys {
			pos[k] = i
		}
		for _, iv := range m.ivs {
			if i, ok := pos[iv.Key]; ok && !iv.Value.IsNull() {
				d.Values[i] = d.describe(i, iv)
			}
		}
		return ui.Step{}
	case tea.KeyMsg:
		km := &d.sh.Keys
		switch {
		case key.Matches(m, km.Details) || m.Type == tea.KeyEsc:
			return ui.Step{Done: true}
		case key.Matches(m, km.Down):
			d.Top++
		case key.Matches(m, km.Up):
			d.Top = max(d.Top-1, 0)
		case key.Matches(m, km.PageDown):
			d.Top += max(d.sh.PanelLines()-1, 1)
		case key.Matches(m, km.PageUp):
			d.Top = max(d.Top-max(d.sh.PanelLines()-1, 1), 0)
		case key.Matches(m, km.Top):
			d.Top = 0
		default:
			return ui.Step{Pass: !key.Matches(m, km.Bottom)}
		}
	}
	return ui.Step{}
}

// describe prints an attribute's value at the cursor with its interval.
func (d *Screen) describe(i int, iv core.Interval) string {
	v := iv.Value.String()
	if s, ok := d.names.Text(iv.Key, iv.Value); ok {
		v = s
	}
	if i == 0 && d.paths[0] == "state" {
		v = d.names.Describe(iv.Key, d.domain, iv.Value)
	}
	res := frame.IntervalRes(iv, d.col)
	if d.paths[i] == core.AttrSamples {
		// the running count of a thread's samples (tui/frame/framesamples.go)
		return fmt.Sprintf("%s samples up to the cursor, the last at %s", v, d.sh.RelTime(d.start, iv.Start, res))
	}
	return fmt.Sprintf("%s  %s→%s (%s)", v, d.sh.RelTime(d.start, iv.Start, res), d.sh.RelTime(d.start, iv.End, res),
		core.FormatDuration(iv.Duration()))
}

// lines is the pane's text at width w, before scrolling.
func (d *Screen) lines(w int) []string {
	st := d.sh.Styles
	var out []string
	field := func(name, value string) {
		if value == "" {
			value = "·"
		}
		const nameW = 16
		indent := strings.Repeat(" ", nameW+3)
		for i, l := range ui.WrapText(value, max(w-nameW-3, 8)) {
			if i == 0 {
				out = append(out, "  "+ui.Fit(name, nameW)+" "+l)
			} else {
				out = append(out, indent+l)
			}
		}
	}
	if e := d.Event; e != nil {
		out = append(out, st.Title.Render(fmt.Sprintf("Event %d", e.Rank+1)))
		field("Time", core.FormatTimestamp(e.Time)+"  "+d.sh.RelTime(d.start, e.Time, 1))
		for c := frame.ColCPU; c < frame.ColContents; c++ {
			field(c.String(), e.Text(c))
		}
		fields := e.Contents
		if e.Fields != "" { // a format's text (trace.dat): as printed, then each field named
			field("Contents", e.Contents)
			fields = e.Fields
		}
		for _, f := range SplitFields(fields) {
			name, value, ok := strings.Cut(f, " = ")
			if !ok {
				name, value = "", f
			}
			field(name, value)
		}
		// CTF 2's user attributes (LTTng's: tracer, hostname, domain...)
		if e.ClassAttributes != "" {
			field("event attrs", e.ClassAttributes)
		}
		if e.TraceAttributes != "" {
			field("trace attrs", e.TraceAttributes)
		}
	} else {
		out = append(out, st.Dim.Render("no event selected in the table"))
	}
	out = append(out, "")
	if d.row == "" {
		return append(out, st.Dim.Render("no row selected"))
	}
	out = append(out, st.Title.Render(d.row+" at "+d.sh.RelTime(d.start, d.cursor, d.col)))
	if d.err != nil {
		out = append(out, st.Error.Render("cannot read the row's attributes: "+d.err.Error()))
	}
	for i, p := range d.paths {
		v := d.Values[i]
		if v == "" {
			if d.Job.Running() {
				v = "…"
			} else {
				v = "·"
			}
		}
		field(p, v)
	}
	return out
}

// View draws the pane's lines from the scroll position.
func (d *Screen) View(a ui.Area) []string {
	all := d.lines(a.Width)
	d.Top = min(d.Top, max(len(all)-a.Height, 0))
	out := make([]string, 0, a.Height)
	for _, l := range all[d.Top:] {
		if len(out) == a.Height {
			break
		}
		out = append(out, ui.FitANSI(l, a.Width))
	}
	return ui.FillLines(out, a.Height)
}

// Help is the pane's help line.
func (d *Screen) Help() string {
	return d.sh.Hint(keymap.FocusDetails)
}

// Close cancels the query.
func (d *Screen) Close() { d.Job.Stop() }

// SplitFields cuts an event's Contents into its fields: at the commas
// outside quotes and brackets. LTTng's contents are scopes ("{ cpu_id = 0
// }, { tid = 1 }"): then the commas inside a scope split too, and the
// scope's braces are removed.
func SplitFields(s string) []string {
	var out []string
	scoped := strings.HasPrefix(strings.TrimSpace(s), "{")
	split := 0 // the bracket depth at which a comma separates fields
	if scoped {
		split = 1
	}
	depth, quoted, from := 0, false, 0
	add := func(f string) {
		f = strings.TrimSpace(f)
		if scoped {
			f = strings.TrimSpace(strings.TrimPrefix(f, "{"))
			if strings.Count(f, "{") < strings.Count(f, "}") {
				f = strings.TrimSpace(strings.TrimSuffix(f, "}"))
			}
		}
		if f != "" {
			out = append(out, f)
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth <= split:
			add(s[from:i])
			from = i + 1
		}
	}
	add(s[from:])
	return out
}
