package gantt

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/screens/stats"
	"github.com/tracetui/tracetui/tui/ui/headless"
)

// statsWant computes the statistics of [from, to] from the definitions:
// every interval of the history, every event row.
func statsWant(tr *frametest.MemTrace, from, to core.Time, sel core.Key) (all, selected map[string]core.Time, events map[string]int64, calls map[string][2]int64) {
	m := tr.Hist.(*core.MemHistory)
	at := m.Attributes()
	threads, _ := at.Lookup(core.AttrThreads)
	isThread := map[core.Key]bool{}
	isCall := map[core.Key]bool{}
	for _, th := range at.Children(threads) {
		isThread[th] = true
		if k, ok := at.Child(th, core.AttrSystemCall); ok {
			isCall[k] = true
		}
	}
	all, selected = map[string]core.Time{}, map[string]core.Time{}
	calls = map[string][2]int64{}
	_, histEnd := m.Bounds()
	for _, iv := range m.Intervals() {
		if iv.Value.IsNull() || !iv.Intersects(from, to) {
			continue
		}
		d := min(iv.End, to) - max(iv.Start, from) + 1
		name := frame.DescribeValue(frame.DomainThread, iv.Value)
		if st := core.ThreadStatus(iv.Value.Int()); isThread[iv.Key] && strings.HasPrefix(at.Name(iv.Key), "0_") &&
			(st == core.ThreadRunUser || st == core.ThreadRunSyscall || st == core.ThreadInterrupted) {
			name = stats.IdleState // an idle thread runs while its CPU is idle
		}
		if isThread[iv.Key] {
			all[name] += d
		}
		if iv.Key == sel {
			selected[name] += d
		}
		// complete calls: inside the range, ended before the trace's end,
		// neither inherited at a fork (the demo has none) nor exit/exit_group
		if isCall[iv.Key] && iv.Start >= from && iv.End < to && iv.End < histEnd && iv.Value.Str() != "exit" && iv.Value.Str() != "exit_group" {
			c := calls[iv.Value.Str()]
			calls[iv.Value.Str()] = [2]int64{c[0] + 1, c[1] + int64(iv.Duration())}
		}
	}
	events = map[string]int64{}
	for _, r := range tr.Table.(*frametest.MemEvents).All {
		if r.Time >= from && r.Time <= to {
			events[r.Event]++
		}
	}
	return all, selected, events, calls
}

func checkStats(t *testing.T, hs *harness, from, to core.Time) {
	t.Helper()
	b := hs.b()
	tr := b.trace.(*frametest.MemTrace)
	sel := b.tree().Node(b.tree().Selected()).Key
	all, selected, events, calls := statsWant(tr, from, to, sel)
	st := topView[*stats.Screen](b)
	if st == nil {
		t.Fatal("the statistics are not open")
	}
	if st.From != from || st.To != to {
		t.Fatalf("statistics of [%d, %d], want [%d, %d]", st.From, st.To, from, to)
	}
	states := st.Tables[stats.States].Lines
	if len(states) != len(all) {
		t.Errorf("%d states, want %d: %v", len(states), len(all), names(states))
	}
	for _, l := range states {
		if core.Time(l.Vals[3]) != all[l.Name] || core.Time(l.Vals[1]) != selected[l.Name] {
			t.Errorf("state %s: all rows %v, selected %v; want %v, %v", l.Name, l.Vals[3], l.Vals[1], all[l.Name], selected[l.Name])
		}
	}
	ev := st.Tables[stats.Events].Lines
	if len(ev) != len(events) {
		t.Errorf("%d event types, want %d", len(ev), len(events))
	}
	for _, l := range ev {
		if int64(l.Vals[1]) != events[l.Name] {
			t.Errorf("event %s: %v, want %d", l.Name, l.Vals[1], events[l.Name])
		}
	}
	sc := st.Tables[stats.Syscalls].Lines
	if len(sc) != len(calls) {
		t.Errorf("%d system calls, want %d", len(sc), len(calls))
	}
	for _, l := range sc {
		if c := calls[l.Name]; int64(l.Vals[1]) != c[0] || int64(l.Vals[2]) != c[1] {
			t.Errorf("system call %s: %v calls %v ns, want %v", l.Name, l.Vals[1], l.Vals[2], c)
		}
	}
}

