package gantt

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/screens/overview"
	"github.com/tracetui/tracetui/tui/screens/overview/model"
	"github.com/tracetui/tracetui/tui/ui/headless"
)

// The keypress-to-frame benchmark: a generated kernel-like trace of 50 k
// threads (5 000 processes of 10 threads, 8 CPUs, 10 s), the browser driven
// headlessly at 200x60: each key is Update + every command it leads to (the
// frame query, the table's rank and rows reads) + Update of their results +
// View. p50 and p99 over the keys are reported per zoom level and view.
//
// The history is newBigHistory's indexed in-memory stand-in (per-key sorted
// intervals, binary search), so the numbers are the browser's own cost plus
// an ideal index; swap newBigHistory for the R-SHT of `tracetui gen
// --threads 50000` to measure the real thing.
//
//	go test ./tui/gantt -run '^$' -bench KeypressToFrame -benchtime 400x

const (
	bigThreads    = 50_000
	bigPerProcess = 10
	bigCPUs       = 8
	bigStart      = core.Time(1_700_000_000_000_000_000)
	bigSpan       = core.Time(10_000_000_000) // 10 s
)

// newBigHistory generates the 50 k-thread history: every thread ~20 status
// intervals (with a dense burst), Exec_name/PID/PPID, a System_call per
// syscall state; every CPU 100 k status intervals and an IRQ.
func newBigHistory() *frametest.IndexedHistory {
	rng := rand.New(rand.NewPCG(1, 2))
	tree := core.NewAttributeTree()
	end := bigStart + bigSpan - 1
	h := &frametest.IndexedHistory{Tree: tree, Start: bigStart, End: end}
	put := h.Put
	whole := func(k core.Key, v core.Value) { put(k, []core.Interval{{Key: k, Start: bigStart, End: end, Value: v}}) }
	// tiling returns n intervals tiling the trace with values from val.
	tiling := func(k core.Key, n int, val func(i int) core.Value) []core.Interval {
		cuts := make([]core.Time, 0, n+1)
		for range n - 1 {
			cuts = append(cuts, bigStart+1+core.Time(rng.Int64N(int64(bigSpan-1))))
		}
		slices.Sort(cuts)
		cuts = slices.Compact(cuts)
		ivs := make([]core.Interval, 0, len(cuts)+1)
		s := bigStart
		for i, c := range append(cuts, end+1) {
			ivs = append(ivs, core.Interval{Key: k, Start: s, End: c - 1, Value: val(i)})
			s = c
		}
		return ivs
	}
	threads := tree.AddPath(core.AttrThreads)
	for i := range bigThreads {
		tid := 1000 + i
		pid := 1000 + i - i%bigPerProcess
		t := tree.Add(threads, strconv.Itoa(tid))
		status := tiling(t, 20, func(j int) core.Value { return core.Int32(int32(1 + (j+i)%5)) })
		put(t, status)
		whole(tree.Add(t, core.AttrExecName), core.String(fmt.Sprintf("worker-%d", pid)))
		whole(tree.Add(t, core.AttrPID), core.Int32(int32(pid)))
		whole(tree.Add(t, core.AttrPPID), core.Int32(1))
		sc := tree.Add(t, core.AttrSystemCall)
		var sys []core.Interval
		for _, iv := range status {
			v := core.Null()
			if core.ThreadStatus(iv.Value.Int()) == core.ThreadRunSyscall {
				v = core.String("read")
			}
			if n := len(sys); n > 0 && sys[n-1].Value == v {
				sys[n-1].End = iv.End
				continue
			}
			sys = append(sys, core.Interval{Key: sc, Start: iv.Start, End: iv.End, Value: v})
		}
		put(sc, sys)
	}
	cpus := tree.AddPath(core.AttrCPUs)
	for c := range bigCPUs {
		k := tree.Add(cpus, strconv.Itoa(c))
		put(k, tiling(k, 100_000, func(j int) core.Value { return core.Int32(int32(j % 3)) }))
		cur := tree.Add(k, core.AttrCurrentThread)
		put(cur, tiling(cur, 1000, func(j int) core.Value { return core.Int32(int32(1000 + j*37%bigThreads)) }))
		irq := tree.Add(tree.Add(k, core.AttrIRQs), strconv.Itoa(16+c))
		put(irq, tiling(irq, 2000, func(j int) core.Value {
			if j%2 == 1 {
				return core.Int32(int32(core.CPUStatusIRQ))
			}
			return core.Null()
		}))
	}
	for len(h.ByKey) < tree.Len() {
		h.ByKey = append(h.ByKey, nil)
	}
	return h
}

