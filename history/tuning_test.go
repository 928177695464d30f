package history

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// BenchmarkTuning builds the model's R-SHT at A = 1 M with several block
// sizes and fan-outs and reports, for each, the file size, the build
// throughput and the cost of the browser's queries: the figures the
// defaults were chosen from (see the package doc). Run with -benchtime 1x.
func BenchmarkTuning(b *testing.B) {
	const a = 1_000_000
	m := newModel(a, benchI)
	for _, bs := range []int{4096, 8192, 16384} {
		for _, c := range []int{16, 32, 64} {
			if c > maxFanOut(bs) {
				continue
			}
			b.Run(fmt.Sprintf("bs=%d/c=%d", bs, c), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					path := filepath.Join(b.TempDir(), "index")
					c0 := coretest.CPUTime()
					m.build(b, path, Options{BlockSize: bs, MaxChildren: c})
					buildCPU := coretest.CPUTime() - c0
					tr, err := Open(path, OpenOptions{})
					if err != nil {
						b.Fatal(err)
					}
					info := tr.Info()
					b.ReportMetric(float64(info.Intervals)/buildCPU.Seconds()/1e6, "Mintervals/cpu-s")
					b.ReportMetric(float64(info.FileBytes)/float64(info.Intervals), "bytes/interval")
					b.ReportMetric(float64(info.Depth), "depth")
					r := rand.New(rand.NewPCG(1, 1))
					measure := func(name string, n int, q func() core.QueryStats) {
						c0 := coretest.CPUTime()
						nodes := 0
						for range n {
							nodes += q().NodesRead
						}
						b.ReportMetric(float64(coretest.CPUTime()-c0)/float64(time.Microsecond)/float64(n), name+"-cpu-us/op")
						b.ReportMetric(float64(nodes)/float64(n), name+"-nodes/op")
					}
					measure("single", 2000, func() core.QueryStats {
						_, st, err := tr.Single(bg, core.Key(r.IntN(a)), core.Time(r.Int64N(modelT)))
						if err != nil {
							b.Fatal(err)
						}
						return st
					})
					frame := evenTimes(200, 0, modelT)
					measure("frame", 200, func() core.QueryStats {
						first := r.IntN(a - 60)
						keys := make([]core.Key, 60)
						for k := range keys {
							keys[k] = core.Key(first + k)
						}
						st, err := tr.Query2DTimes(bg, keys, frame, func(core.Interval) bool { return true })
						if err != nil {
							b.Fatal(err)
						}
						return st
					})
					sparse := evenTimes(2000, 0, modelT)
					measure("sparse", 10, func() core.QueryStats {
						keys := make([]core.Key, 100)
						for k := range keys {
							keys[k] = core.Key(r.IntN(a))
						}
						st, err := tr.Query2DTimes(bg, keys, sparse, func(core.Interval) bool { return true })
						if err != nil {
							b.Fatal(err)
						}
						return st
					})
					tr.Close()
				}
			})
		}
	}
}

// BenchmarkRHeight compares, at A = 10 k and 100 k, the variable height
// (vR, RHeight 0) with every fixed height: the evidence for choosing
// c^(r-1)*n >= A rather than the article's c^r*n >= A (see setHeight).
// Run with -benchtime 1x.
func BenchmarkRHeight(b *testing.B) {
	for _, a := range []int{10_000, 100_000} {
		m := newModel(a, benchI)
		for _, rh := range []int{0, 1, 2, 3} {
			b.Run(fmt.Sprintf("A=%s/r=%d", shortCount(a), rh), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					path := filepath.Join(b.TempDir(), "index")
					m.build(b, path, Options{RHeight: rh})
					tr, err := Open(path, OpenOptions{})
					if err != nil {
						b.Fatal(err)
					}
					info := tr.Info()
					r := rand.New(rand.NewPCG(1, 1))
					frame, sparse := evenTimes(200, 0, modelT), evenTimes(2000, 0, modelT)
					var frameNodes, singleNodes, sparseNodes int
					for range 200 {
						first := r.IntN(a - 60)
						keys := make([]core.Key, 60)
						for k := range keys {
							keys[k] = core.Key(first + k)
						}
						st, _ := tr.Query2DTimes(bg, keys, frame, func(core.Interval) bool { return true })
						frameNodes += st.NodesRead
						_, st, _ = tr.Single(bg, core.Key(r.IntN(a)), core.Time(r.Int64N(modelT)))
						singleNodes += st.NodesRead
					}
					for range 10 {
						keys := make([]core.Key, 100)
						for k := range keys {
							keys[k] = core.Key(r.IntN(a))
						}
						st, _ := tr.Query2DTimes(bg, keys, sparse, func(core.Interval) bool { return true })
						sparseNodes += st.NodesRead
					}
					tr.Close()
					b.ReportMetric(float64(info.MaxRHeight), "r")
					b.ReportMetric(float64(info.FileBytes)/float64(info.Intervals), "bytes/interval")
					b.ReportMetric(float64(frameNodes)/200, "frame-nodes/op")
					b.ReportMetric(float64(singleNodes)/200, "single-nodes/op")
					b.ReportMetric(float64(sparseNodes)/10, "sparse-nodes/op")
				}
			})
		}
	}
}
