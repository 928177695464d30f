package trace

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
)

// threadsHistory returns a history of n threads, each with a status that
// changes every 10 ns and an exec name and PPID set once.
func threadsHistory(t testing.TB, n int, end core.Time) *core.MemHistory {
	h := core.NewMemHistory(0)
	tree := h.Attributes()
	type th struct{ status, name, ppid core.Key }
	ths := make([]th, n)
	for i := range ths {
		id := fmt.Sprint(100 + i)
		ths[i] = th{tree.AddPath("Threads", id), tree.AddPath("Threads", id, "Exec_name"), tree.AddPath("Threads", id, "PPID")}
	}
	for ts := core.Time(0); ts < end; ts += 10 {
		for i, x := range ths {
			if ts == 0 {
				must(t, h.Modify(x.name, ts, core.String(fmt.Sprintf("t%d", i))))
				must(t, h.Modify(x.ppid, ts, core.Int32(1)))
			}
			must(t, h.Modify(x.status, ts, core.Int32(int32((int(ts/10)+i)%3))))
		}
	}
	must(t, h.Close(end))
	return h
}

func TestQueryRangeAndSamples(t *testing.T) {
	h := threadsHistory(t, 3, 100)
	ctx := context.Background()
	res, err := Query(ctx, h, QueryRequest{Globs: []string{"Threads/*/Exec_name", "Threads/101"}, From: 25, To: 44})
	must(t, err)
	var paths []string
	for _, a := range res.Attributes {
		paths = append(paths, a.Path)
	}
	if got := strings.Join(paths, " "); got != "Threads/100/Exec_name Threads/101 Threads/101/Exec_name Threads/102/Exec_name" {
		t.Fatalf("attributes = %s", got)
	}
	// Threads/101 changes every 10 ns: [20,29] [30,39] [40,49] intersect [25,44].
	if ivs := res.Attributes[1].Intervals; len(ivs) != 3 || ivs[0].Start != 20 || ivs[2].End != 49 {
		t.Errorf("Threads/101 intervals = %v", ivs)
	}
	res, err = Query(ctx, h, QueryRequest{Globs: []string{"Threads/100"}, From: 0, To: 99, Samples: 4})
	must(t, err)
	// Samples at 0, 33, 66, 99: four distinct 10 ns intervals.
	if ivs := res.Attributes[0].Intervals; len(ivs) != 4 || ivs[1].Start != 30 || ivs[3].Start != 90 {
		t.Errorf("sampled intervals = %v", ivs)
	}
	if _, err := Query(ctx, h, QueryRequest{Globs: []string{"Nope/*"}, From: 0, To: 10}); err == nil {
		t.Error("a glob matching nothing is not an error")
	}
}

func TestPaperBenchCountsFrames(t *testing.T) {
	h := threadsHistory(t, 70, 1<<14)
	res, err := PaperBench(context.Background(), h)
	must(t, err)
	// 1 whole-trace frame + 10 zooms + scrolling from the middle to the
	// end at a width of about 1/1024 of the trace: about 512 screens (fewer
	// here, where integer halving of a 16 us trace rounds the width up).
	if res.ZoomFrames < 1+10+450 || res.ZoomFrames > 1+10+520 {
		t.Errorf("frames = %d, want about 500", res.ZoomFrames)
	}
	if res.Threads != 70 || res.PsTreeNodes == 0 {
		t.Errorf("result = %+v", res)
	}
	if _, err := PaperBench(context.Background(), core.NewMemHistory(0)); err == nil {
		t.Error("a history without threads is not an error")
	}
}
