package tui

import (
	"context"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/ingest/analyses"
)

// The analysis tables hold what ingest/analyses reports for the range,
// and tab shows each in turn, alone, before coming back to the summary.
func TestStatsAnalysisTables(t *testing.T) {
	hs := newHarness(t, newDemoTrace(), 100, 30, true)
	hs.press("stats")
	b := hs.b()
	st := topView[*statsScreen](b)
	if st == nil {
		t.Fatal("the statistics are not open")
	}
	rep, err := analyses.Compute(context.Background(), b.hist, analyses.Options{From: st.from, To: st.to + 1})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]int{
		statsThreads: len(rep.CPUUsage.Threads),
		statsCPUs:    len(rep.CPUUsage.CPUs),
		statsLatency: len(rep.SchedLatency),
		statsIRQs:    len(rep.IRQs) + len(rep.SoftRaise),
		statsSlowest: len(rep.Slowest.Syscalls) + len(rep.Slowest.SchedLatency) + len(rep.Slowest.IRQs) + len(rep.Slowest.SoftRaise),
	}
	if want[statsThreads] == 0 || want[statsSlowest] == 0 {
		t.Fatalf("the demo trace has no CPU usage or slowest list: %+v", want)
	}
	var onCPU int64
	for _, th := range rep.CPUUsage.Threads {
		onCPU += th.NS
	}
	var got float64
	for _, l := range st.tables[statsThreads].lines {
		got += l.vals[1]
	}
	if int64(got) != onCPU {
		t.Errorf("threads on CPU %v ns in all, the analysis says %d", got, onCPU)
	}
	for i := range numStatsTables {
		if i > 0 {
			hs.press("focus")
		}
		if st.focus != i {
			t.Fatalf("after %d tabs the focus is on table %d", i, st.focus)
		}
		if n, ok := want[i]; ok && len(st.tables[i].lines) != n {
			t.Errorf("table %q: %d lines, want %d", st.tables[i].cols[0].head, len(st.tables[i].lines), n)
		}
		v := hs.view()
		for j := range numStatsTables {
			shown := strings.Contains(v, st.tables[j].cols[0].head)
			if alone := i >= numSummaryTables; j == i && !shown || alone && j != i && shown || !alone && j < numSummaryTables && !shown {
				t.Errorf("focus %d: table %q shown %v:\n%s", i, st.tables[j].cols[0].head, shown, v)
			}
		}
	}
	hs.press("focus")
	if st.focus != 0 {
		t.Errorf("tab after the last table: focus %d, want 0", st.focus)
	}
}
