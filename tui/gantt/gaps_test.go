package gantt

import (
	"context"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

const day = 24 * 3600 * core.Time(1e9)

// partsTrace is a trace of one thread with events in parts: parts[i]
// events spread over one second from starts[i]; the history runs from 0
// to a second after the last part.
func partsTrace(t *testing.T, starts []core.Time, parts []int) *frametest.MemTrace {
	t.Helper()
	m := core.NewMemHistory(0)
	k := m.Attributes().AddPath("Threads", "1")
	var rows []frame.EventRow
	for p, s := range starts {
		for i := range parts[p] {
			tm := s + core.Time(i)*core.Time(1e9)/core.Time(parts[p])
			rows = append(rows, frame.EventRow{Rank: int64(len(rows)), Time: tm, CPU: 0, Event: "e", TID: "1"})
			if err := m.Modify(k, tm, core.Int32(int32(1+i%2))); err != nil {
				t.Fatal(err)
			}
		}
	}
	end := starts[len(starts)-1] + 2e9
	if err := m.Close(end); err != nil {
		t.Fatal(err)
	}
	return &frametest.MemTrace{TraceName: "parts", Meta: frame.TraceInfo{Format: "ctf", End: end, Events: int64(len(rows))},
		Hist: m, Table: &frametest.MemEvents{All: rows}}
}

// TestOpensOnTheEventsPart: two parts 5.9 days apart open on the part
// with more events, the note saying the gap; a third part far after the
// second moves the choice again; a trace without a large gap opens whole.
func TestOpensOnTheEventsPart(t *testing.T) {
	for _, c := range []struct {
		name     string
		starts   []core.Time
		parts    []int
		want     int    // the part opened on (-1: the whole trace)
		wantNote string // in the note
	}{
		{"second part larger", []core.Time{1e9, 1e9 + 59*day/10}, []int{50, 200}, 1, "no events for 5.9 d (+1.98s to +509761s): showing the events of +509761s–+509761.995s"},
		{"first part larger", []core.Time{1e9, 1e9 + 59*day/10}, []int{300, 200}, 0, "no events for 5.9 d"},
		{"three parts", []core.Time{1e9, day, 30 * day}, []int{100, 40, 60}, 0, "no events for 29.0 d (+86400.975s to +2592000s): showing the events of +1s–+1.99s"},
		{"three parts, the last largest", []core.Time{1e9, day, 30 * day}, []int{10, 40, 60}, 2, "no events for 29.0 d"},
		{"three parts, the middle largest", []core.Time{1e9, day, 30 * day}, []int{10, 40, 30}, 1, "no events for 29.0 d"},
		{"close parts", []core.Time{1e9, 3e9}, []int{50, 200}, -1, ""},
		{"a pause under 90%", []core.Time{1e9, 2 * day, 6 * day}, []int{100, 40, 60}, -1, ""},
		{"under a minute", []core.Time{0, 50e9}, []int{10, 10}, -1, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := partsTrace(t, c.starts, c.parts)
			hs := newHarness(t, tr, 100, 30, true)
			b := hs.b()
			if c.want < 0 {
				if b.win.T0 != b.win.Start || b.win.T1 != b.win.End || b.note != "" {
					t.Errorf("view [%d, %d] of [%d, %d], note %q: want the whole trace", b.win.T0, b.win.T1, b.win.Start, b.win.End, b.note)
				}
				return
			}
			rows := tr.Table.(*frametest.MemEvents).All
			first := 0
			for p := range c.want {
				first += c.parts[p]
			}
			from, to := rows[first].Time, rows[first+c.parts[c.want]-1].Time
			if b.win.T0 != from || b.win.T1 != to || b.cursor != from {
				t.Errorf("view [%d, %d], cursor %d: want the part [%d, %d]", b.win.T0, b.win.T1, b.cursor, from, to)
			}
			if !strings.Contains(b.note, c.wantNote) || !strings.Contains(b.note, "0 shows the whole trace") {
				t.Errorf("note %q, want %q", b.note, c.wantNote)
			}
			if _, rank := hs.selectedEvent(); rank != int64(first) {
				t.Errorf("table at event %d, want the part's first, %d", rank, first)
			}
		})
	}
}

// TestEventsPartKeepsWhereTheUserWent: an answer that comes after the
// user moved only says the gap.
func TestEventsPartKeepsWhereTheUserWent(t *testing.T) {
	tr := partsTrace(t, []core.Time{1e9, 1e9 + 59*day/10}, []int{50, 200})
	hs := newHarness(t, tr, 100, 30, true)
	b := hs.b()
	hs.press("zoom_all")
	hs.press("right")
	v, cur := b.win, b.cursor
	m, err := searchEventsPart(context.Background(), tr.Table, v.Start, v.End)
	if err != nil || !m.found {
		t.Fatalf("search: %+v, %v", m, err)
	}
	hs.Run(b.gotEventsPart(m))
	if b.win != v || b.cursor != cur || !strings.Contains(b.note, "no events for 5.9 d") {
		t.Errorf("view %+v cursor %d note %q: want unchanged, the gap said", b.win, b.cursor, b.note)
	}
}

func TestLongestZeroRun(t *testing.T) {
	for _, c := range []struct {
		counts []int64
		b0, b1 int
	}{
		{[]int64{1, 2, 3}, -1, -1},
		{[]int64{0, 0, 1, 0, 0, 0, 1}, 3, 5},
		{[]int64{0, 0, 0, 1, 0, 0, 0}, 0, 2}, // the first of equals
		{[]int64{0}, 0, 0},
	} {
		if b0, b1 := longestZeroRun(c.counts); b0 != c.b0 || b1 != c.b1 {
			t.Errorf("longestZeroRun(%v) = %d, %d, want %d, %d", c.counts, b0, b1, c.b0, c.b1)
		}
	}
}

func TestHumanSpan(t *testing.T) {
	for d, want := range map[core.Time]string{59 * day / 10: "5.9 d", 3 * 3600 * 1e9: "3.0 h", 1500: "1.5us"} {
		if got := humanSpan(d); got != want {
			t.Errorf("humanSpan(%d) = %q, want %q", d, got, want)
		}
	}
}
