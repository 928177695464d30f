package gantt

import (
	"context"
	"errors"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
)

// Traces far apart in time. A trace directory can hold traces recorded
// days apart (the cyg-profile sample: two traces 5.9 days apart): the
// whole range is then an empty window with two slivers at its ends. At open
// the browser looks for an empty gap (no event) of at least a minute
// holding at least 90% of the range: traces far apart, not a pause in one
// recording (nor the states a Pajé trace defines beyond its events). It
// keeps the side holding more events and splits it again at any gap
// holding half of it (a finer density each time), so it opens on the
// largest dense part and says which gap it left out; 0 still shows the
// whole trace.

// gapBins is the resolution of each search for a gap, in density bins.
const gapBins = 256

// gapRounds bounds the searches (each narrows the range by at least half).
const gapRounds = 8

// farApart is the shortest gap that makes traces far apart.
const farApart = 60 * core.Time(1e9)

// gapMsg is the search's answer: the events' part to open on and the
// largest empty gap (between two events, or between an event and the
// trace's end).
type gapMsg struct {
	found          bool
	gapFrom, gapTo core.Time // the events (or trace ends) around the gap
	from, to       core.Time // the first and last events of the part
	err            error
}

// findEventsPart returns the command searching [from, to] for the part
// that holds the events.
func findEventsPart(ctx context.Context, ev frame.EventTable, from, to core.Time) tea.Cmd {
	return func() tea.Msg {
		m, err := searchEventsPart(ctx, ev, from, to)
		m.err = err
		return m
	}
}

func searchEventsPart(ctx context.Context, ev frame.EventTable, from, to core.Time) (gapMsg, error) {
	var m gapMsg
	start, end := from, to
	for range gapRounds {
		span := to - from + 1
		n := int(min(span, gapBins))
		counts, err := ev.Density(ctx, from, to, n)
		if err != nil || len(counts) != n {
			return m, err
		}
		// bin i starts where Density's column i does
		binStart := func(i int) core.Time { return from + core.Time(float64(span)*float64(i)/float64(n)) }
		g0, g1 := longestZeroRun(counts)
		if g0 < 0 {
			break
		}
		gap := binStart(g1+1) - binStart(g0)
		if m.found && 2*gap < span || !m.found && (10*gap < 9*span || gap < farApart) {
			break
		}
		var before, after int64
		for i, c := range counts {
			if i < g0 {
				before += c
			} else if i > g1 {
				after += c
			}
		}
		if before+after == 0 {
			return m, nil // no event at all
		}
		// The ranges keep one empty bin of the gap on each side: a bin
		// edge here may differ from Density's by rounding; the exact
		// events are looked up below.
		if !m.found { // the first gap is the largest: later ones are inside a part
			m.found, m.gapFrom, m.gapTo = true, binStart(g0+1)-1, binStart(g1)
		}
		if before >= after {
			to = binStart(g0+1) - 1
		} else {
			from = binStart(g1)
		}
	}
	if !m.found {
		return m, nil
	}
	// Exact ends: the part's first and last events, the events around the gap.
	var err error
	if m.from, m.to, err = eventsIn(ctx, ev, from, to); err != nil {
		return gapMsg{}, err
	}
	// (no event before or after the gap: it runs from the trace's start
	// or to its end)
	if _, last, err := eventsIn(ctx, ev, start, m.gapFrom); err == nil {
		m.gapFrom = last
	} else if !errors.Is(err, errNoEvent) {
		return gapMsg{}, err
	} else {
		m.gapFrom = start
	}
	if first, _, err := eventsIn(ctx, ev, m.gapTo, end); err == nil {
		m.gapTo = first
	} else if !errors.Is(err, errNoEvent) {
		return gapMsg{}, err
	} else {
		m.gapTo = end
	}
	return m, nil
}

// errNoEvent: eventsIn found no event in its range.
var errNoEvent = errors.New("no event in the range")

// eventsIn returns the times of the first and last events in [from, to].
func eventsIn(ctx context.Context, ev frame.EventTable, from, to core.Time) (first, last core.Time, err error) {
	if to < from {
		return 0, 0, errNoEvent
	}
	r0, err := ev.RankAt(ctx, from)
	if err != nil {
		return 0, 0, err
	}
	r1, err := ev.RankAt(ctx, to+1)
	if err != nil {
		return 0, 0, err
	}
	if r1 <= r0 {
		return 0, 0, errNoEvent
	}
	ranks := []int64{r0}
	if r1-1 > r0 {
		ranks = append(ranks, r1-1)
	}
	rows, err := ev.Rows(ctx, ranks)
	if err != nil || len(rows) != len(ranks) {
		return 0, 0, fmt.Errorf("reading the events around a gap: %w", err)
	}
	return rows[0].Time, rows[len(rows)-1].Time, nil
}

// longestZeroRun returns the first and last index of the longest run of
// zeros (-1, -1: none).
func longestZeroRun(counts []int64) (int, int) {
	b0, b1 := -1, -1
	for i := 0; i < len(counts); {
		if counts[i] != 0 {
			i++
			continue
		}
		j := i
		for j+1 < len(counts) && counts[j+1] == 0 {
			j++
		}
		if b0 < 0 || j-i > b1-b0 {
			b0, b1 = i, j
		}
		i = j + 1
	}
	return b0, b1
}

// gotEventsPart opens on the events' part, unless the user moved
// meanwhile, and says what gap it left out.
func (b *Gantt) gotEventsPart(m gapMsg) tea.Cmd {
	if m.err != nil || !m.found {
		return nil // the density strip reports read errors
	}
	v := b.win
	res := frame.RangeRes(v.Start, v.End)
	text := fmt.Sprintf("no events for %s (%s to %s)", humanSpan(m.gapTo-m.gapFrom),
		b.sh.RelTime(v.Start, m.gapFrom, res), b.sh.RelTime(v.Start, m.gapTo, res))
	if v.T0 != v.Start || v.T1 != v.End || b.cursor != v.Start {
		b.setNote(noteInfo, text+": "+b.sh.Keys.GoTo.Help().Key+" goes to a time")
		return nil
	}
	b.win = v.WithRange(m.from, m.to-m.from+1)
	b.cursor = m.from
	b.setNote(noteInfo, fmt.Sprintf("%s: showing the events of %s–%s; %s shows the whole trace", text,
		b.RelTime(m.from), b.RelTime(m.to), b.sh.Keys.ZoomAll.Help().Key))
	if b.tree() == nil { // the frame is asked when the rows arrive
		return b.table.syncTo(b.ctx, b.cursor)
	}
	return b.changed(true)
}

// humanSpan prints a long duration in days or hours ("5.9 d"), a short
// one as FormatDuration does.
func humanSpan(d core.Time) string {
	const hour, day = 3600 * 1e9, 24 * 3600 * 1e9
	switch {
	case d >= day:
		return fmt.Sprintf("%.1f d", float64(d)/day)
	case d >= hour:
		return fmt.Sprintf("%.1f h", float64(d)/hour)
	}
	return core.FormatDuration(d)
}
