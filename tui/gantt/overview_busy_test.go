package gantt

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/screens/overview"
)

// Busy traces for the overviews: real `go build` captures (ftrace text,
// 425 k and 1.29 M events, 1 178 threads) in the directory named by
// $TRACETUI_RECORDINGS, indexed once into gentest.Dir() and kept there like the
// generated benchmark traces. They are not in the repository (136 MB):
// tests and benchmarks on them skip when the variable is unset or the
// file absent, as on CI.

var recTraces struct {
	mu     sync.Mutex
	opened map[string]*trace.Trace
}

// recTrace opens $TRACETUI_RECORDINGS/NAME.txt (indexing it on first use), or
// skips.
func recTrace(tb testing.TB, name string) frame.Trace {
	tb.Helper()
	path := coretest.Recording(tb, name+".txt")
	recTraces.mu.Lock()
	defer recTraces.mu.Unlock()
	if tr := recTraces.opened[name]; tr != nil {
		return frametest.IngestTrace{Trace: tr}
	}
	if err := os.MkdirAll(gentest.Dir(), 0o755); err != nil {
		tb.Fatal(err)
	}
	tr, err := trace.Open(context.Background(), path, index.Options{IndexPath: filepath.Join(gentest.Dir(), "rec-"+name+".tti")})
	if err != nil {
		tb.Fatal(err)
	}
	if recTraces.opened == nil {
		recTraces.opened = map[string]*trace.Trace{}
	}
	recTraces.opened[name] = tr
	return frametest.IngestTrace{Trace: tr}
}

// BenchmarkOverviewBusy opens each overview, first time and on a change
// of p, on busy traces at 200x60 (as BenchmarkOverview50k does on the
// generated 50 k threads): the generated dense one (1 200 threads, no
// file needed) and the real `go build` captures.
//
//	TRACETUI_RECORDINGS=dir go test ./tui/gantt -run '^$' -bench OverviewBusy -benchtime 5x
func BenchmarkOverviewBusy(b *testing.B) {
	b.Run("trace=dense", func(b *testing.B) { benchOverview(b, newDenseTrace(300, 4)) })
	for _, name := range []string{"build", "bigbuild"} {
		b.Run("trace="+name, func(b *testing.B) { benchOverview(b, recTrace(b, name)) })
	}
}

// newDenseTrace is a generated busy trace for CI (no file): like a
// parallel build, daemons alive throughout and short-lived processes of
// a few threads each, started at random, every thread changing state
// about every 200 us while it lives.
func newDenseTrace(processes, perProcess int) *frametest.MemTrace {
	const (
		start = core.Time(2_029_000_000_000)
		span  = core.Time(2_000_000_000) // 2 s
		step  = core.Time(200_000)
	)
	rng := rand.New(rand.NewPCG(3, 14))
	m := core.NewMemHistory(start)
	at := m.Attributes()
	type change struct {
		t   core.Time
		key core.Key
		v   core.Value
	}
	var changes []change
	statuses := []core.ThreadStatus{core.ThreadRunUser, core.ThreadRunSyscall, core.ThreadWaitBlocked, core.ThreadWaitCPU}
	for p := range processes {
		pid := 100 + p*perProcess
		born, life := start, span
		if p >= 2 { // two daemons, then the build's processes
			born = start + core.Time(rng.Int64N(int64(span*9/10)))
			life = min(core.Time(rng.Int64N(int64(span/10)))+step, start+span-born)
		}
		for th := range perProcess {
			tid := strconv.Itoa(pid + th)
			changes = append(changes,
				change{born, at.AddPath(core.AttrThreads, tid, core.AttrExecName), core.String(fmt.Sprintf("proc%d", p))},
				change{born, at.AddPath(core.AttrThreads, tid, core.AttrPID), core.Int32(int32(pid))},
				change{born, at.AddPath(core.AttrThreads, tid, core.AttrPPID), core.Int32(1)})
			key := at.AddPath(core.AttrThreads, tid)
			for t := born; t < born+life; t += core.Time(1 + rng.Int64N(int64(2*step))) {
				changes = append(changes, change{t, key, core.Int32(int32(statuses[rng.IntN(len(statuses))]))})
			}
			if end := born + life; end < start+span {
				changes = append(changes, change{end, key, core.Null()})
			}
		}
	}
	slices.SortStableFunc(changes, func(a, b change) int { return cmp.Compare(a.t, b.t) })
	for _, c := range changes {
		if err := m.Modify(c.key, c.t, c.v); err != nil {
			panic(err)
		}
	}
	if err := m.Close(start + span - 1); err != nil {
		panic(err)
	}
	return &frametest.MemTrace{TraceName: "dense", Hist: m, Table: &frametest.MemEvents{},
		Meta: frame.TraceInfo{Format: "ctf", Start: start, End: start + span - 1}}
}

// TestOverviewBusyReadable: on a busy trace (more threads than lines,
// most of them short-lived), both overviews have no more leaves than
// lines, never hatch a cell at any p, and their coarsest p draws every
// line (the `go build` capture's showed 4 057 parts, all hatched, and a
// blank coarsest p). The real captures are checked too when present.
func TestOverviewBusyReadable(t *testing.T) {
	traces := map[string]func(testing.TB) frame.Trace{"dense": func(testing.TB) frame.Trace { return newDenseTrace(120, 3) }}
	if !testing.Short() {
		traces["build"] = func(tb testing.TB) frame.Trace { return recTrace(tb, "build") }
	}
	for name, open := range traces {
		t.Run(name, func(t *testing.T) {
			tr := open(t)
			for _, k := range []string{"overview", "overview_st"} {
				hs := newHarness(t, tr, 120, 40, true)
				hs.press(k)
				ov := hs.ov()
				if ov == nil || ov.Res == nil || ov.Res.Err != nil {
					t.Fatalf("%s: no overview", k)
				}
				res := ov.Res
				if leaves := len(res.Req.Shape.Leaves); leaves > ov.LeafLines() || len(res.Req.Shape.RowKeys) <= ov.LeafLines() {
					t.Fatalf("%s: %d leaves of %d rows for %d lines", k, leaves, len(res.Req.Shape.RowKeys), ov.LeafLines())
				}
				for i := range res.Parts {
					d := overview.NewDrawing(res, i, ov.Drawing().Cols, ov.LeafLines(), *ov.Window)
					empty := 0
					for _, c := range d.Cells {
						if c.Kind == overview.CellHatch {
							t.Fatalf("%s: p %g hatches a cell", k, res.Parts[i].P)
						}
						if c.Kind == overview.CellEmpty {
							empty++
						}
					}
					if i == len(res.Parts)-1 && empty > 0 {
						t.Errorf("%s: the coarsest p %g (%d parts) leaves %d of %d cells blank", k, res.Parts[i].P, len(res.Parts[i].Areas), empty, len(d.Cells))
					}
				}
			}
		})
	}
}
