package gantt

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"sort"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// Searching the event table ('/' with the table focused, then 'n' and
// 'N'): the matches are highlighted among the other events, nothing is
// filtered out. The search reads one column, the focused one, as a
// column filter does; the ranks of the matches come from a background
// scan of the whole table (EventTable.Filter), so 'n' may have to wait
// for the scan to reach the next match (the status line says so).

// tableSearch is the table's search: the regex, its column, and the
// ranks of the matches found so far (ascending).
type tableSearch struct {
	re       *regexp.Regexp
	col      frame.EventColumn
	hits     []int64
	scanning bool
	job      ui.Job
	// want: a move asked for before the scan reached a match (0 none,
	// +1 next, -1 previous), done when one arrives.
	want int
}

// searchMsg is one report of the search's scan.
type searchMsg struct {
	seq  uint64
	p    frame.FilterProgress
	err  error
	last bool
	ch   <-chan searchMsg
}

// On returns the report carrying the channel it came from (ui.WaitReport).
func (m searchMsg) On(ch <-chan searchMsg) searchMsg { m.ch = ch; return m }

// matches reports whether row r is a match of the search (drawn
// highlighted).
func (s *tableSearch) matches(r *frame.EventRow) bool {
	return s.re != nil && s.re.MatchString(r.Text(s.col))
}

// startSearch starts searching column col for text, then moves to the
// first match after the selected line.
func (t *eventTable) startSearch(col frame.EventColumn, text string) (tea.Cmd, error) {
	re, err := regexp.Compile(text)
	if err != nil {
		return nil, fmt.Errorf("table search: %w", err)
	}
	s := &t.search
	s.job.Stop()
	s.re, s.col, s.hits, s.scanning, s.want = re, col, nil, true, 1
	var f frame.Filter
	f[col] = re
	ctx, seq := s.job.Start(t.ctx)
	ev := t.ev
	return ui.Spawn(4, func(ch chan<- searchMsg) {
		err := ev.Filter(ctx, f, func(p frame.FilterProgress) bool {
			select {
			case ch <- searchMsg{seq: seq, p: p}:
				return true
			case <-ctx.Done():
				return false
			}
		})
		select {
		case ch <- searchMsg{seq: seq, err: err, last: true}:
		case <-ctx.Done():
		}
	}), nil
}

// gotSearch applies one report of the scan: the command waiting for the
// next, and a note when a pending move is done or cannot be.
func (t *eventTable) gotSearch(m searchMsg) (tea.Cmd, string) {
	s := &t.search
	if !s.job.Current(m.seq) {
		return nil, ""
	}
	if m.last {
		s.scanning = false
		s.job.Finish()
		if m.err != nil && m.err != context.Canceled {
			return nil, fmt.Sprintf("searching events: %v", m.err)
		}
		if s.want != 0 {
			back := s.want < 0
			s.want = 0
			return t.fetch(t.ctx), t.searchMove(back)
		}
		return nil, ""
	}
	s.hits = append(s.hits, m.p.Matches...)
	var note string
	if s.want != 0 {
		if line, ok := t.nextHit(t.selRank(), s.want < 0); ok {
			s.want = 0
			t.keepAt = false
			t.moveTo(line)
			note = t.hitNote()
		}
	}
	return tea.Batch(ui.WaitReport(m.ch), t.fetch(t.ctx)), note
}

// visibleLine is the table line of rank r (-1 when the filter hides it).
func (t *eventTable) visibleLine(r int64) int64 {
	if !t.filterOn {
		return r
	}
	i := sort.Search(len(t.matches), func(j int) bool { return t.matches[j] >= r })
	if i < len(t.matches) && t.matches[i] == r {
		return int64(i)
	}
	return -1
}

// selRank is the selected event's rank (-1 when the table is empty).
func (t *eventTable) selRank() int64 {
	if t.len() == 0 {
		return -1
	}
	return t.rankOf(t.sel)
}

// nextHit is the line of the first match after (or before, back) rank
// from that the filter shows, without wrapping; ok false when none is
// known yet.
func (t *eventTable) nextHit(from int64, back bool) (line int64, ok bool) {
	hits := t.search.hits
	i, step := sort.Search(len(hits), func(j int) bool { return hits[j] > from }), 1
	if back {
		i, step = sort.Search(len(hits), func(j int) bool { return hits[j] >= from })-1, -1
	}
	for ; i >= 0 && i < len(hits); i += step {
		if l := t.visibleLine(hits[i]); l >= 0 {
			return l, true
		}
	}
	return 0, false
}

// searchMove moves to the next (previous) match, wrapping around at the
// ends once the scan is over; it returns the note to show.
func (t *eventTable) searchMove(back bool) string {
	s := &t.search
	if s.re == nil {
		return ""
	}
	line, ok := t.nextHit(t.selRank(), back)
	if !ok && !s.scanning { // wrap around
		from := int64(-1)
		if back {
			from = math.MaxInt64
		}
		line, ok = t.nextHit(from, back)
	}
	switch {
	case ok:
		t.keepAt = false
		t.moveTo(line)
		return t.hitNote()
	case s.scanning:
		s.want = 1
		if back {
			s.want = -1
		}
		return fmt.Sprintf("/%s/ in %s: searching…", s.re, s.col)
	}
	return fmt.Sprintf("/%s/ in %s: no event matches", s.re, s.col)
}

// hitNote says which match is selected.
func (t *eventTable) hitNote() string {
	s := &t.search
	r := t.selRank()
	i := sort.Search(len(s.hits), func(j int) bool { return s.hits[j] >= r })
	more := ""
	if s.scanning {
		more = "+ (searching)"
	}
	return fmt.Sprintf("/%s/ in %s: match %d of %d%s · n/N next/previous", s.re, s.col, i+1, len(s.hits), more)
}
