package stats

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index/pstree"
	querystats "github.com/tracetui/tracetui/ingest/query/stats"
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
	States = iota
	Events
	Syscalls
	// The analyses (ingest/query/stats) of the range, one table at a time
	// in the whole panel: tab reaches them after the three above.
	Threads
	Processes
	CPUs
	Latency
	ProcLatency
	IRQs
	Slowest
	NumTables
	// NumSummaryTables are the tables shown together.
	NumSummaryTables = Threads
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
	Head string
	kind colKind
	// of is the column whose value a percentage is computed from (its
	// own index for other columns): sorting by a percentage sorts by it.
	of int
}

// StatsLine is one line of a table: a name (with the state's paint for
// state lines) and one value per numeric column.
type Line struct {
	Name  string
	paint *frame.Paint
	Vals  []float64 // per column, index 0 unused
	// Occ is the occurrence enter shows in Control Flow (an N-slowest
	// row, or a system call's slowest call); nil for other lines.
	Occ *querystats.Occurrence
	// hist is the log2 histogram of the durations (querystats.Stats), nil
	// for lines without one.
	hist []int64
	// unnamed: the line's thread is to be named from Control Flow's rows.
	unnamed bool
}

// statsTable is one table with its sort order and scroll position.
type statsTable struct {
	Title   string // what the table is, above its header
	Cols    []statsCol
	Lines   []Line
	SortCol int
	Asc     bool
	top     int
	Cur     int    // the selected line: enter and the histogram use it
	status  string // "counting 45%", an error; "" when complete
}

// Sort orders the lines by the sort column (names ascending by default,
// numbers descending), ties by name.
func (t *statsTable) Sort() {
	c := t.Cols[t.SortCol].of
	slices.SortStableFunc(t.Lines, func(a, b Line) int {
		var r int
		if c == 0 {
			r = cmp.Compare(a.Name, b.Name)
		} else {
			r = -cmp.Compare(a.Vals[c], b.Vals[c])
		}
		if t.Asc {
			r = -r
		}
		if r == 0 {
			r = cmp.Compare(a.Name, b.Name)
		}
		return r
	})
}

// Screen is the statistics screen, a view.
type Screen struct {
	sh      *ui.Shared
	start   core.Time // the trace's start (times print relative to it)
	Job     ui.Job
	From    core.Time
	To      core.Time
	what    string // "selection" or "visible range"
	row     string // the selected row's label
	kind    string // what the all-rows column sums: threads or CPUs
	Tables  [NumTables]statsTable
	Focus   int
	Running int            // parts still computing
	threads *frame.RowTree // Control Flow's rows (nil before they are read)
}

// StatsMsg is one report of a running computation.
type Msg struct {
	Seq    uint64
	Table  int // States, Syscalls (with the analyses) or Events
	Lines  [NumTables][]Line
	done   int64 // events counted so far (Events progress)
	total  int64
	Last   bool // the part is over (err says how)
	leaves int  // the rows the all-rows column sums (States)
	err    error
	ch     <-chan Msg
}

// StatsRequest is a copy of what the computation reads.
type Request struct {
	seq      uint64
	Hist     core.History
	events   frame.EventTable
	From, To core.Time
	Rows     *pstree.Rows // the pane's rows: the status attributes of all of them
	sel      []core.Key   // the selected row's (and its threads')
	Domain   frame.ValueDomain
}

// statesTitle is the state table's title: the all-rows column sums
// leaves rows of a kind ("threads", "CPUs"), -1 before they are counted.
func statesTitle(row string, leaves int, kind string) string {
	n := "all"
	if leaves >= 0 {
		n = fmt.Sprintf("all %d", leaves)
	}
	return fmt.Sprintf("Time per state of %s; of %s %s summed (may exceed the range)", row, n, kind)
}