// bigEvents is a synthetic event table of 50 M events, computed from the
// rank: no memory, O(1) reads.
type bigEvents struct{}

const bigEventCount = 50_000_000

func (bigEvents) Len() int64 { return bigEventCount }
func (bigEvents) row(r int64) frame.EventRow {
	return frame.EventRow{Rank: r, Time: bigStart + core.Time(r*int64(bigSpan)/bigEventCount), CPU: int32(r % bigCPUs),
		Event: "sched_switch", TID: strconv.FormatInt(1000+r%bigThreads, 10), Process: "worker", Contents: "prev_state = 1"}
}
func (e bigEvents) Rows(_ context.Context, ranks []int64) ([]frame.EventRow, error) {
	out := make([]frame.EventRow, len(ranks))
	for i, r := range ranks {
		out[i] = e.row(r)
	}
	return out, nil
}
func (bigEvents) RankAt(_ context.Context, t core.Time) (int64, error) {
	return int64(sort.Search(bigEventCount, func(i int) bool {
		return bigStart+core.Time(int64(i)*int64(bigSpan)/bigEventCount) >= t
	})), nil
}
func (bigEvents) Filter(ctx context.Context, f frame.Filter, fn func(frame.FilterProgress) bool) error {
	fn(frame.FilterProgress{Done: bigEventCount, Total: bigEventCount})
	return ctx.Err()
}

// Density is exact: events are evenly spread, rank r at
// bigStart + r*bigSpan/bigEventCount.
func (e bigEvents) Density(ctx context.Context, from, to core.Time, columns int) ([]int64, error) {
	if columns <= 0 || to < from {
		return nil, fmt.Errorf("density: %d columns over [%d, %d]", columns, from, to)
	}
	out := make([]int64, columns)
	span := float64(to-from) + 1
	prev, _ := e.RankAt(ctx, from)
	for i := range columns {
		end := from + core.Time(span*float64(i+1)/float64(columns))
		if i == columns-1 {
			end = to + 1
		}
		r, _ := e.RankAt(ctx, end)
		out[i], prev = r-prev, r
	}
	return out, ctx.Err()
}

// CountByType pretends to scan: every event is a sched_switch.
func (e bigEvents) CountByType(ctx context.Context, from, to core.Time, fn func(done, total int64) bool) (map[string]int64, error) {
	r0, _ := e.RankAt(ctx, from)
	r1, _ := e.RankAt(ctx, to+1)
	if fn != nil {
		fn(r1-r0, r1-r0)
	}
	return map[string]int64{"sched_switch": r1 - r0}, ctx.Err()
}

func newBigTrace() *frametest.MemTrace {
	h := newBigHistory()
	return &frametest.MemTrace{TraceName: "gen-50k", Hist: h, Table: bigEvents{},
		Meta: frame.TraceInfo{Format: "ctf", Start: h.Start, End: h.End, Events: bigEventCount}}
}

// benchKeys keep the zoom level: moves, pans, zoom in and out, paging,
// state changes, collapse/expand.
var benchKeys = []string{"j", "l", "d", "j", "w", "l", "s", "k", "h", "a", "pgdown", "]", "l", "[", "pgup", "enter", "enter", "j"}

func BenchmarkKeypressToFrame(b *testing.B) {
	for _, bt := range benchTraces {
		b.Run(bt.name, func(b *testing.B) { benchKeypress(b, bt.open(b)) })
	}
}

