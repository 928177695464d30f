package gantt

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/tui/frame"
)

// Going to an event by its number (#): the number the details pane
// prints ("Event 1234"), one more than the event's rank.

// eventNumberMsg is the event read for '#'.
type eventNumberMsg struct {
	seq uint64
	row frame.EventRow
	err error
}

// parseEventNumber reads "1234", "#1234" or "1,234" as a rank in [0, total).
func parseEventNumber(text string, total int64) (int64, error) {
	s := strings.NewReplacer(",", "", "_", "", " ", "").Replace(strings.TrimPrefix(strings.TrimSpace(text), "#"))
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 || n > total {
		return 0, fmt.Errorf("bad event number %q: give one of 1–%d", text, total)
	}
	return n - 1, nil
}

// goToEventNumber selects event text in the table and reads it, to move
// the Gantt to it (gotEventNumber).
func (b *Gantt) goToEventNumber(text string) tea.Cmd {
	tb := b.table
	rank, err := parseEventNumber(text, tb.total)
	if err != nil {
		return b.prompt.Fail(err)
	}
	line := rank
	if tb.filterOn {
		i := sort.Search(len(tb.matches), func(j int) bool { return tb.matches[j] >= rank })
		if i == len(tb.matches) || tb.matches[i] != rank {
			return b.prompt.Fail(fmt.Errorf("event %d is not among the filter's matches: f then an empty text clears a column's filter", rank+1))
		}
		line = int64(i)
	}
	b.prompt.Close()
	tb.keepAt = false
	tb.moveTo(line)
	ctx, seq := b.evNum.Start(b.ctx)
	ev := b.trace.Events()
	return tea.Batch(tb.fetch(b.ctx), func() tea.Msg {
		rows, err := ev.Rows(ctx, []int64{rank})
		if err == nil && len(rows) != 1 {
			err = fmt.Errorf("event %d: read %d rows", rank+1, len(rows))
		}
		if err != nil {
			return eventNumberMsg{seq: seq, err: err}
		}
		return eventNumberMsg{seq: seq, row: rows[0]}
	})
}

// gotEventNumber moves the Gantt to the event read for '#'.
func (b *Gantt) gotEventNumber(m eventNumberMsg) tea.Cmd {
	if !b.evNum.Current(m.seq) {
		return nil
	}
	b.evNum.Finish()
	if m.err != nil {
		b.setNote(noteError, fmt.Errorf("going to the event: %w", m.err).Error())
		return nil
	}
	b.setNote(noteInfo, fmt.Sprintf("event %d at %s", m.row.Rank+1, b.RelTime(m.row.Time)))
	return b.gotoEvent(m.row)
}
