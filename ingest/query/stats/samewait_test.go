package stats

import (
	"context"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/states/kernel/kstats"
)

// TestWaitsSideBySide: two status changes at one instant, running then
// waiting for a CPU again (the kernel model sees a switch-in the trace
// lacks at the event of the thread's switch-out R), leave two waits
// side by side: the history keeps no state that lasted no time. The
// first ended when the thread ran (a wake-up, 40 ns), the second
// follows that run (a preemption, no wake-up): the scan and the
// recorder (the stored report) count the first only.
func TestWaitsSideBySide(t *testing.T) {
	st := func(s core.ThreadStatus) core.Value { return core.Int32(int32(s)) }
	changes := []change{ // in time order, as the recorder wants them
		{"CPUs/0/Current_thread", 0, core.Int32(0)},
		{"Threads/5", 5, st(core.ThreadWaitBlocked)},
		{"Threads/5", 10, st(core.ThreadWaitCPU)}, // woken
		{"Threads/5", 50, st(core.ThreadRunUser)}, // ran at 50
		{"Threads/5", 50, st(core.ThreadWaitCPU)}, // and was preempted at 50
		{"Threads/5", 80, st(core.ThreadRunUser)}, // 30 ns: not a wake-up
		{"Threads/5", 90, st(core.ThreadWaitBlocked)},
	}
	h := core.NewMemHistory(0)
	r := kstats.NewRecorder(h, 0, kstats.StoredTop)
	for _, c := range changes {
		if err := r.Modify(h.Attributes().AddPath(splitPath(c.path)...), c.t, c.v); err != nil {
			t.Fatal(err)
		}
	}
	stored := r.Report(1000)
	if err := h.Close(1000); err != nil {
		t.Fatal(err)
	}
	k, _ := h.Attributes().Lookup("Threads/5")
	var waits int
	if _, err := h.Query2D(context.Background(), []core.Key{k}, 0, 1000, func(iv core.Interval) bool {
		if core.ThreadStatusOf(iv.Value) == core.ThreadWaitCPU {
			waits++
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if waits != 2 {
		t.Fatalf("%d waits for a CPU in the history, want the 2 this test is about", waits)
	}
	scan, err := Compute(context.Background(), h, Options{Scan: true})
	if err != nil {
		t.Fatal(err)
	}
	for what, rep := range map[string]*Report{"scan": scan, "recorder": stored} {
		if l := rep.SchedLatency; len(l) != 1 || l[0].Count != 1 || l[0].MaxNS != 40 {
			t.Errorf("%s: wake-up latency %+v, want one of 40 ns", what, l)
		}
	}
}
