package tui

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/analyses"
	"github.com/tracetui/tracetui/ingest/pstree"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// Statistics (S) over the selection, or the visible range without one:
// time per state for the selected row (with its threads when it is a
// process) and for all rows of the view, event counts per type, and the
// system calls by total time and count. State and system call times are
// 2D queries of the history; event counts scan the events of the range
// (EventTable.CountByType). Both run off the UI goroutine, at once, and
// report through a channel; esc, S or leaving the view cancels them, and
// answers carry the request's sequence number so a cancelled run's last
// words are dropped.

// Statistics tables.
const (
	statsStates = iota
	statsEvents
	statsSyscalls
	// The analyses (ingest/analyses) of the range, one table at a time
	// in the whole panel: tab reaches them after the three above.
	statsThreads
	statsCPUs
	statsLatency
	statsIRQs
	statsSlowest
	numStatsTables
	// numSummaryTables are the tables shown together.
	numSummaryTables = statsThreads
)

// colKind is how a statistics column prints.
type colKind uint8

const (
	colName colKind = iota
	colDuration
	colCount
	colPercent
)

// statsCol is one column of a statistics table.
type statsCol struct {
	head string
	kind colKind
	// of is the column whose value a percentage is computed from (its
	// own index for other columns): sorting by a percentage sorts by it.
	of int
}

// statsLine is one line of a table: a name (with the state's paint for
// state lines) and one value per numeric column.
type statsLine struct {
	name  string
	paint *frame.Paint
	vals  []float64 // per column, index 0 unused
	// occ is the occurrence enter shows in Control Flow (an N-slowest
	// row, or a system call's slowest call); nil for other lines.
	occ *analyses.Occurrence
	// hist is the log2 histogram of the durations (analyses.Stats), nil
	// for lines without one.
	hist []int64
}

// statsTable is one table with its sort order and scroll position.
type statsTable struct {
	cols    []statsCol
	lines   []statsLine
	sortCol int
	asc     bool
	top     int
	cur     int    // the selected line: enter and the histogram use it
	status  string // "counting 45%", an error; "" when complete
}

// sort orders the lines by the sort column (names ascending by default,
// numbers descending), ties by name.
func (t *statsTable) sort() {
	c := t.cols[t.sortCol].of
	slices.SortStableFunc(t.lines, func(a, b statsLine) int {
		var r int
		if c == 0 {
			r = cmp.Compare(a.name, b.name)
		} else {
			r = -cmp.Compare(a.vals[c], b.vals[c])
		}
		if t.asc {
			r = -r
		}
		if r == 0 {
			r = cmp.Compare(a.name, b.name)
		}
		return r
	})
}

// statsScreen is the statistics screen, a view.
type statsScreen struct {
	sh      *ui.Shared
	start   core.Time // the trace's start (times print relative to it)
	job     ui.Job
	from    core.Time
	to      core.Time
	what    string // "selection" or "visible range"
	row     string // the selected row's label
	tables  [numStatsTables]statsTable
	focus   int
	running int            // parts still computing
	threads *frame.RowTree // Control Flow's rows (nil before they are read)
}

// statsMsg is one report of a running computation.
type statsMsg struct {
	seq   uint64
	table int // statsStates, statsSyscalls (with the analyses) or statsEvents
	lines [numStatsTables][]statsLine
	done  int64 // events counted so far (statsEvents progress)
	total int64
	last  bool // the part is over (err says how)
	err   error
	ch    <-chan statsMsg
}

// statsRequest is a copy of what the computation reads.
type statsRequest struct {
	seq      uint64
	hist     core.History
	events   frame.EventTable
	from, to core.Time
	rows     *pstree.Rows // the view's rows: the status attributes of all of them
	sel      []core.Key   // the selected row's (and its threads')
	domain   frame.ValueDomain
}

