package critical

import (
	"context"
	"regexp"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/critpath"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/ui"
)

// The critical-path view: for the thread selected in Control Flow, over
// the selection or else the visible range, who made progress on its
// behalf (ingest/query/critpath). A Gantt has one row per thread on the
// path (the selected one first, then by time on the path), cells drawn
// with the state's glyph and colour and '>' where the path jumps to the
// row; a legend; then one of three tables, tab cycling them: the
// segments (pageable, searchable with '/'), the time on the path per
// thread and per state (sortable; enter lists that thread's or state's
// segments). Enter on a segment shows it in Control Flow and keeps this
// view on the stack, "away": every key goes to the main screen but B and
// esc, which come back to the view as it was (nothing recomputed).

// critGlyphs are the states' glyphs, by critpath.State, readable without
// colour.
var critGlyphs = []string{"#", "~", "!", "x", "t", "n", "d", "u", "i", "?"}

// critRow is one thread of the path.
type critRow struct {
	worker  critpath.Worker
	label   string
	elapsed core.Time
}

// tab is the table shown under the legend.
type tab uint8

const (
	tabSegments tab = iota
	tabThreads
	tabStates
	numTabs
)

// Screen is the critical-path screen, a view.
type Screen struct {
	sh    *ui.Shared
	host  Host
	title string
	start core.Time // the trace's start, times are offsets from it
	job   ui.Job
	Path  *critpath.Path
	Rows  []critRow
	Err   error

	tab   tab
	segs  segList    // the segments listed
	sums  [2]sumList // per thread, per state
	page  int        // table lines last drawn (a page)
	away  bool       // showing a segment in the main screen (B/esc come back)
	find  ui.Prompt
	reFor *regexp.Regexp // the last search
}

// critPathMsg is the computed path.
type critPathMsg struct {
	seq  uint64
	path *critpath.Path
	err  error
}

// Host is the main screen, which names the path's threads, goes to a
// segment and draws itself while the view is away.
type Host interface {
	ThreadLabel(w core.Waker) string
	// GoToSegment selects w's row and the segment's span [from, to).
	GoToSegment(w critpath.Worker, from, to core.Time) tea.Cmd
	View(a ui.Area) []string
	Help() string
}

// New opens the critical path of worker w over [from, to) and
// returns the command computing it; title says whose and over what;
// start is the trace's start.
func New(ctx context.Context, sh *ui.Shared, host Host, h core.History, w critpath.Worker, from, to, start core.Time, title string) (*Screen, tea.Cmd) {
	v := &Screen{sh: sh, host: host, title: title, start: start, find: ui.NewPrompt(sh), page: 10}
	ctx, seq := v.job.Start(ctx)
	return v, func() tea.Msg {
		p, err := critpath.Compute(ctx, h, w, from, to, critpath.Options{})
		return critPathMsg{seq, p, err}
	}
}

// Away reports whether the view is showing a segment in the main screen.
func (v *Screen) Away() bool { return v.away }

// Update handles a key or the result.
func (v *Screen) Update(msg tea.Msg) ui.Step {
	switch msg := msg.(type) {
	case critPathMsg:
		if v.job.Current(msg.seq) {
			v.job.Finish()
			v.setPath(msg.path, msg.err)
		}
	case ui.PromptDoneMsg:
		if v.find.Active() && msg.Kind == ui.PromptFind {
			return v.searchDone(msg.Text)
		}
	case tea.KeyMsg:
		if v.away {
			return v.awayKey(msg)
		}
		return v.key(msg)
	}
	return ui.Step{}
}

// setPath keeps the computed path and builds its lists.
func (v *Screen) setPath(p *critpath.Path, err error) {
	v.Path, v.Err = p, err
	v.Rows = critRows(p, v.host)
	if p == nil {
		return
	}
	v.segs = allSegments(p)
	v.sums[0] = threadSums(p, v.Rows)
	v.sums[1] = stateSums(p)
}

// awayKey: B and esc come back to the view, the rest goes to the main
// screen.
func (v *Screen) awayKey(msg tea.KeyMsg) ui.Step {
	if msg.Type == tea.KeyEsc || key.Matches(msg, v.sh.Keys.WakerBack) {
		v.away = false
		return ui.Step{}
	}
	return ui.Step{Pass: true}
}

// key handles a key while the view is shown.
func (v *Screen) key(msg tea.KeyMsg) ui.Step {
	km := &v.sh.Keys
	if v.Path == nil {
		if msg.Type == tea.KeyEsc {
			return ui.Step{Done: true}
		}
		return ui.Step{Pass: true}
	}
	if d, ok := ui.LineMove(km, msg, int64(max(v.page-1, 1))); ok {
		v.move(d)
		return ui.Step{}
	}
	switch {
	case msg.Type == tea.KeyEsc:
		if v.tab == tabSegments && v.segs.only != "" {
			v.segs.showAll(v.Path)
			return ui.Step{}
		}
		return ui.Step{Done: true}
	case key.Matches(msg, km.Focus):
		v.tab = (v.tab + 1) % numTabs
	case key.Matches(msg, km.SortNext):
		if v.tab != tabSegments {
			v.sums[v.tab-1].sortNext()
		}
	case key.Matches(msg, km.SortReverse):
		if v.tab != tabSegments {
			v.sums[v.tab-1].reverse()
		}
	case key.Matches(msg, km.Find):
		v.find.Open(ui.PromptFind, "find segment (regex): ", "")
		return ui.Step{Open: &ui.PromptView{P: &v.find}}
	case key.Matches(msg, km.FindNext):
		return v.search(1)
	case key.Matches(msg, km.FindPrev):
		return v.search(-1)
	case key.Matches(msg, km.Toggle):
		return v.enter()
	default:
		return ui.Step{Pass: true}
	}
	return ui.Step{}
}

// move moves the selection of the shown table by d lines.
func (v *Screen) move(d int64) {
	if v.tab == tabSegments {
		v.segs.sel = clampMove(v.segs.sel, d, len(v.segs.idx))
		return
	}
	s := &v.sums[v.tab-1]
	s.sel = clampMove(s.sel, d, len(s.rows))
}

// clampMove is sel moved by d inside [0, n).
func clampMove(sel int, d int64, n int) int {
	return int(max(min(int64(sel)+d, int64(n)-1), 0))
}

// enter goes to the selected segment (the view stays, away), or lists
// the selected thread's or state's segments.
func (v *Screen) enter() ui.Step {
	switch v.tab {
	case tabSegments:
		s, ok := v.segs.selected(v.Path)
		if !ok {
			return ui.Step{}
		}
		v.away = true
		return ui.Step{Cmd: v.host.GoToSegment(s.Worker, s.Start, s.End),
			Note: "on the segment in Control Flow: " + ui.K(v.sh.Keys.WakerBack) + " or esc comes back to the critical path"}
	default:
		s := &v.sums[v.tab-1]
		if s.sel >= len(s.rows) {
			return ui.Step{}
		}
		v.segs.showOnly(v.Path, s.rows[s.sel])
		v.tab = tabSegments
	}
	return ui.Step{}
}

// Help is the view's help line (away: the main screen's, after how to
// come back).
func (v *Screen) Help() string {
	if v.away {
		return ui.K(v.sh.Keys.WakerBack) + "/esc back to the critical path | " + v.host.Help()
	}
	return v.sh.Hint(keymap.FocusCritPath)
}

// Close cancels the computation.
func (v *Screen) Close() { v.job.Stop() }
