package diff

import (
	"context"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
	"github.com/tracetui/tracetui/ingest/query/stats"
)

// TestThreadsAgainstStats (property): comparing thread A over one random
// range with thread B over another gives, row by row, the statistics of
// each thread computed here from stats.Compute: its CPU time, its
// process's, its system calls summed by name, its wake-up latency; no
// interrupt row; rows named "comm tid vs comm tid".
func TestThreadsAgainstStats(t *testing.T) {
	rng := coretest.Rand(t)
	h := open(t, gentest.Trace(t, 300))
	start, end := h.Bounds()
	ctx := context.Background()
	tr, err := readTree(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := stats.Compute(ctx, h, stats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var tids []int32
	for _, u := range whole.CPUUsage.Threads {
		if u.TID > 0 {
			tids = append(tids, u.TID)
		}
	}
	if len(tids) < 3 {
		t.Fatalf("threads: %v", tids)
	}
	type want struct {
		cpu, proc, lat int64
		calls          map[string]CallStats
		label          string
	}
	expect := func(tid int32, from, to core.Time) want {
		rep, err := stats.Compute(ctx, h, stats.Options{From: from, To: to})
		if err != nil {
			t.Fatal(err)
		}
		w := want{calls: map[string]CallStats{}, label: tr.comm[tid] + " " + strconv.Itoa(int(tid))}
		pid := tid
		for _, u := range rep.CPUUsage.Threads {
			if u.TID == tid {
				w.cpu += u.NS
				pid = u.PID
			}
		}
		for _, l := range rep.SchedLatency {
			if l.TID == tid {
				w.lat += l.TotalNS
				pid = l.PID
			}
		}
		for _, p := range rep.CPUUsage.Processes {
			if p.PID == pid {
				w.proc += p.NS
			}
		}
		for _, th := range rep.ThreadSyscalls {
			if th.TID == tid {
				for _, c := range th.Syscalls {
					cs := w.calls[c.Name]
					cs.Count, cs.TotalNS, cs.MaxNS = cs.Count+c.Count, cs.TotalNS+c.TotalNS, max(cs.MaxNS, c.MaxNS)
					w.calls[c.Name] = cs
				}
			}
		}
		return w
	}
	for round := range 12 {
		var sides [2]Side
		var wants [2]want
		for i := range sides {
			a, b := start+core.Time(rng.Int64N(int64(end-start))), start+core.Time(rng.Int64N(int64(end-start)))
			from, to := min(a, b), max(a, b)+1
			if round == 0 {
				from, to = start, end+1
			}
			tid := tids[rng.IntN(len(tids))]
			sides[i] = Side{Name: strconv.Itoa(i), History: h, From: from, To: to, Threads: []int32{tid}}
			wants[i] = expect(tid, from, to)
		}
		r, err := Compute(ctx, sides[0], sides[1], Options{Top: MaxTop})
		if err != nil {
			t.Fatal(err)
		}
		name := wants[0].label + " vs " + wants[1].label
		one := func(table string, rows []TimeRow, b, n int64) {
			t.Helper()
			if len(rows) != 1 || rows[0].BaseNS != b || rows[0].NewNS != n || rows[0].DeltaNS != n-b {
				t.Fatalf("round %d: %s: %+v, want base %d new %d", round, table, rows, b, n)
			}
		}
		one("threads", r.Threads, wants[0].cpu, wants[1].cpu)
		one("processes", r.Processes, wants[0].proc, wants[1].proc)
		one("latency", r.SchedLatency, wants[0].lat, wants[1].lat)
		if r.Threads[0].Name != name || r.BaseIDs.Threads[name] != sides[0].Threads[0] || r.NewIDs.Threads[name] != sides[1].Threads[0] {
			t.Fatalf("round %d: thread row %q (ids %v %v), want %q", round, r.Threads[0].Name, r.BaseIDs.Threads, r.NewIDs.Threads, name)
		}
		if len(r.IRQs) != 0 {
			t.Fatalf("round %d: interrupt rows %+v", round, r.IRQs)
		}
		if len(r.Syscalls) != len(keysOf(wants[0].calls, wants[1].calls)) {
			t.Fatalf("round %d: %d system calls, want %d", round, len(r.Syscalls), len(keysOf(wants[0].calls, wants[1].calls)))
		}
		for _, c := range r.Syscalls {
			if c.Base != wants[0].calls[c.Name] || c.New != wants[1].calls[c.Name] {
				t.Fatalf("round %d: %+v, want %+v and %+v", round, c, wants[0].calls[c.Name], wants[1].calls[c.Name])
			}
		}
	}
	// One side selecting threads and the other not is an error.
	if _, err := Compute(ctx, Side{History: h, Threads: tids[:1]}, Side{History: h}, Options{}); err == nil {
		t.Fatal("threads against the whole trace: no error")
	}
}