// newStats returns the tables with their titles and columns, sorted by
// time or count; kind is what the all-rows column sums ("threads",
// "CPUs").
func newStats(row, kind string) [NumTables]statsTable {
	return [NumTables]statsTable{
		States: {Title: statesTitle(row, -1, kind),
			Cols: []statsCol{{"State", colName, 0}, {ui.Trunc(row, 10), colDuration, 1}, {"%", colPercent, 1},
				{"All", colDuration, 3}, {"%", colPercent, 3}}, SortCol: 3},
		Events: {Title: "Events by type", Cols: []statsCol{{"Event", colName, 0}, {"Count", colCount, 1}, {"%", colPercent, 1}}, SortCol: 1},
		Syscalls: {Title: "System calls (complete calls; enter: the slowest)", Cols: []statsCol{{"System call", colName, 0}, {"Calls", colCount, 1},
			{"Total time", colDuration, 2}, {"Mean", colDuration, 3}, {"Max", colDuration, 4}, {"% time", colPercent, 2}}, SortCol: 2},
		Threads: {Title: "CPU usage per thread (enter: the thread)", Cols: []statsCol{{"Thread [tid]", colName, 0}, {"On CPU", colDuration, 1},
			{"% range", colPercent, 2}, {"Migrations", colCount, 3}}, SortCol: 1},
		Processes: {Title: "CPU usage per process (its threads summed)", Cols: []statsCol{{"Process [pid]", colName, 0}, {"On CPU", colDuration, 1},
			{"% range", colPercent, 2}, {"Threads", colCount, 3}}, SortCol: 1},
		CPUs: {Title: "CPU usage per CPU", Cols: []statsCol{{"CPU", colName, 0}, {"Busy", colDuration, 1}, {"% range", colPercent, 2}}, SortCol: 1},
		Latency: {Title: "Wake-up latency per thread (enter: its worst)", Cols: []statsCol{{"Thread [tid] woken", colName, 0}, {"Wake-ups", colCount, 1},
			{"Mean", colDuration, 2}, {"Max", colDuration, 3}, {"Total", colDuration, 4}}, SortCol: 3},
		ProcLatency: {Title: "Wake-up latency per process (its threads together)", Cols: []statsCol{{"Process [pid] woken", colName, 0},
			{"Wake-ups", colCount, 1}, {"Mean", colDuration, 2}, {"Max", colDuration, 3}, {"Total", colDuration, 4}}, SortCol: 3},
		IRQs: {Title: "Interrupts: time in each handler", Cols: []statsCol{{"IRQ", colName, 0}, {"Count", colCount, 1}, {"Mean", colDuration, 2},
			{"Max", colDuration, 3}, {"Total", colDuration, 4}}, SortCol: 4},
		Slowest: {Title: "The slowest occurrences (enter: show it whole)", Cols: []statsCol{{"Slowest (kind, name, thread)", colName, 0},
			{"Duration", colDuration, 1}, {"At", colDuration, 2}}, SortCol: 1},
	}
}

// Input is what the statistics are of: [From, To] ("selection" or
// "visible range") of the pane's rows, the selected one's apart.
type Input struct {
	Hist     core.History
	Events   frame.EventTable
	Start    core.Time // the trace's start
	From, To core.Time
	What     string
	Pane     int
	Tree     *frame.RowTree // the pane's rows, the selected one's
	Threads  *frame.RowTree // Control Flow's rows (nil before they are read)
}