// newStats returns the tables with their columns, sorted by time or count.
func newStats(row string) [numStatsTables]statsTable {
	return [numStatsTables]statsTable{
		statsStates: {cols: []statsCol{{"State", colName, 0}, {ui.Trunc(row, 10), colDuration, 1}, {"%", colPercent, 1},
			{"All rows", colDuration, 3}, {"%", colPercent, 3}}, sortCol: 3},
		statsEvents: {cols: []statsCol{{"Event", colName, 0}, {"Count", colCount, 1}, {"%", colPercent, 1}}, sortCol: 1},
		statsSyscalls: {cols: []statsCol{{"System call", colName, 0}, {"Calls", colCount, 1}, {"Total time", colDuration, 2},
			{"Mean", colDuration, 3}, {"Max", colDuration, 4}, {"% time", colPercent, 2}}, sortCol: 2},
		statsThreads: {cols: []statsCol{{"Thread (CPU usage)", colName, 0}, {"On CPU", colDuration, 1}, {"% range", colPercent, 2},
			{"Migrations", colCount, 3}}, sortCol: 1},
		statsCPUs: {cols: []statsCol{{"CPU (usage)", colName, 0}, {"Busy", colDuration, 1}, {"% range", colPercent, 2}}, sortCol: 1},
		statsLatency: {cols: []statsCol{{"Thread (wake-up latency)", colName, 0}, {"Wake-ups", colCount, 1},
			{"Mean", colDuration, 2}, {"Max", colDuration, 3}, {"Total", colDuration, 4}}, sortCol: 3},
		statsIRQs: {cols: []statsCol{{"IRQ", colName, 0}, {"Count", colCount, 1}, {"Mean", colDuration, 2},
			{"Max", colDuration, 3}, {"Total", colDuration, 4}}, sortCol: 4},
		statsSlowest: {cols: []statsCol{{"Slowest (kind, name, thread)", colName, 0}, {"Duration", colDuration, 1},
			{"At", colDuration, 2}}, sortCol: 1},
	}
}

// openStats opens the statistics of the selection (or the visible
// range) and starts computing them.
func (b *browser) openStats() tea.Cmd {
	s := &statsScreen{sh: b.sh, start: b.tv.Start}
	if cf := b.panes[frame.PaneControlFlow].tree; cf != nil {
		s.threads = cf
	}
	s.from, s.to, s.what = b.tv.T0, b.tv.T1, "visible range"
	if b.hasSel {
		s.from, s.to, s.what = b.selStart, b.selEnd, "selection"
	}
	req := statsRequest{hist: b.hist, events: b.trace.Events(), from: s.from, to: s.to, domain: frame.DomainThread}
	if b.pane == frame.PaneResources {
		req.domain = frame.DomainCPU
	}
	t := b.tree()
	s.row = "selected row"
	if sel := t.Selected(); sel >= 0 {
		n := new(t.Node(sel))
		s.row = n.Label
		var add func(i int32)
		add = func(i int32) {
			if k := t.Node(i).Key; k >= 0 && t.Node(i).Kind != frame.KindCallStack {
				req.sel = append(req.sel, k)
			}
			if t.Node(i).Kind == frame.KindProcess { // a CPU's IRQ rows are already in its status
				for _, c := range t.Children(i) {
					add(c)
				}
			}
		}
		add(sel)
		if c := len(t.Children(sel)); c > 0 && n.Kind == frame.KindProcess {
			s.row += fmt.Sprintf(" +%d", c)
		}
	}
	req.rows = t.Rows // read by the computation, not here: millions of rows
	s.tables = newStats(s.row)
	s.tables[statsStates].status = "computing…"
	for t := statsSyscalls; t < numStatsTables; t++ {
		s.tables[t].status = "computing…"
	}
	s.tables[statsEvents].status = "counting…"
	s.running = 2
	ctx, seq := s.job.Start(b.ctx)
	req.seq = seq
	b.push(s)
	return ui.Spawn(8, func(ch chan<- statsMsg) { runStats(ctx, req, ch) })
}

// Close cancels a running computation.
func (s *statsScreen) Close() { s.job.Stop() }

