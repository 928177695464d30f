package chrome

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest"
)

var _ ingest.Analysis = (*Analysis)(nil)

func analyzeSample(t *testing.T, name string) (*core.MemHistory, *Analysis) {
	t.Helper()
	src, err := Open(filepath.Join(sampleDir, name), Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	info := src.Info()
	h := core.NewMemHistory(info.Start)
	a := NewAnalysis(h)
	for {
		ev, err := src.Next()
		if err != nil {
			break
		}
		if err := a.Handle(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Finish(info.End); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(info.End); err != nil {
		t.Fatal(err)
	}
	return h, a
}

// checkStates compares the value of each path at each time.
func checkStates(t *testing.T, h *core.MemHistory, want []stateAt) {
	t.Helper()
	for _, w := range want {
		k, ok := h.Attributes().Lookup(w.path)
		if !ok {
			t.Errorf("%s: no such attribute", w.path)
			continue
		}
		iv, _, err := h.Single(context.Background(), k, w.t)
		if err != nil {
			t.Errorf("%s at %d: %v", w.path, w.t, err)
			continue
		}
		if iv.Value != w.v {
			t.Errorf("%s at %d = %v (%v), want %v", w.path, w.t, iv.Value, iv, w.v)
		}
	}
}

type stateAt struct {
	path string
	t    core.Time
	v    core.Value
}

func TestAnalysisClangNestsByDuration(t *testing.T) {
	h, _ := analyzeSample(t, "clang-ftime-trace.json")
	s := core.String
	const th = "Threads/4242:4242"
	checkStates(t, h, []stateAt{
		{th, 0, s("ExecuteCompiler")},
		{th + "/Exec_name", 0, s("clang-17")},
		{th + "/PID", 0, core.Int32(4242)},
		{"Processes/4242/Exec_name", 0, s("clang-17")},
		{th + "/CallStack/1", 1_000_000, s("ExecuteCompiler")},
		{th + "/CallStack/2", 1_000_000, s("Frontend")},
		// Source (1500us, 1000us) was written after its child Source
		// (1510us); ParseClass and the frontend end.
		{th + "/CallStack/3", 1_500_000, s("Source")},
		{th + "/CallStack/4", 1_500_000, core.Null()},
		{th + "/CallStack/4", 1_510_000, s("Source")},
		{th + "/CallStack/4", 1_739_999, s("Source")},
		{th + "/CallStack/4", 1_740_000, core.Null()},
		{th + "/CallStack/3", 2_499_999, s("Source")},
		{th + "/CallStack/3", 2_500_000, core.Null()},
		{th + "/CallStack/3", 3_000_000, s("ParseClass")},
		// Backend and OptModule start together; Backend is longer.
		{th + "/CallStack/2", 4_000_000, s("Backend")},
		{th + "/CallStack/3", 4_000_000, s("OptModule")},
		{th + "/CallStack/3", 4_800_000, core.Null()},
		{th + "/CallStack/2", 5_500_000, core.Null()},
		{th, 5_599_999, s("ExecuteCompiler")},
		{th, 5_600_000, core.Null()},
		{"Threads/4242:4243/Exec_name", 0, s("Total ExecuteCompiler")},
	})
}

func TestAnalysisCatapultPhases(t *testing.T) {
	h, a := analyzeSample(t, "catapult-phases.json")
	s := core.String
	const th = "Threads/2343:2347"
	checkStates(t, h, []stateAt{
		{th, 122_999, core.Null()},
		{th, 123_000, s("myFunction")},
		{th + "/CallStack/2", 130_500, s("inner")},
		{th + "/CallStack/2", 140_249, s("inner")},
		{th + "/CallStack/2", 140_250, core.Null()},
		{th, 145_000, core.Null()},
		{th + "/Exec_name", 0, s("CrBrowserMain")},
		{"Counters/2343/ctr/cats", 5_000, core.Int64(0)},
		{"Counters/2343/ctr/cats", 10_000, core.Int64(10)},
		{"Counters/2343/ctr/dogs", 10_000, core.Float64(2.5)},
		{"Processes/2343/Async/foo/async_read2", 20_000, core.Int32(1)},
		{"Processes/2343/Async/foo/async_read2", 60_000, core.Null()},
		// String pids get stable negative numbers.
		{"Threads/Renderer:Main/PID", 140_000, core.Int32(-1)},
		{"Processes/-1/Exec_name", 140_000, s("Renderer (example.com)")},
		{"Threads/Renderer:Main", 140_000, s("Layout")},
		{"Threads/Renderer:Main", 160_000, core.Null()},
	})
	if len(a.Warnings()) != 0 {
		t.Errorf("warnings on a clean trace: %v", a.Warnings())
	}
}

func TestAnalysisUnbalanced(t *testing.T) {
	h, a := analyzeSample(t, "unbalanced.json")
	s := core.String
	checkStates(t, h, []stateAt{
		{"Threads/1:1", 5_000, core.Null()},
		{"Threads/1:1", 10_000, s("outer")},
		{"Threads/1:1/CallStack/2", 20_000, s("inner")},
		{"Threads/1:1/CallStack/2", 30_000, core.Null()},
		{"Threads/1:1/CallStack/2", 40_000, s("never-closed")},
		{"Threads/1:1", 50_000, s("outer")}, // open to the end
		{"Threads/1:1/CallStack/2", 50_000, s("never-closed")},
		{"Threads/1:2", 20_000, s("other")},
		{"Threads/1:2", 25_000, core.Null()},
	})
	kinds := map[string]int64{}
	for _, w := range a.Warnings() {
		kinds[w.Kind] += w.Count
	}
	if kinds["unmatched-end"] != 1 || kinds["unmatched-begin"] != 2 {
		t.Errorf("warnings = %v, want 1 unmatched-end and 2 open slices", a.Warnings())
	}
}
