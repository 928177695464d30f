package diff

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/query/stats"
	"github.com/tracetui/tracetui/ingest/trace"
)

// open indexes a trace into a temporary file and returns its history.
func open(tb testing.TB, path string) core.History {
	tb.Helper()
	t, err := trace.Open(context.Background(), path, index.Options{IndexPath: filepath.Join(tb.TempDir(), "index")})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { t.Close() })
	return t.History()
}

// TestSelfDiffIsZero: a trace compared with itself changes nothing, on a
// real LTTng kernel trace and a generated one, call tree included.
func TestSelfDiffIsZero(t *testing.T) {
	for name, path := range map[string]func(testing.TB) string{
		"bug446190": func(tb testing.TB) string { return filepath.Join(coretest.SharedTraces(tb), "ctf", "bug446190") },
		"gen-300":   func(tb testing.TB) string { return gentest.Trace(tb, 300) },
	} {
		t.Run(name, func(t *testing.T) {
			h := open(t, path(t))
			side := Side{Name: name, History: h}
			r, err := Compute(context.Background(), side, side, Options{Top: MaxTop, CallTree: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Threads) == 0 || len(r.Processes) == 0 || len(r.Syscalls) == 0 {
				t.Fatalf("nothing to compare: %d threads, %d processes, %d system calls", len(r.Threads), len(r.Processes), len(r.Syscalls))
			}
			for _, rows := range [][]TimeRow{r.Processes, r.Threads, r.SchedLatency, r.IRQs} {
				for _, row := range rows {
					if row.DeltaNS != 0 || row.BaseNS != row.NewNS || row.Ratio != nil && *row.Ratio != 1 {
						t.Errorf("%+v: not zero", row)
					}
				}
			}
			for _, s := range r.Syscalls {
				if s.DeltaTotalNS != 0 || s.Base != s.New {
					t.Errorf("%+v: not zero", s)
				}
			}
			for _, p := range r.CallTree {
				if p.DeltaSelf != 0 {
					t.Errorf("%+v: not zero", p)
				}
			}
		})
	}
}

// TestDiffIsStatsDifference (property): for two random ranges of a
// generated trace, every row is the two ranges' statistics summed over
// the row's key (computed here from stats.Compute directly), delta = new -
// base, the rows are sorted by the size of their change and cut to Top.
func TestDiffIsStatsDifference(t *testing.T) {
	rng := coretest.Rand(t)
	h := open(t, gentest.Trace(t, 300))
	start, end := h.Bounds()
	ctx := context.Background()
	randomRange := func() (core.Time, core.Time) {
		a, b := start+core.Time(rng.Int64N(int64(end-start))), start+core.Time(rng.Int64N(int64(end-start)))
		return min(a, b), max(a, b) + 1
	}
	for round := range 20 {
		var sides [2]Side
		var want [2]map[string]int64
		var calls [2]map[string]CallStats
		for i := range sides {
			from, to := randomRange()
			sides[i] = Side{History: h, From: from, To: to}
			rep, err := stats.Compute(ctx, h, stats.Options{From: from, To: to})
			if err != nil {
				t.Fatal(err)
			}
			tr, err := readTree(ctx, h)
			if err != nil {
				t.Fatal(err)
			}
			want[i], calls[i] = map[string]int64{}, map[string]CallStats{}
			for _, p := range rep.CPUUsage.Processes {
				want[i][tr.place(p.PID, p.Comm)] += p.NS
			}
			for _, c := range rep.Syscalls {
				calls[i][c.Name] = CallStats{c.Count, c.TotalNS, c.MaxNS}
			}
		}
		top := 1 + rng.IntN(40)
		r, err := Compute(ctx, sides[0], sides[1], Options{Top: top})
		if err != nil {
			t.Fatal(err)
		}
		keys := keysOf(want[0], want[1])
		if len(r.Processes) != min(top, len(keys)) {
			t.Fatalf("round %d: %d process rows, want %d of %d keys", round, len(r.Processes), min(top, len(keys)), len(keys))
		}
		for j, row := range r.Processes {
			if row.BaseNS != want[0][row.Name] || row.NewNS != want[1][row.Name] || row.DeltaNS != row.NewNS-row.BaseNS {
				t.Fatalf("round %d: %+v, want base %d new %d", round, row, want[0][row.Name], want[1][row.Name])
			}
			if j > 0 && abs(row.DeltaNS) > abs(r.Processes[j-1].DeltaNS) {
				t.Fatalf("round %d: rows not sorted by change: %d after %d", round, row.DeltaNS, r.Processes[j-1].DeltaNS)
			}
		}
		// Every key left out changed no more than the last row shown.
		if n := len(r.Processes); n > 0 && n < len(keys) {
			for _, k := range keys {
				if d := abs(want[1][k] - want[0][k]); d > abs(r.Processes[n-1].DeltaNS) && !slices.ContainsFunc(r.Processes, func(row TimeRow) bool { return row.Name == k }) {
					t.Fatalf("round %d: %s changed by %d and is left out", round, k, d)
				}
			}
		}
		for _, s := range r.Syscalls {
			if s.Base != calls[0][s.Name] || s.New != calls[1][s.Name] || s.DeltaTotalNS != s.New.TotalNS-s.Base.TotalNS {
				t.Fatalf("round %d: %+v, want base %+v new %+v", round, s, calls[0][s.Name], calls[1][s.Name])
			}
		}
	}
}

// TestThreadKeysByPlaceAndRank: threads are named by their process's
// place in the tree, their comm and their rank by tid among threads so
// named, so that two runs' threads line up whatever their tids.
func TestThreadKeysByPlaceAndRank(t *testing.T) {
	tr := &tree{ppid: map[int32]int32{10: 1, 20: 10, 30: 10}, comm: map[int32]string{1: "bash", 10: "make", 20: "cc1", 30: "cc1"}}
	keys := tr.threadKeys([]threadRef{{31, 30, "cc1"}, {20, 20, "cc1"}, {30, 30, "cc1"}, {10, 10, "make"}})
	want := map[int32]string{10: "bash > make | make #0", 20: "bash > make > cc1 | cc1 #0", 30: "bash > make > cc1 | cc1 #1", 31: "bash > make > cc1 | cc1 #2"}
	for tid, k := range want {
		if keys[tid] != k {
			t.Errorf("tid %d: %q, want %q", tid, keys[tid], k)
		}
	}
	// A process the history does not name takes its thread's comm.
	if k := tr.threadKeys([]threadRef{{41, 40, "worker"}})[41]; k != "worker | worker #0" {
		t.Errorf("unnamed process: %q", k)
	}
	// A cycle of parents ends the walk.
	cyc := &tree{ppid: map[int32]int32{1: 2, 2: 1}, comm: map[int32]string{1: "a", 2: "b"}}
	if p := cyc.place(1, "a"); p != "b > a" {
		t.Errorf("cycle: %q", p)
	}
}

// TestPartsCPUFirst: the CPU part alone gives the process table of the
// full comparison (the browser shows it first) and no other table.
func TestPartsCPUFirst(t *testing.T) {
	h := open(t, gentest.Trace(t, 300))
	start, end := h.Bounds()
	mid := start + (end-start)/2
	a, b := Side{Name: "a", History: h, From: start, To: mid}, Side{Name: "b", History: h, From: mid, To: end + 1}
	ctx := context.Background()
	full, err := Compute(ctx, a, b, Options{Top: MaxTop})
	if err != nil {
		t.Fatal(err)
	}
	cpu, err := Compute(ctx, a, b, Options{Top: MaxTop, Parts: stats.PartCPU})
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Processes) == 0 || !slices.EqualFunc(cpu.Processes, full.Processes, func(x, y TimeRow) bool {
		return x.Name == y.Name && x.BaseNS == y.BaseNS && x.NewNS == y.NewNS
	}) {
		t.Fatalf("processes: CPU part %+v, full %+v", cpu.Processes, full.Processes)
	}
	if len(cpu.Syscalls)+len(cpu.SchedLatency)+len(cpu.IRQs) != 0 {
		t.Fatalf("the CPU part has other tables: %d %d %d", len(cpu.Syscalls), len(cpu.SchedLatency), len(cpu.IRQs))
	}
}