func (m statsMsg) On(ch <-chan statsMsg) statsMsg { m.ch = ch; return m }

// Update handles a key or a report.
func (s *statsScreen) Update(msg tea.Msg) ui.Step {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return s.key(msg)
	case statsMsg:
		return ui.Step{Cmd: s.gotStats(msg)}
	}
	return ui.Step{}
}

// gotStats applies a report.
func (s *statsScreen) gotStats(m statsMsg) tea.Cmd {
	if !s.job.Current(m.seq) {
		return nil // a cancelled run: its channel closes when it stops
	}
	next := ui.WaitReport(m.ch)
	switch {
	case m.err != nil && m.err != context.Canceled:
		s.tables[m.table].status = "failed: " + m.err.Error()
		if m.table != statsEvents {
			for t := statsSyscalls; t < numStatsTables; t++ {
				s.tables[t].status = s.tables[statsStates].status
			}
		}
	case m.table == statsEvents:
		s.tables[statsEvents].lines = m.lines[statsEvents]
		s.tables[statsEvents].status = ""
		if !m.last && m.total > 0 {
			s.tables[statsEvents].status = fmt.Sprintf("counting %d%%", m.done*100/m.total)
		}
		s.tables[statsEvents].sort()
	default:
		for t := range numStatsTables {
			if t != statsEvents && (t == statsStates) == (m.table == statsStates) {
				s.tables[t].lines, s.tables[t].status = m.lines[t], ""
				s.tables[t].sort()
			}
		}
	}
	if m.last {
		s.running--
		if s.running == 0 {
			s.job.Finish()
		}
	}
	return next
}

// runStats computes both parts at once and returns when both are over.
func runStats(ctx context.Context, req statsRequest, ch chan<- statsMsg) {
	send := func(m statsMsg) bool {
		m.seq = req.seq
		select {
		case ch <- m:
			return true
		case <-ctx.Done():
			return false
		}
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		var m statsMsg
		m.table = statsStates
		if m.err = stateStats(ctx, req, &m.lines); m.err != nil {
			m.last = true
			send(m)
			return
		}
		if !send(m) { // the state times first: the analyses take longer
			return
		}
		m = statsMsg{table: statsSyscalls, last: true}
		rep, err := analyses.Compute(ctx, req.hist, analyses.Options{From: req.from, To: req.to + 1})
		if err != nil {
			m.err = fmt.Errorf("running the analyses: %w", err)
		} else {
			analysisLines(rep, &m.lines)
		}
		send(m)
	}()
	go func() {
		defer wg.Done()
		counts, err := req.events.CountByType(ctx, req.from, req.to, func(done, total int64) bool {
			// Progress only: counts come at the end. A full channel
			// skips the report rather than slowing the scan.
			select {
			case ch <- statsMsg{seq: req.seq, table: statsEvents, done: done, total: total}:
			default:
			}
			return ctx.Err() == nil
		})
		m := statsMsg{table: statsEvents, last: true, err: err}
		m.lines[statsEvents] = eventLines(counts)
		send(m)
	}()
	wg.Wait()
}

// statusKeys returns the status attributes of rows: those of its
// threads, processes and CPUs.
func statusKeys(rows *pstree.Rows) []core.Key {
	var keys []core.Key
	rows.ScanRecords(0, int32(rows.Len()), func(_ int32, r pstree.RowInfo) bool {
		if frame.IsStatusRow(r) {
			keys = append(keys, core.Key(r.Key))
		}
		return true
	})
	return keys
}

