package gantt

import (
	"context"
	"fmt"
	"regexp"
	"sort"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// eventTable is the virtual event table: only the rows on screen are
// read (one EventTable.Rows call per screen), and a filter is a growing
// list of matching ranks that the table shows through a remapping (line
// index -> rank), never a copy of rows.
type eventTable struct {
	sh      *ui.Shared
	ctx     context.Context // bounds its queries
	focused bool            // keys go to the table, not the Gantt
	ev      frame.EventTable
	total   int64
	height  int // event lines on screen

	top, sel int64             // line indexes (filtered space when a filter is on)
	col      frame.EventColumn // focused column (what f edits)
	start    core.Time         // the trace start, origin of the +offset times
	hoff     int               // cells of Contents scrolled off to the left

	cache     map[int64]frame.EventRow // rows last read, by rank
	fetches   ui.Job                   // row reads: a superseded one is cancelled
	fetchKey  string                   // ranks wanted by the last fetch, to skip duplicates
	ranks     ui.Job                   // the first event at the cursor, for syncTo
	fetchErr  error
	pattern   [frame.NumColumns]string // the filter's text, per column
	filter    frame.Filter
	filterOn  bool    // filter is not empty: the lines are matches
	matches   []int64 // ranks matched so far, ascending
	scanDone  int64
	scanTotal int64
	scanning  bool
	scan      ui.Job // the filter's scan
	// keepAt: when the scan ends, select the first match at or after
	// anchor (the Gantt cursor when the filter was applied), unless the
	// user moved in the table meanwhile.
	keepAt bool
	anchor core.Time
	search tableSearch // '/' with the table focused: highlights, no filtering
}

func newEventTable(ctx context.Context, sh *ui.Shared, ev frame.EventTable, start core.Time) *eventTable {
	return &eventTable{sh: sh, ctx: ctx, ev: ev, total: ev.Len(), col: frame.ColEvent, start: start, cache: map[int64]frame.EventRow{}}
}

// Messages of the table's commands, tagged with the sequence number of the
// request so stale answers are dropped.
type (
	rowsMsg struct {
		seq  uint64
		rows []frame.EventRow
		err  error
	}
	rankMsg struct {
		seq  uint64
		rank int64
		err  error
	}
	filterMsg struct {
		seq  uint64
		p    frame.FilterProgress
		err  error
		last bool
		ch   <-chan filterMsg
	}
)

// len is the number of lines of the (possibly filtered) table.
func (t *eventTable) len() int64 {
	if t.filterOn {
		return int64(len(t.matches))
	}
	return t.total
}

// rankOf maps a line index to an event rank.
func (t *eventTable) rankOf(i int64) int64 {
	if t.filterOn {
		return t.matches[i]
	}
	return i
}

// move moves the selected line by d (clamped) and scrolls to it.
func (t *eventTable) move(d int64) {
	n := t.len()
	if n == 0 {
		t.sel, t.top = 0, 0
		return
	}
	t.sel = min(max(t.sel+d, 0), n-1)
	t.scroll()
}

// moveTo selects line index i and shows it.
func (t *eventTable) moveTo(i int64) { t.sel = 0; t.move(i) }

func (t *eventTable) scroll() {
	h := int64(max(t.height, 1))
	if t.sel < t.top {
		t.top = t.sel
	}
	if t.sel >= t.top+h {
		t.top = t.sel - h + 1
	}
	t.top = max(0, min(t.top, t.len()-h))
}

// fetch returns the command reading the rows on screen that are not
// cached, or nil.
func (t *eventTable) fetch(ctx context.Context) tea.Cmd {
	var ranks []int64
	for i := t.top; i < min(t.top+int64(t.height), t.len()); i++ {
		if r := t.rankOf(i); !t.hasRow(r) {
			ranks = append(ranks, r)
		}
	}
	if len(ranks) == 0 {
		return nil
	}
	k := fmt.Sprint(ranks[0], len(ranks), ranks[len(ranks)-1])
	if k == t.fetchKey {
		return nil // already asked
	}
	t.fetchKey = k
	ctx, seq := t.fetches.Start(ctx)
	ev := t.ev
	return func() tea.Msg {
		rows, err := ev.Rows(ctx, ranks)
		return rowsMsg{seq: seq, rows: rows, err: err}
	}
}

func (t *eventTable) hasRow(r int64) bool { _, ok := t.cache[r]; return ok }

// gotRows stores fetched rows. Rows of older fetches are kept too: they
// are right, only perhaps not needed.
func (t *eventTable) gotRows(m rowsMsg) {
	if m.err != nil {
		if t.fetches.Current(m.seq) {
			t.fetchErr = m.err
		}
		return
	}
	t.fetchErr = nil
	if len(t.cache) > 4*max(t.height, 16) { // keep memory flat
		t.cache = map[int64]frame.EventRow{}
	}
	for _, r := range m.rows {
		t.cache[r.Rank] = r
	}
	if t.fetches.Current(m.seq) {
		t.fetches.Finish()
		t.fetchKey = ""
	}
}

// syncTo returns the command finding the first event at or after tm, for
// scrolling the table with the Gantt cursor.
func (t *eventTable) syncTo(ctx context.Context, tm core.Time) tea.Cmd {
	ctx, seq := t.ranks.Start(ctx)
	ev := t.ev
	return func() tea.Msg {
		r, err := ev.RankAt(ctx, tm)
		return rankMsg{seq: seq, rank: r, err: err}
	}
}

// gotRank selects the first line at or after the rank.
func (t *eventTable) gotRank(m rankMsg) bool {
	if !t.ranks.Current(m.seq) || m.err != nil {
		return false
	}
	t.ranks.Finish()
	i := m.rank
	if t.filterOn {
		i = int64(sort.Search(len(t.matches), func(j int) bool { return t.matches[j] >= m.rank }))
	}
	t.moveTo(min(i, max(t.len()-1, 0)))
	return true
}

// setPattern compiles a column's filter text. Plain text is a substring
// search (an unanchored regex); an invalid regex is returned as an error
// and the previous filter stays.
func (t *eventTable) setPattern(col frame.EventColumn, text string) error {
	var re *regexp.Regexp
	if text != "" {
		var err error
		if re, err = regexp.Compile(text); err != nil {
			return fmt.Errorf("%s filter: %w", col, err)
		}
	}
	t.pattern[col] = text
	t.filter[col] = re
	return nil
}

// startFilter cancels a running scan and starts one for the current
// filter (or clears the filtered lines).
func (t *eventTable) startFilter(ctx context.Context, anchor core.Time) tea.Cmd {
	t.scan.Stop()
	t.keepAt, t.anchor = true, anchor
	t.matches = nil
	t.sel, t.top = 0, 0
	t.fetchKey = ""
	t.filterOn = !t.filter.Empty()
	t.scanning = t.filterOn
	t.scanDone, t.scanTotal = 0, t.total
	if !t.filterOn {
		return nil
	}
	fctx, seq := t.scan.Start(ctx)
	ev, f := t.ev, t.filter
	return ui.Spawn(4, func(ch chan<- filterMsg) {
		err := ev.Filter(fctx, f, func(p frame.FilterProgress) bool {
			select {
			case ch <- filterMsg{seq: seq, p: p}:
				return true
			case <-fctx.Done():
				return false
			}
		})
		select {
		case ch <- filterMsg{seq: seq, err: err, last: true}:
		case <-fctx.Done():
		}
	})
}

// On returns the report carrying the channel it came from (ui.WaitReport).
func (m filterMsg) On(ch <-chan filterMsg) filterMsg { m.ch = ch; return m }

// gotFilter applies one report and returns the command waiting for the
// next (nil when the scan is over or stale).
func (t *eventTable) gotFilter(m filterMsg) (tea.Cmd, error) {
	if !t.scan.Current(m.seq) {
		return nil, nil // a cancelled scan's last words
	}
	if m.last {
		t.scanning = false
		t.scan.Finish()
		if m.err != nil && m.err != context.Canceled {
			return nil, fmt.Errorf("filtering events: %w", m.err)
		}
		if t.keepAt {
			t.keepAt = false
			return t.syncTo(t.ctx, t.anchor), nil
		}
		return nil, nil
	}
	t.matches = append(t.matches, m.p.Matches...)
	t.scanDone, t.scanTotal = m.p.Done, m.p.Total
	return ui.WaitReport(m.ch), nil
}

// stop cancels a running scan (on quit).
func (t *eventTable) stop() {
	t.scan.Stop()
	t.fetches.Stop()
	t.ranks.Stop()
	t.search.job.Stop()
}

// progressText summarises the filter for the header.
func (t *eventTable) progressText() string {
	if !t.filterOn {
		return fmt.Sprintf("%d events", t.total)
	}
	s := fmt.Sprintf("%d/%d match", len(t.matches), t.total)
	if t.scanning && t.scanTotal > 0 {
		s += fmt.Sprintf(" · %d%%", t.scanDone*100/t.scanTotal)
	}
	return s
}

// selected returns the selected event's row, when there is one and it
// has been read.
func (t *eventTable) selected() (frame.EventRow, bool) {
	if t.len() == 0 {
		return frame.EventRow{}, false
	}
	r, ok := t.cache[t.rankOf(t.sel)]
	return r, ok
}

// gotoEventMsg asks the Gantt to show an event (enter in the table).
type gotoEventMsg struct{ row frame.EventRow }

// Update handles the table's reports and, when it has the focus, its
// keys.
func (t *eventTable) Update(msg tea.Msg) ui.Step {
	switch msg := msg.(type) {
	case rowsMsg:
		t.gotRows(msg)
	case rankMsg:
		if t.gotRank(msg) {
			return ui.Step{Cmd: t.fetch(t.ctx)}
		}
	case searchMsg:
		cmd, note := t.gotSearch(msg)
		return ui.Step{Cmd: cmd, Note: note}
	case filterMsg:
		cmd, err := t.gotFilter(msg)
		s := ui.Step{Cmd: tea.Batch(cmd, t.fetch(t.ctx))}
		if err != nil {
			s.Note, s.Warn = err.Error(), true
		}
		return s
	case tea.KeyMsg:
		return t.key(msg)
	}
	return ui.Step{}
}

// key handles a key when the table has the focus.
func (t *eventTable) key(msg tea.KeyMsg) ui.Step {
	km := &t.sh.Keys
	if d, ok := ui.LineMove(km, msg, int64(max(t.height, 1))); ok {
		t.keepAt = false
		t.move(d)
		return ui.Step{Cmd: t.fetch(t.ctx)}
	}
	switch {
	case key.Matches(msg, km.Left):
		t.col = max(t.col-1, 0)
	case key.Matches(msg, km.Right):
		t.col = min(t.col+1, frame.NumColumns-1)
	case key.Matches(msg, km.ContentsLeft, km.ContentsRight):
		return t.scrollContents(key.Matches(msg, km.ContentsLeft))
	case key.Matches(msg, km.Toggle):
		if t.len() == 0 {
			return ui.Step{}
		}
		r, ok := t.selected()
		if !ok {
			return ui.Step{Note: "event not loaded yet"}
		}
		return ui.Step{Cmd: func() tea.Msg { return gotoEventMsg{r} }}
	default:
		return ui.Step{Pass: true}
	}
	return ui.Step{Cmd: t.fetch(t.ctx)}
}

// Help leaves the main screen's help line.
func (t *eventTable) Help() string { return "" }

// Close cancels a running scan.
func (t *eventTable) Close() { t.stop() }
