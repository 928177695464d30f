package samples

import (
	"context"
	"testing"

	"github.com/tracetui/tracetui/core"
)

// TestCounts: each sample adds one to its thread's running count, two at
// one instant make one change of two, the idle thread counts per CPU,
// events of other classes and samples without a thread count nothing.
func TestCounts(t *testing.T) {
	fields := append(core.ThreadContextFields(), "ip")
	clock := &core.EventClass{ID: 0, Name: "cpu-clock", Fields: fields}
	tp := &core.EventClass{ID: 1, Name: "sched_switch", Fields: fields}
	isSample := func(cl *core.EventClass) bool { return cl.Name == "cpu-clock" }
	m := core.NewMemHistory(0)
	a := New(m, isSample)
	ev := func(tm core.Time, cpu int32, cl *core.EventClass, tid int64) {
		f := make([]core.Field, len(fields))
		f[core.CtxTID] = core.Field{Kind: core.FieldInt, Int: tid}
		if err := a.Handle(&core.Event{Time: tm, CPU: cpu, Class: cl, Fields: f}); err != nil {
			t.Fatal(err)
		}
	}
	ev(10, 0, clock, 42)
	ev(20, 0, tp, 42)
	ev(30, 1, clock, 42)
	ev(30, 1, clock, 42)
	ev(40, 1, clock, 0)
	ev(50, 0, clock, 0)
	ev(60, 0, clock, -1)
	ev(70, 0, clock, 0)
	if err := a.Finish(100); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(100); err != nil {
		t.Fatal(err)
	}
	at := m.Attributes()
	for _, c := range []struct {
		path string
		at   core.Time
		want core.Value
	}{
		{"Threads/42/Samples", 9, core.Null()},
		{"Threads/42/Samples", 10, core.Int64(1)},
		{"Threads/42/Samples", 29, core.Int64(1)},
		{"Threads/42/Samples", 30, core.Int64(3)},
		{"Threads/42/Samples", 100, core.Int64(3)},
		{"Threads/0_1/Samples", 40, core.Int64(1)},
		{"Threads/0_0/Samples", 69, core.Int64(1)},
		{"Threads/0_0/Samples", 70, core.Int64(2)},
	} {
		k, ok := at.Lookup(c.path)
		if !ok {
			t.Fatalf("no %s", c.path)
		}
		iv, _, err := m.Single(context.Background(), k, c.at)
		if err != nil {
			t.Fatal(err)
		}
		if iv.Value != c.want {
			t.Errorf("%s at %d: %v, want %v", c.path, c.at, iv.Value, c.want)
		}
	}
	if got := len(at.Glob("Threads/*/Samples")); got != 3 {
		t.Errorf("%d Samples attributes, want 3 (42, 0_0, 0_1)", got)
	}
}

// TestDetect: a source without sample classes gets no analysis; one
// whose classes are not listed may have samples.
func TestDetect(t *testing.T) {
	isSample := func(cl *core.EventClass) bool { return cl.Name == "cpu-clock" }
	if Detect([]*core.EventClass{{Name: "sched_switch"}}, isSample) {
		t.Error("tracepoints only: detected")
	}
	if !Detect([]*core.EventClass{{Name: "sched_switch"}, {Name: "cpu-clock"}}, isSample) || !Detect(nil, isSample) {
		t.Error("samples: not detected")
	}
}