// stateStats reads the time per state.
func stateStats(ctx context.Context, req statsRequest, out *[numStatsTables][]statsLine) error {
	at := req.hist.Attributes()
	inAll := make([]bool, at.Len())
	inSel := make([]bool, at.Len())
	all := statusKeys(req.rows)
	keys := make([]core.Key, 0, len(all)+len(req.sel))
	for _, k := range all {
		inAll[k] = true
		keys = append(keys, k)
	}
	for _, k := range req.sel {
		inSel[k] = true
		keys = append(keys, k)
	}
	type stateTime struct{ sel, all core.Time }
	byValue := map[core.Value]*stateTime{}
	var small [64]*stateTime // kernel statuses without a map access
	clip := func(iv core.Interval) core.Time { return min(iv.End, req.to) - max(iv.Start, req.from) + 1 }
	_, err := req.hist.Query2D(ctx, keys, req.from, req.to, func(iv core.Interval) bool {
		if iv.Value.IsNull() {
			return true
		}
		var st *stateTime
		n := iv.Value.Int()
		isSmall := iv.Value.Kind() == core.KindInt32 && n >= 0 && n < int64(len(small))
		if isSmall {
			st = small[n]
		}
		if st == nil {
			if st = byValue[iv.Value]; st == nil {
				st = &stateTime{}
				byValue[iv.Value] = st
			}
			if isSmall {
				small[n] = st
			}
		}
		d := clip(iv)
		if inAll[iv.Key] {
			st.all += d
		}
		if inSel[iv.Key] {
			st.sel += d
		}
		return true
	})
	if err != nil {
		return fmt.Errorf("reading the states: %w", err)
	}
	var selTotal, allTotal core.Time
	for _, st := range byValue {
		selTotal += st.sel
		allTotal += st.all
	}
	for v, st := range byValue {
		p := frame.PaintOf(req.domain, v)
		out[statsStates] = append(out[statsStates], statsLine{name: frame.DescribeValue(req.domain, v), paint: &p,
			vals: []float64{0, float64(st.sel), percent(st.sel, selTotal), float64(st.all), percent(st.all, allTotal)}})
	}

	// complete calls only (ingest/analyses): a forked child's inherited
	// clone and exit/exit_group, which never return, are not calls
	return nil
}

// eventLines turns counts per event name into table lines.
func eventLines(counts map[string]int64) []statsLine {
	var total int64
	for _, n := range counts {
		total += n
	}
	lines := make([]statsLine, 0, len(counts))
	for name, n := range counts {
		lines = append(lines, statsLine{name: name, vals: []float64{0, float64(n), percent(n, total)}})
	}
	return lines
}

func percent[N core.Time | int64](part, whole N) float64 {
	if whole == 0 {
		return 0
	}
	return 100 * float64(part) / float64(whole)
}

// key handles a key on the statistics screen.
func (s *statsScreen) key(msg tea.KeyMsg) ui.Step {
	km := &s.sh.Keys
	t := &s.tables[s.focus]
	page := max(s.heights()[s.focus]-1, 1)
	switch {
	case msg.Type == tea.KeyEsc || key.Matches(msg, km.Stats):
		return ui.Step{Done: true}
	case key.Matches(msg, km.Focus):
		s.focus = (s.focus + 1) % numStatsTables
	case key.Matches(msg, km.SortNext):
		t.sortCol = (t.sortCol + 1) % len(t.cols)
		t.asc = false
		t.sort()
	case key.Matches(msg, km.SortReverse):
		t.asc = !t.asc
		t.sort()
	case key.Matches(msg, km.Up):
		t.cur--
	case key.Matches(msg, km.Down):
		t.cur++
	case key.Matches(msg, km.PageUp):
		t.cur -= page
	case key.Matches(msg, km.PageDown):
		t.cur += page
	case key.Matches(msg, km.Top):
		t.cur = 0
	case key.Matches(msg, km.Bottom):
		t.cur = len(t.lines)
	case msg.Type == tea.KeyEnter:
		return s.showOccurrence()
	case key.Matches(msg, km.Overview, km.OverviewST):
		return ui.Step{Done: true, Pass: true} // the base opens the overview
	default:
		return ui.Step{Note: "statistics: " + s.Help()}
	}
	t.cur = max(0, min(t.cur, len(t.lines)-1))
	t.top = min(t.top, t.cur) // the selected line stays in view
	t.top = max(t.top, t.cur-page+1, 0)
	return ui.Step{}
}
