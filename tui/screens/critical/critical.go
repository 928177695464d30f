package critical

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/critpath"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// The critical-path view: for the thread selected in Control Flow, over
// the selection or else the visible range, who made progress on its
// behalf (ingest/query/critpath). A Gantt has one row per thread on the path
// (the selected one first, then by time on the path), cells drawn with
// the state's glyph and colour and '>' where the path jumps to the row; a
// legend; a table of segments. Enter moves Control Flow to the selected
// segment's thread and start.

// critGlyphs are the states' glyphs, by critpath.State, readable without
// colour.
var critGlyphs = []string{"#", "~", "!", "x", "t", "n", "d", "u", "i", "?"}

// critRow is one thread of the path.
type critRow struct {
	worker  critpath.Worker
	label   string
	elapsed core.Time
}

// Screen is the critical-path screen, a view.
type Screen struct {
	sh    *ui.Shared
	host  Host
	title string
	job   ui.Job
	Path  *critpath.Path
	Rows  []critRow
	Err   error
	sel   int // selected segment
	top   int // first segment line shown
}

// critPathMsg is the computed path.
type critPathMsg struct {
	seq  uint64
	path *critpath.Path
	err  error
}

// Host is the main screen, which names the path's threads, prints
// its times and goes to a segment.
type Host interface {
	ThreadLabel(w core.Waker) string
	RelTime(t core.Time) string
	GoToWorker(w critpath.Worker, t core.Time) tea.Cmd
}

// New opens the critical path of worker w over [from, to) and
// returns the command computing it; title says whose and over what.
func New(ctx context.Context, sh *ui.Shared, host Host, h core.History, w critpath.Worker, from, to core.Time, title string) (*Screen, tea.Cmd) {
	v := &Screen{sh: sh, host: host, title: title}
	ctx, seq := v.job.Start(ctx)
	return v, func() tea.Msg {
		p, err := critpath.Compute(ctx, h, w, from, to, critpath.Options{})
		return critPathMsg{seq, p, err}
	}
}

// Update handles a key or the result.
func (v *Screen) Update(msg tea.Msg) ui.Step {
	km := &v.sh.Keys
	switch msg := msg.(type) {
	case critPathMsg:
		if v.job.Current(msg.seq) {
			v.job.Finish()
			v.Path, v.Err = msg.path, msg.err
			v.Rows = critRows(msg.path, v.host)
		}
	case tea.KeyMsg:
		n := 0
		if v.Path != nil {
			n = len(v.Path.Segments)
		}
		switch {
		case msg.Type == tea.KeyEsc:
			return ui.Step{Done: true}
		case key.Matches(msg, km.Up):
			v.sel = max(v.sel-1, 0)
		case key.Matches(msg, km.Down):
			v.sel = max(min(v.sel+1, n-1), 0)
		case key.Matches(msg, km.Toggle):
			if v.sel < n {
				s := v.Path.Segments[v.sel]
				return ui.Step{Done: true, Cmd: v.host.GoToWorker(s.Worker, s.Start)}
			}
		default:
			return ui.Step{Pass: true}
		}
	}
	return ui.Step{}
}

// critRows lists the path's threads: the target first, then in the order
// they appear on the path, with their time on it.
func critRows(p *critpath.Path, b Host) []critRow {
	if p == nil {
		return nil
	}
	rows := []critRow{{worker: p.Target}}
	for _, s := range p.Segments {
		i := slices.IndexFunc(rows, func(r critRow) bool { return r.worker == s.Worker })
		if i < 0 {
			rows = append(rows, critRow{worker: s.Worker})
			i = len(rows) - 1
		}
		rows[i].elapsed += s.End - s.Start
	}
	for i := range rows {
		w := rows[i].worker
		rows[i].label = b.ThreadLabel(core.Waker{Kind: core.WakerThread, ID: w.TID, CPU: w.CPU})
	}
	return rows
}

// Help is the view's help line.
func (v *Screen) Help() string {
	return v.sh.Hint(keymap.FocusCritPath)
}

// Close cancels the computation.
func (v *Screen) Close() { v.job.Stop() }

