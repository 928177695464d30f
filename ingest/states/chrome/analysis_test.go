package chrome

import (
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/chrome"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
)

func analyzeSample(t *testing.T, name string) (*core.MemHistory, *Analysis) {
	t.Helper()
	src, err := chrome.Open(filepath.Join("..", "..", "..", "testdata", "chrome", name), chrome.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var a *Analysis
	h := sourcetest.Analyze(t, src, func(s core.StateSink) sourcetest.Analysis {
		a = NewAnalysis(s)
		return a
	})
	return h, a
}

// checkStates and at name the shared helpers shortly.
var (
	checkStates = sourcetest.CheckStates
	at          = sourcetest.At
)

type stateAt = sourcetest.StateAt

func TestAnalysisClangNestsByDuration(t *testing.T) {
	h, _ := analyzeSample(t, "clang-ftime-trace.json")
	s := core.String
	const th = "Threads/4242:4242"
	checkStates(t, h, []stateAt{
		at(th, 0, s("ExecuteCompiler")),
		at(th+"/Exec_name", 0, s("clang-17")),
		at(th+"/PID", 0, core.Int32(4242)),
		at("Processes/4242/Exec_name", 0, s("clang-17")),
		at(th+"/CallStack/1", 1_000_000, s("ExecuteCompiler")),
		at(th+"/CallStack/2", 1_000_000, s("Frontend")),
		// chrome.Source (1500us, 1000us) was written after its child chrome.Source
		// (1510us); ParseClass and the frontend end.
		at(th+"/CallStack/3", 1_500_000, s("Source")),
		at(th+"/CallStack/4", 1_500_000, core.Null()),
		at(th+"/CallStack/4", 1_510_000, s("Source")),
		at(th+"/CallStack/4", 1_739_999, s("Source")),
		at(th+"/CallStack/4", 1_740_000, core.Null()),
		at(th+"/CallStack/3", 2_499_999, s("Source")),
		at(th+"/CallStack/3", 2_500_000, core.Null()),
		at(th+"/CallStack/3", 3_000_000, s("ParseClass")),
		// Backend and OptModule start together; Backend is longer.
		at(th+"/CallStack/2", 4_000_000, s("Backend")),
		at(th+"/CallStack/3", 4_000_000, s("OptModule")),
		at(th+"/CallStack/3", 4_800_000, core.Null()),
		at(th+"/CallStack/2", 5_500_000, core.Null()),
		at(th, 5_599_999, s("ExecuteCompiler")),
		at(th, 5_600_000, core.Null()),
		at("Threads/4242:4243/Exec_name", 0, s("Total ExecuteCompiler")),
	})
}

func TestAnalysisCatapultPhases(t *testing.T) {
	h, a := analyzeSample(t, "catapult-phases.json")
	s := core.String
	const th = "Threads/2343:2347"
	checkStates(t, h, []stateAt{
		at(th, 122_999, core.Null()),
		at(th, 123_000, s("myFunction")),
		at(th+"/CallStack/2", 130_500, s("inner")),
		at(th+"/CallStack/2", 140_249, s("inner")),
		at(th+"/CallStack/2", 140_250, core.Null()),
		at(th, 145_000, core.Null()),
		at(th+"/Exec_name", 0, s("CrBrowserMain")),
		at("Counters/2343/ctr/cats", 5_000, core.Int64(0)),
		at("Counters/2343/ctr/cats", 10_000, core.Int64(10)),
		at("Counters/2343/ctr/dogs", 10_000, core.Float64(2.5)),
		at("Processes/2343/Async/foo/async_read2", 20_000, core.Int32(1)),
		at("Processes/2343/Async/foo/async_read2", 60_000, core.Null()),
		at("Processes/2343/Async/net/legacy_req", 30_000, core.Int32(1)),
		at("Processes/2343/Async/net/legacy_req", 40_000, core.Null()),
		// String pids get stable negative numbers.
		at("Threads/Renderer:Main/PID", 140_000, core.Int32(-1)),
		at("Processes/-1/Exec_name", 140_000, s("Renderer (example.com)")),
		at("Threads/Renderer:Main", 140_000, s("Layout")),
		at("Threads/Renderer:Main", 160_000, core.Null()),
	})
	if len(a.Warnings()) != 0 {
		t.Errorf("warnings on a clean trace: %v", a.Warnings())
	}
}

func TestAnalysisUnbalanced(t *testing.T) {
	h, a := analyzeSample(t, "unbalanced.json")
	s := core.String
	checkStates(t, h, []stateAt{
		at("Threads/1:1", 5_000, core.Null()),
		at("Threads/1:1", 10_000, s("outer")),
		at("Threads/1:1/CallStack/2", 20_000, s("inner")),
		at("Threads/1:1/CallStack/2", 30_000, core.Null()),
		at("Threads/1:1/CallStack/2", 40_000, s("never-closed")),
		at("Threads/1:1", 50_000, s("outer")), // open to the end
		at("Threads/1:1/CallStack/2", 50_000, s("never-closed")),
		at("Threads/1:2", 20_000, s("other")),
		at("Threads/1:2", 25_000, core.Null()),
	})
	kinds := map[string]int64{}
	for _, w := range a.Warnings() {
		kinds[w.Kind] += w.Count
	}
	if kinds["unmatched-end"] != 1 || kinds["unmatched-begin"] != 2 {
		t.Errorf("warnings = %v, want 1 unmatched-end and 2 open slices", a.Warnings())
	}
}

// Async slices of a process that has no thread slice at all (pid 7) lie
// on lanes, one per concurrent depth: 0x2 begins while 0x1 is open and
// takes lane 2; 0x3 reuses lane 1 once 0x1 ended, and its nested second
// begin takes lane 3 (0x2 still holds lane 2). Counters of a process
// without threads are numeric attributes. Flow ends name the other end.
func TestAnalysisTracks(t *testing.T) {
	h, a := analyzeSample(t, "catapult-tracks.json")
	s := core.String
	const req = "Processes/7/Async/net/URLRequest"
	checkStates(t, h, []stateAt{
		at("Processes/7/Exec_name", 0, s("network service")),
		at(req, 10_000, core.Int32(1)),
		at(req+"/1", 10_000, s("0x1")),
		at(req, 20_000, core.Int32(2)),
		at(req+"/2", 20_000, s("0x2")),
		at(req+"/1", 30_000, core.Null()),
		at(req+"/1", 35_000, s("0x3")),
		at(req+"/3", 37_000, s("0x3")), // nested in itself while 0x2 holds lane 2
		at(req+"/3", 38_000, core.Null()),
		at(req+"/2", 40_000, core.Null()),
		at(req, 45_000, core.Int32(1)),
		at(req+"/1", 49_999, s("0x3")),
		at(req+"/1", 50_000, core.Null()),
		at(req, 50_000, core.Null()),
		at("Processes/7/Async/disk/Read/1", 12_000, s("9")),
		at("Processes/7/Async/disk/Read/1", 16_000, core.Null()),
		// Counters of a process without threads.
		at("Counters/8/memory/heap", 0, core.Int64(1024)),
		at("Counters/8/memory/rss", 24_999, core.Float64(4096.5)),
		at("Counters/8/memory/heap", 25_000, core.Int64(2048)),
		at("Counters/8/memory/rss", 25_000, core.Int64(3000)),
		at("Threads/8:80", 15_000, s("Task")),
		// The flow ipc/post#5: s in Task (8:80), t on an idle thread
		// (7:70), f in Reply (8:81); each end holds until its slice ends.
		at("Threads/8:80/Flow_out", 17_999, core.Null()),
		at("Threads/8:80/Flow_out", 18_000, s("ipc/post#5")),
		at("Threads/8:80/Flow_out", 24_999, s("ipc/post#5")),
		at("Threads/8:80/Flow_out", 25_000, core.Null()),
		at("Threads/7:70/Flow_in", 33_000, s("ipc/post#5 from 8:80 at 18000")),
		at("Threads/7:70/Flow_out", 50_000, s("ipc/post#5")), // no slice on 7:70: open to the end
		at("Threads/8:81/Flow_in", 44_999, core.Null()),
		at("Threads/8:81/Flow_in", 45_000, s("ipc/post#5 from 7:70 at 33000")),
		at("Threads/8:81/Flow_in", 48_000, core.Null()),
	})
	if _, ok := h.Attributes().Lookup(req + "/4"); ok {
		t.Error("a fourth lane although at most three slices overlap")
	}
	if len(a.Warnings()) != 0 {
		t.Errorf("warnings on a clean trace: %v", a.Warnings())
	}
}

// Flow binding points (catapult-flow-bp.json): a flow start binds to its
// enclosing slice; a step or end with "bp": "e" too; one without binds to
// the next slice of its thread (holding from the event until that slice
// ends, past the end of the slice it sits in), or to the slice that
// begins at its own timestamp.
func TestAnalysisFlowBindingPoints(t *testing.T) {
	h, a := analyzeSample(t, "catapult-flow-bp.json")
	s := core.String
	checkStates(t, h, []stateAt{
		// msg#1: s in Send (1:1, 0-10 us).
		at("Threads/1:1/Flow_out", 2_000, s("ipc/msg#1")),
		at("Threads/1:1/Flow_out", 9_999, s("ipc/msg#1")),
		at("Threads/1:1/Flow_out", 10_000, core.Null()),
		// t at 5 us inside Busy (0-8): bound to the next slice, Relay (12-16).
		at("Threads/1:2/Flow_in", 5_000, s("ipc/msg#1 from 1:1 at 2000")),
		at("Threads/1:2/Flow_in", 8_000, s("ipc/msg#1 from 1:1 at 2000")),
		at("Threads/1:2/Flow_in", 15_999, s("ipc/msg#1 from 1:1 at 2000")),
		at("Threads/1:2/Flow_in", 16_000, core.Null()),
		at("Threads/1:2/Flow_out", 8_000, s("ipc/msg#1")),
		at("Threads/1:2/Flow_out", 16_000, core.Null()),
		// f with bp e at 20 inside Handle (18-24): its enclosing slice.
		at("Threads/1:3/Flow_in", 20_000, s("ipc/msg#1 from 1:2 at 5000")),
		at("Threads/1:3/Flow_in", 24_000, core.Null()),
		// msg#2: f at 30 inside Late (28-32), no bp: bound to Next (35-40).
		at("Threads/1:3/Flow_in", 30_000, s("ipc/msg#2 from 1:1 at 26000")),
		at("Threads/1:3/Flow_in", 33_000, s("ipc/msg#2 from 1:1 at 26000")),
		at("Threads/1:3/Flow_in", 39_999, s("ipc/msg#2 from 1:1 at 26000")),
		at("Threads/1:3/Flow_in", 40_000, core.Null()),
		// msg#3: f at 50 where Same (50-55) begins: that slice.
		at("Threads/1:3/Flow_in", 50_000, s("ipc/msg#3 from 1:1 at 46000")),
		at("Threads/1:3/Flow_in", 55_000, core.Null()),
		at("Threads/1:3/Flow_in", 59_000, core.Null()),
	})
	if len(a.Warnings()) != 0 {
		t.Errorf("warnings on a clean trace: %v", a.Warnings())
	}
}