func benchKeypress(b *testing.B, tr frame.Trace) {
	for _, view := range []string{"1", "2"} {
		for _, zoom := range []int{0, 5, 10, 15, 20} { // 2^zoom times narrower than the trace
			name := fmt.Sprintf("view=%s/zoom=2^%d", map[string]string{"1": "controlflow", "2": "resources"}[view], zoom)
			b.Run(name, func(b *testing.B) {
				hs := newHarnessClock(b, tr, 200, 60, false, time.Now)
				hs.keys(view)
				hs.keys("G") // the middle of the tree
				for range hs.b().tree().VisibleLen() / 2 {
					hs.b().tree().Move(-1)
				}
				hs.keys(":")
				hs.typeText("+5s")
				hs.keys("enter")
				for range zoom {
					hs.keys("w")
				}
				lat := make([]time.Duration, 0, b.N) // keypress -> new frame
				ui := make([]time.Duration, 0, b.N)  // the same without the History query
				b.ResetTimer()
				for i := range b.N {
					k := headless.Key(benchKeys[i%len(benchKeys)])
					before := hs.b().frame
					t0 := time.Now()
					hs.Send(k)
					_ = hs.m.View()
					d := time.Since(t0)
					lat = append(lat, d)
					if f := hs.b().frame; f != before {
						d -= f.Elapsed
					}
					ui = append(ui, d)
				}
				b.StopTimer()
				pct := func(ds []time.Duration, p float64) float64 {
					slices.Sort(ds)
					return float64(ds[min(int(p*float64(len(ds))), len(ds)-1)].Microseconds()) / 1000
				}
				b.ReportMetric(pct(lat, 0.50), "p50-ms")
				b.ReportMetric(pct(lat, 0.99), "p99-ms")
				b.ReportMetric(pct(ui, 0.99), "p99-ui-ms")
				if f := hs.b().frame; f != nil {
					b.ReportMetric(float64(f.Intervals), "intervals/frame")
				}
			})
		}
	}
}

// BenchmarkOpenProcessTree50k is the one-time process tree read at open
// (one 2D query over Exec_name, PID, PPID of 50 k threads).
func BenchmarkOpenProcessTree50k(b *testing.B) {
	for _, bt := range benchTraces {
		b.Run(bt.name, func(b *testing.B) {
			h := bt.open(b).History()
			b.ResetTimer()
			for range b.N {
				t, err := frame.BuildControlFlow(context.Background(), h, nil)
				if err != nil || t.Len() < bigThreads {
					b.Fatalf("%v, %d rows", err, t.Len())
				}
			}
		})
	}
}

// BenchmarkOverview50k is the aggregated overview of the generated 50 k
// thread trace at 200x60 (Control Flow, the whole 10 s): time to first
// overview (model read by 2D queries, qualities, significant p values,
// first drawing) and time to change p (+ or -, then drawing). The
// temporal overview has |T| = 100 slices, the spatiotemporal one 30.
// Swap newBigHistory for the R-SHT of `tracetui gen --threads 50000` to
// measure the real thing.
//
//	go test ./tui/gantt -run '^$' -bench Overview50k -benchtime 5x
func BenchmarkOverview50k(b *testing.B) {
	for _, bt := range benchTraces {
		b.Run(bt.name, func(b *testing.B) { benchOverview(b, bt.open(b)) })
	}
}

func benchOverview(b *testing.B, tr frame.Trace) {
	for _, kind := range []struct{ name, key string }{{"temporal", "o"}, {"spatiotemporal", "O"}} {
		hs := newHarnessClock(b, tr, 200, 60, false, time.Now)
		b.Run(kind.name+"/first", func(b *testing.B) {
			var cpu time.Duration
			for range b.N {
				hs.b().ovCache = [2]*model.Result{}
				c0 := gentest.CPUTime()
				hs.keys(kind.key)
				_ = hs.m.View()
				cpu += gentest.CPUTime() - c0
				if ov := topView[*overview.Screen](hs.b()); ov == nil || ov.Res == nil {
					b.Fatal("no overview")
				}
				b.StopTimer()
				res := topView[*overview.Screen](hs.b()).Res
				b.ReportMetric(float64(res.Model.T), "slices")
				b.ReportMetric(float64(len(res.Parts)), "p-values")
				for i, ph := range []string{"model-ms", "qualities-ms", "p-values-ms"} {
					b.ReportMetric(float64(res.Phases[i].Microseconds())/1000, ph)
				}
				hs.keys("esc")
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
		hs.keys(kind.key)
		b.Run(kind.name+"/change-p", func(b *testing.B) {
			for i := range b.N {
				k := "+"
				if i%2 == 1 {
					k = "-"
				}
				hs.keys(k)
				_ = hs.m.View()
			}
		})
		hs.keys("esc")
	}
}