// View draws the title, the Gantt, the legend and the segment table.
func (v *Screen) View(a ui.Area) []string {
	st := v.sh.Styles
	lines := []string{st.Title.Render(v.title)}
	switch {
	case v.Err != nil:
		lines = append(lines, st.Error.Render("failed: "+v.Err.Error()))
	case v.Path == nil:
		lines = append(lines, st.Dim.Render("computing…"))
	default:
		lines = append(lines, v.summary())
		lines = append(lines, v.gantt(a.Width, max(a.Height/3, 1))...)
		lines = append(lines, v.legend())
		lines = append(lines, v.table(a.Width, a.Height-len(lines))...)
	}
	for i := range lines {
		lines[i] = ui.PadStyled(ui.FitANSI(lines[i], a.Width), a.Width)
	}
	for len(lines) < a.Height {
		lines = append(lines, strings.Repeat(" ", a.Width))
	}
	return lines[:a.Height]
}

// summary says how much of the range the path covers and at what cost.
func (v *Screen) summary() string {
	p := v.Path
	s := fmt.Sprintf("%d segments on %d threads, %d edges visited", len(p.Segments), len(v.Rows), p.Work)
	if p.Truncated {
		s += " · work bound reached: some waits are unknown"
	}
	return v.sh.Styles.Dim.Render(s)
}

// labelWidth is the width of the Gantt's row labels.
const critLabelWidth = 24

// gantt draws up to n rows of the path over the range, one column per
// equal slice of it; a column shows the first segment of the row in it.
func (v *Screen) gantt(width, n int) []string {
	p := v.Path
	cols := max(width-critLabelWidth-1, 1)
	colStart := func(c int) core.Time { return p.From + core.Time(int64(p.To-p.From)*int64(c)/int64(cols)) }
	var out []string
	for _, r := range v.Rows[:min(n, len(v.Rows))] {
		var b strings.Builder
		b.WriteString(frame.PadCells(frame.TruncCells(r.label, critLabelWidth, "…"), critLabelWidth) + " ")
		i := 0 // first segment ending after the column's start
		for c := range cols {
			c0, c1 := colStart(c), max(colStart(c+1), colStart(c)+1)
			for i < len(p.Segments) && p.Segments[i].End <= c0 {
				i++
			}
			g := " "
			for j := i; j < len(p.Segments) && p.Segments[j].Start < c1; j++ {
				s := p.Segments[j]
				if s.Worker != r.worker {
					continue
				}
				g = v.sh.Styles.Crit[s.State].Render(critGlyphs[s.State])
				if j > 0 && p.Segments[j-1].Worker != s.Worker && s.Start >= c0 {
					g = v.sh.Styles.Crit[s.State].Render(">") // the path jumps to this row here
				}
				break
			}
			b.WriteString(g)
		}
		out = append(out, b.String())
	}
	return out
}

// legend lists the states' glyphs.
func (v *Screen) legend() string {
	parts := []string{"> jump"}
	for _, s := range critpath.States() {
		parts = append(parts, v.sh.Styles.Crit[s].Render(critGlyphs[s])+" "+s.String())
	}
	return strings.Join(parts, "  ")
}

// table draws the segment table in n lines, the selected line visible.
func (v *Screen) table(width, n int) []string {
	st := v.sh.Styles
	if n < 2 {
		return nil
	}
	segs := v.Path.Segments
	out := []string{st.TableHeader.Render(fmt.Sprintf("  %-14s %-12s %-24s %-13s %s", "start", "duration", "thread", "state", "reason"))}
	rows := n - 1
	v.top = min(max(v.top, v.sel-rows+1), v.sel)
	for i := v.top; i < min(v.top+rows, len(segs)); i++ {
		s := segs[i]
		label := v.host.ThreadLabel(core.Waker{Kind: core.WakerThread, ID: s.Worker.TID, CPU: s.Worker.CPU})
		line := fmt.Sprintf("%-14s %-12s %-24s %-13s %s", v.host.RelTime(s.Start), core.FormatDuration(s.End-s.Start),
			frame.TruncCells(label, 24, "…"), critGlyphs[s.State]+" "+s.State.String(), s.Reason)
		if i == v.sel {
			line = st.TableSelected.Render(frame.PadCells("> "+line, width))
		} else {
			line = "  " + line
		}
		out = append(out, line)
	}
	return out
}