// New opens the statistics and returns the command computing
// them.
func New(ctx context.Context, sh *ui.Shared, in Input) (*Screen, tea.Cmd) {
	s := &Screen{sh: sh, start: in.Start, threads: in.Threads, From: in.From, To: in.To, what: in.What}
	req := Request{Hist: in.Hist, events: in.Events, From: s.From, To: s.To, Domain: frame.DomainThread}
	if in.Pane == frame.PaneResources {
		req.Domain = frame.DomainCPU
	}
	t := in.Tree
	s.row = "selected row"
	if sel := t.Selected(); sel >= 0 {
		n := new(t.Node(sel))
		s.row = n.Label
		if n.Kind == frame.KindSamples && n.Parent >= 0 {
			s.row = t.Node(n.Parent).Label // a samples row stands for its thread
		}
		var add func(i int32)
		// A process row is its leader thread (or a name alone, without
		// status): its threads are its children; a CPU's IRQ rows are
		// already in its status.
		add = func(i int32) {
			switch k := t.Node(i).Key; {
			case t.Node(i).Kind == frame.KindSamples: // its thread's statistics
				if th := t.Node(i).Thread; th >= 0 {
					req.sel = append(req.sel, th)
				}
			case k >= 0 && t.Node(i).Kind != frame.KindCallStack:
				req.sel = append(req.sel, k)
			}
			if t.Node(i).Kind == frame.KindProcess {
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
	req.Rows = t.Rows // read by the computation, not here: millions of rows
	kind := "threads"
	if req.Domain == frame.DomainCPU {
		kind = "CPUs"
	}
	s.kind = kind
	s.Tables = newStats(s.row, kind)
	s.Tables[States].status = "computing…"
	for t := Syscalls; t < NumTables; t++ {
		s.Tables[t].status = "computing…"
	}
	s.Tables[Events].status = "counting…"
	s.Running = 2
	ctx, seq := s.Job.Start(ctx)
	req.seq = seq
	return s, ui.Spawn(8, func(ch chan<- Msg) { runStats(ctx, req, ch) })
}

// Close cancels a running computation.
func (s *Screen) Close() { s.Job.Stop() }

// On returns the report carrying the channel it came from (ui.WaitReport).
func (m Msg) On(ch <-chan Msg) Msg { m.ch = ch; return m }

// Update handles a key or a report.
func (s *Screen) Update(msg tea.Msg) ui.Step {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return s.key(msg)
	case Msg:
		return ui.Step{Cmd: s.gotStats(msg)}
	}
	return ui.Step{}
}

// gotStats applies a report.
func (s *Screen) gotStats(m Msg) tea.Cmd {
	if !s.Job.Current(m.Seq) {
		return nil // a cancelled run: its channel closes when it stops
	}
	next := ui.WaitReport(m.ch)
	switch {
	case m.err != nil && m.err != context.Canceled:
		s.Tables[m.Table].status = "failed: " + m.err.Error()
		if m.Table != Events {
			for t := Syscalls; t < NumTables; t++ {
				s.Tables[t].status = s.Tables[States].status
			}
		}
	case m.Table == Events:
		s.Tables[Events].Lines = m.Lines[Events]
		s.Tables[Events].status = ""
		if !m.Last && m.total > 0 {
			s.Tables[Events].status = fmt.Sprintf("counting %d%%", m.done*100/m.total)
		}
		s.Tables[Events].Sort()
	default:
		for t := range NumTables {
			if m.Table == States {
				s.Tables[States].Title = statesTitle(s.row, m.leaves, s.kind)
			}
			if t != Events && (t == States) == (m.Table == States) {
				s.Tables[t].Lines, s.Tables[t].status = m.Lines[t], ""
				s.nameThreads(s.Tables[t].Lines)
				s.Tables[t].Sort()
			}
		}
	}
	if m.Last {
		s.Running--
		if s.Running == 0 {
			s.Job.Finish()
		}
	}
	return next
}

// runStats computes both parts at once and returns when both are over.
func runStats(ctx context.Context, req Request, ch chan<- Msg) {
	send := func(m Msg) bool {
		m.Seq = req.seq
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
		var m Msg
		m.Table = States
		if m.leaves, m.err = stateStats(ctx, req, &m.Lines); m.err != nil {
			m.Last = true
			send(m)
			return
		}
		if !send(m) { // the state times first: the analyses take longer
			return
		}
		m = Msg{Table: Syscalls, Last: true}
		rep, err := querystats.Compute(ctx, req.Hist, querystats.Options{From: req.From, To: req.To + 1})
		if err != nil {
			m.err = fmt.Errorf("running the analyses: %w", err)
		} else {
			analysisLines(rep, &m.Lines)
		}
		send(m)
	}()
	go func() {
		defer wg.Done()
		counts, err := req.events.CountByType(ctx, req.From, req.To, func(done, total int64) bool {
			// Progress only: counts come at the end. A full channel
			// skips the report rather than slowing the scan.
			select {
			case ch <- Msg{Seq: req.seq, Table: Events, done: done, total: total}:
			default:
			}
			return ctx.Err() == nil
		})
		m := Msg{Table: Events, Last: true, err: err}
		m.Lines[Events] = eventLines(counts)
		send(m)
	}()
	wg.Wait()
}

// eventLines turns counts per event name into table lines.
func eventLines(counts map[string]int64) []Line {
	var total int64
	for _, n := range counts {
		total += n
	}
	lines := make([]Line, 0, len(counts))
	for name, n := range counts {
		lines = append(lines, Line{Name: name, Vals: []float64{0, float64(n), percent(n, total)}})
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
func (s *Screen) key(msg tea.KeyMsg) ui.Step {
	km := &s.sh.Keys
	t := &s.Tables[s.Focus]
	page := max(s.heights()[s.Focus]-1, 1)
	switch {
	case msg.Type == tea.KeyEsc || key.Matches(msg, km.Stats):
		return ui.Step{Done: true}
	case key.Matches(msg, km.Focus):
		s.Focus = (s.Focus + 1) % NumTables
	case key.Matches(msg, km.SortNext):
		t.SortCol = (t.SortCol + 1) % len(t.Cols)
		t.Asc = false
		t.Sort()
	case key.Matches(msg, km.SortReverse):
		t.Asc = !t.Asc
		t.Sort()
	case key.Matches(msg, km.Up):
		t.Cur--
	case key.Matches(msg, km.Down):
		t.Cur++
	case key.Matches(msg, km.PageUp):
		t.Cur -= page
	case key.Matches(msg, km.PageDown):
		t.Cur += page
	case key.Matches(msg, km.Top):
		t.Cur = 0
	case key.Matches(msg, km.Bottom):
		t.Cur = len(t.Lines)
	case msg.Type == tea.KeyEnter:
		return s.showOccurrence()
	case key.Matches(msg, km.Overview, km.OverviewST):
		return ui.Step{Done: true, Pass: true} // the base opens the overview
	default:
		return ui.Step{Note: "statistics: " + s.Help()}
	}
	t.Cur = max(0, min(t.Cur, len(t.Lines)-1))
	t.top = min(t.top, t.Cur) // the selected line stays in view
	t.top = max(t.top, t.Cur-page+1, 0)
	return ui.Step{}
}