func TestStatsMatchDefinitions(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	hs.selectRow("Web Content 2001")
	hs.press("stats")
	checkStats(t, hs, frametest.DemoStart, frametest.DemoEnd)
	// Over a selection, and sorted by count.
	hs.press("stats")
	hs.press("zoom_in")
	hs.press("right")
	hs.press("select")
	for range 7 {
		hs.press("right")
	}
	hs.press("select")
	hs.press("stats")
	b := hs.b()
	checkStats(t, hs, b.selStart, b.selEnd)
	if v := hs.view(); !strings.Contains(v, "Statistics of the selection") {
		t.Errorf("title:\n%s", v)
	}
}

// blockingEvents' CountByType waits for its context to end.
type blockingEvents struct {
	frame.EventTable
	started, ended chan struct{}
}

func (e *blockingEvents) CountByType(ctx context.Context, from, to core.Time, fn func(int64, int64) bool) (map[string]int64, error) {
	close(e.started)
	<-ctx.Done()
	close(e.ended)
	return nil, ctx.Err()
}

// TestStatsCancel: esc cancels a running count; its late answers are
// dropped.
func TestStatsCancel(t *testing.T) {
	tr := frametest.NewDemoTrace()
	ev := &blockingEvents{EventTable: tr.Table, started: make(chan struct{}), ended: make(chan struct{})}
	tr.Table = ev
	hs := newHarness(t, tr, 100, 30, true)
	_, cmd := hs.m.Update(headless.Key("S"))
	msgs := make(chan tea.Msg, 1)
	go func() { msgs <- cmd() }()
	<-ev.started
	first := <-msgs    // the history's part
	hs.m.Update(first) // its command waits for the count: not run
	if v := hs.view(); !strings.Contains(v, "counting") {
		t.Errorf("no progress shown while counting:\n%s", v)
	}
	st := topView[*stats.Screen](hs.b())
	seq := st.Job.Tag()
	hs.keys("esc")
	select {
	case <-ev.ended:
	case <-time.After(10 * time.Second):
		t.Fatal("esc did not cancel the count")
	}
	b := hs.b()
	if topView[*stats.Screen](b) != nil {
		t.Error("esc did not close the statistics")
	}
	// A late answer of the cancelled run is dropped.
	late := stats.Msg{Seq: seq, Table: stats.Events, Last: true}
	late.Lines[stats.Events] = []stats.Line{{Name: "late", Vals: []float64{0, 1, 100}}}
	hs.Send(late)
	for _, l := range st.Tables[stats.Events].Lines {
		if l.Name == "late" {
			t.Error("a cancelled run's answer was applied")
		}
	}
}

// TestDensityStrip: the strip holds the events per column of the whole
// trace, the visible range in brackets.
func TestDensityStrip(t *testing.T) {
	tr := frametest.NewDemoTrace()
	hs := newHarness(t, tr, 80, 24, true)
	b := hs.b()
	l := b.sh.Layout(b.showTable, b.tableLines)
	n := stripCols(l)
	var total int64
	for _, c := range b.density.counts {
		total += c
	}
	if len(b.density.counts) != n || total != int64(len(tr.Table.(*frametest.MemEvents).All)) {
		t.Fatalf("%d columns holding %d events, want %d columns, %d events", len(b.density.counts), total, n, len(tr.Table.(*frametest.MemEvents).All))
	}
	strip := func() string { return strings.Split(hs.view(), "\n")[0] }
	if s := strip(); !strings.HasPrefix(s, "1518 events") || strings.Count(s, "[") != 1 || !strings.Contains(s, " [") || !strings.HasSuffix(s, "]") {
		t.Errorf("whole trace: %q", s)
	}
	hs.keys(":")
	hs.typeText("+5ms")
	hs.keys("enter")
	for range 4 {
		hs.press("zoom_in")
	}
	s := strip()
	open, closing := strings.Index(s, "["), strings.Index(s, "]")
	if lipglossWidth(s) != 80 || open < 0 || closing < open || closing-open > 7 {
		t.Errorf("zoomed x16: %q", s)
	}
	whole := frame.Window{Start: b.win.Start, End: b.win.End, T0: b.win.Start, T1: b.win.End, Cols: n}
	if want := l.TreeW + 1 + whole.ColOf(b.win.T0); open != want {
		t.Errorf("[ at %d, want %d (the visible range's first column)", open, want)
	}
	hs.Send(tea.WindowSizeMsg{Width: 100, Height: 24}) // a new width reads the density again
	if len(b.density.counts) != stripCols(b.sh.Layout(b.showTable, b.tableLines)) {
		t.Errorf("after a resize: %d columns", len(b.density.counts))
	}
}
