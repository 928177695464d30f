package gantt

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/screens/stats"

	querystats "github.com/tracetui/tracetui/ingest/query/stats"
)

// The analysis tables hold what ingest/query/stats reports for the range,
// and tab shows each in turn, alone, before coming back to the summary.
func TestStatsAnalysisTables(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	hs.press("stats")
	b := hs.b()
	st := topView[*stats.Screen](b)
	if st == nil {
		t.Fatal("the statistics are not open")
	}
	rep, err := querystats.Compute(context.Background(), b.hist, querystats.Options{From: st.From, To: st.To + 1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]int{
		stats.Threads:     len(rep.CPUUsage.Threads),
		stats.Processes:   len(rep.CPUUsage.Processes),
		stats.CPUs:        len(rep.CPUUsage.CPUs),
		stats.Latency:     len(rep.SchedLatency),
		stats.ProcLatency: len(rep.ProcessLatency),
		stats.IRQs:        len(rep.IRQs) + len(rep.SoftRaise),
		stats.Slowest:     len(rep.Slowest.Syscalls) + len(rep.Slowest.SchedLatency) + len(rep.Slowest.IRQs) + len(rep.Slowest.SoftRaise),
	}
	if want[stats.Threads] == 0 || want[stats.Slowest] == 0 {
		t.Fatalf("the demo trace has no CPU usage or slowest list: %+v", want)
	}
	var onCPU int64
	for _, th := range rep.CPUUsage.Threads {
		onCPU += th.NS
	}
	// Threads and processes in tables of their own, each summing to
	// the time on CPU.
	var got, procs float64
	for _, l := range st.Tables[stats.Threads].Lines {
		got += l.Vals[1]
	}
	for _, l := range st.Tables[stats.Processes].Lines {
		procs += l.Vals[1]
	}
	if int64(got) != onCPU || int64(procs) != onCPU {
		t.Errorf("threads on CPU %v ns in all, processes %v, the analysis says %d", got, procs, onCPU)
	}
	// Every thread of the slowest list is named with its command.
	for _, l := range st.Tables[stats.Slowest].Lines {
		if o := l.Occ; o.TID >= 0 && !strings.Contains(l.Name, fmt.Sprintf(" [%d]", o.TID)) {
			t.Errorf("slowest line %q: thread %d not named \"command [tid]\"", l.Name, o.TID)
		}
	}
	// Running, summed over all threads, is time on a CPU: at most the
	// CPUs' busy time (the idle threads' time is idle, not running).
	var busy int64
	for _, c := range rep.CPUUsage.CPUs {
		busy += c.NS
	}
	var running float64
	for _, l := range st.Tables[stats.States].Lines {
		if strings.HasPrefix(l.Name, "running") || l.Name == "interrupted" {
			running += l.Vals[3]
		}
	}
	if int64(running) > busy || int64(running) < busy*9/10 {
		t.Errorf("threads running %v ns in all, CPUs busy %d ns", running, busy)
	}
	for i := range stats.NumTables {
		if i > 0 {
			hs.press("focus")
		}
		if st.Focus != i {
			t.Fatalf("after %d tabs the focus is on table %d", i, st.Focus)
		}
		if n, ok := want[i]; ok && len(st.Tables[i].Lines) != n {
			t.Errorf("table %q: %d lines, want %d", st.Tables[i].Title, len(st.Tables[i].Lines), n)
		}
		// Each table shown has its title, the focused one marked (in
		// --ascii: no colour tells it).
		v := hs.view()
		for j := range stats.NumTables {
			title := st.Tables[j].Title[:min(26, len(st.Tables[j].Title))]
			shown := strings.Contains(v, title)
			if alone := i >= stats.NumSummaryTables; j == i && !shown || alone && j != i && shown || !alone && j < stats.NumSummaryTables && !shown {
				t.Errorf("focus %d: table %q shown %v:\n%s", i, title, shown, v)
			}
			if marked := strings.Contains(v, "> "+title); marked != (j == i) {
				t.Errorf("focus %d: table %q marked %v:\n%s", i, title, marked, v)
			}
		}
	}
	hs.press("focus")
	if st.Focus != 0 {
		t.Errorf("tab after the last table: focus %d, want 0", st.Focus)
	}
}

// enter on an N-slowest line closes the screen, selects the thread and
// zooms Control Flow to the occurrence with the cursor at its start.
func TestStatsEnterShowsSlowest(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	hs.press("stats")
	st := topView[*stats.Screen](hs.b())
	for st.Focus != stats.Slowest {
		hs.press("focus")
	}
	st.Tables[stats.Slowest].SortCol = 1 // longest first
	st.Tables[stats.Slowest].Sort()
	// The second line is selected with down: enter shows its occurrence,
	// not the top line's.
	hs.press("down")
	sel := st.Tables[stats.Slowest].Lines[1]
	o := sel.Occ
	if o == nil || o.TID < 0 {
		t.Fatalf("the second slowest line %q has no thread occurrence", sel.Name)
	}
	if first := st.Tables[stats.Slowest].Lines[0].Occ; first != nil && *first == *o {
		t.Fatal("the first two lines have the same occurrence: the test cannot tell them apart")
	}
	hs.Send(tea.KeyMsg{Type: tea.KeyEnter})
	b := hs.b()
	if topView[*stats.Screen](b) != nil {
		t.Fatal("enter left the statistics open")
	}
	if b.win.T0 > core.Time(o.StartNS) || b.win.T1 < core.Time(o.StartNS+o.DurationNS) || b.cursor != core.Time(o.StartNS) {
		t.Errorf("Gantt [%d, %d] cursor %d; want it on the occurrence at %d for %d ns", b.win.T0, b.win.T1, b.cursor, o.StartNS, o.DurationNS)
	}
	// The occurrence is selected whole, entry to exit (issue 30 item 4).
	if !b.hasSel || b.selStart != core.Time(o.StartNS) || b.selEnd != core.Time(o.StartNS+o.DurationNS-1) {
		t.Errorf("selection %v [%d, %d], want the occurrence [%d, %d)", b.hasSel, b.selStart, b.selEnd, o.StartNS, o.StartNS+o.DurationNS)
	}
	n := b.tree().Node(b.tree().Selected())
	if want := core.ThreadName(int64(o.TID), o.CPU); n.Tid != want {
		t.Errorf("selected row %q (%s), want the thread %s", n.Label, n.Tid, want)
	}
}

func TestHistogramLine(t *testing.T) {
	hist := []int64{0, 0, 1, 4, 0, 2}
	for _, c := range []struct {
		ascii bool
		bars  string
	}{{false, "▂█ ▄"}, {true, ":@ ="}} {
		got := stats.HistogramLine("read", hist, c.ascii, 80)
		if !strings.HasPrefix(got, "read, log2 histogram 2ns–32ns: "+c.bars) {
			t.Errorf("ascii %v: %q, want the bars %q over 2ns–32ns", c.ascii, got, c.bars)
		}
	}
	if got := stats.HistogramLine("read", []int64{0, 0}, false, 80); !strings.Contains(got, "no durations") {
		t.Errorf("empty histogram: %q", got)
	}
}

// enter on a thread line of the wake-up latency table shows that
// thread's worst wake-up (or the thread over the range) in Control Flow.
func TestStatsEnterOnThreadLine(t *testing.T) {
	hs := newHarness(t, frametest.NewDemoTrace(), 100, 30, true)
	hs.press("stats")
	st := topView[*stats.Screen](hs.b())
	for st.Focus != stats.Latency {
		hs.press("focus")
	}
	tb := &st.Tables[stats.Latency]
	i := 0
	for i < len(tb.Lines) && tb.Lines[i].Occ == nil { // process lines have none
		hs.press("down")
		i++
	}
	if i == len(tb.Lines) || tb.Cur != i {
		t.Fatalf("no thread line in the latency table (%d lines), or the selection %d is not on line %d", len(tb.Lines), tb.Cur, i)
	}
	line := tb.Lines[i]
	o := line.Occ
	hs.Send(tea.KeyMsg{Type: tea.KeyEnter})
	b := hs.b()
	if topView[*stats.Screen](b) != nil {
		t.Fatal("enter left the statistics open")
	}
	n := b.tree().Node(b.tree().Selected())
	if want := core.ThreadName(int64(o.TID), o.CPU); n.Tid != want {
		t.Errorf("selected row %q (%s), want the thread %s of line %q", n.Label, n.Tid, want, line.Name)
	}
	if b.cursor != core.Time(o.StartNS) {
		t.Errorf("cursor %d, want the occurrence's start %d", b.cursor, o.StartNS)
	}
}
