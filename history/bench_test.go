package history

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// The article's interval model (section 4.4, Fig. 6): a trace of duration
// T, A attributes each split into I equal intervals, attribute p's changes
// offset by p*T/(A*I), attribute order shuffled. Each attribute also holds
// null from the trace start to its first change, as in a real state
// system, so it has about I+1 intervals.
type model struct {
	A, I int
	T    core.Time
	perm []int32 // change order -> key
}

const modelT = 10_000_000_000 // 10 s

func newModel(a, i int) *model {
	m := &model{A: a, I: i, T: modelT, perm: make([]int32, a)}
	for k := range m.perm {
		m.perm[k] = int32(k)
	}
	r := rand.New(rand.NewPCG(1, 2))
	r.Shuffle(a, func(x, y int) { m.perm[x], m.perm[y] = m.perm[y], m.perm[x] })
	return m
}

// addKeys creates the A attributes of the model.
func (m *model) addKeys(tr *core.AttributeTree) {
	for k := range m.A {
		tr.Add(core.Root, strconv.Itoa(k))
	}
}

// feed makes every change of the model, in time order.
func (m *model) feed(s core.StateSink) error {
	step := m.T / core.Time(m.A*m.I)
	for j := range m.I {
		for p, k := range m.perm {
			t := core.Time(j*m.A+p) * step
			if err := s.Modify(core.Key(k), t, core.Int32(int32((j+p)%5))); err != nil {
				return err
			}
		}
	}
	return nil
}

func (m *model) build(tb testing.TB, path string, o Options) {
	b, err := Create(path, 0, o)
	if err != nil {
		tb.Fatal(err)
	}
	m.addKeys(b.Attributes())
	if err := m.feed(b); err != nil {
		tb.Fatal(err)
	}
	if err := b.Close(m.T); err != nil {
		tb.Fatal(err)
	}
}

var benchSizes = []int{10_000, 100_000, 1_000_000}

const benchI = 10

// benchLayouts runs f for each layout. The classic SHT runs only at 10 k
// attributes: it degenerates into a comb (at A = 100 k it took 158 s to
// build a 33.8 GB file of 8.25 M nodes, 4062 levels deep), as the article
// found.
func benchLayouts(b *testing.B, f func(b *testing.B, a int, l Layout)) {
	for _, a := range benchSizes {
		for _, l := range []Layout{LayoutRSHT, LayoutESHT, LayoutSHT} {
			b.Run(fmt.Sprintf("A=%s/%s", shortCount(a), l), func(b *testing.B) {
				if l == LayoutSHT && a > 10_000 {
					b.Skip("sht degenerates into a comb at this size (33.8 GB at A = 100 k)")
				}
				f(b, a, l)
			})
		}
	}
}

func shortCount(n int) string {
	switch {
	case n >= 1_000_000 && n%1_000_000 == 0:
		return strconv.Itoa(n/1_000_000) + "M"
	case n >= 1000 && n%1000 == 0:
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}

// BenchmarkBuild measures build throughput and reports the tree's shape:
// intervals per second, bytes per interval (the whole file), depth, nodes.
func BenchmarkBuild(b *testing.B) {
	benchLayouts(b, func(b *testing.B, a int, l Layout) {
		m := newModel(a, benchI)
		dir := b.TempDir()
		var info Info
		var elapsed, cpu time.Duration
		for i := 0; i < b.N; i++ {
			path := filepath.Join(dir, "index")
			bl, err := Create(path, 0, Options{Layout: l})
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			m.addKeys(bl.Attributes())
			b.StartTimer()
			t0, c0 := time.Now(), coretest.CPUTime()
			if err := m.feed(bl); err != nil {
				b.Fatal(err)
			}
			if err := bl.Close(m.T); err != nil {
				b.Fatal(err)
			}
			elapsed += time.Since(t0)
			cpu += coretest.CPUTime() - c0
			b.StopTimer()
			tr, err := Open(path, OpenOptions{})
			if err != nil {
				b.Fatal(err)
			}
			info = tr.Info()
			tr.Close()
			os.Remove(path)
			b.StartTimer()
		}
		b.ReportMetric(float64(info.Intervals)*float64(b.N)/elapsed.Seconds()/1e6, "Mintervals/s")
		// On a shared machine the CPU time (user+system, every thread, GC
		// included) is steadier than the wall clock.
		b.ReportMetric(float64(info.Intervals)*float64(b.N)/cpu.Seconds()/1e6, "Mintervals/cpu-s")
		b.ReportMetric(float64(info.FileBytes)/float64(info.Intervals), "bytes/interval")
		b.ReportMetric(float64(info.Depth), "depth")
		b.ReportMetric(float64(info.Nodes), "nodes")
		b.ReportMetric(float64(info.Intervals), "intervals")
	})
}

// benchFiles are built once per process and shared by the query
// benchmarks.
var benchFiles struct {
	sync.Mutex
	dir   string
	paths map[string]string
}

// benchFile returns the path of the index called name, built by build
// the first time.
func benchFile(b *testing.B, name string, build func(path string)) string {
	b.Helper()
	benchFiles.Lock()
	defer benchFiles.Unlock()
	if benchFiles.paths == nil {
		d, err := os.MkdirTemp("", "history-bench-")
		if err != nil {
			b.Fatal(err)
		}
		benchFiles.dir, benchFiles.paths = d, map[string]string{}
	}
	path, ok := benchFiles.paths[name]
	if !ok {
		path = filepath.Join(benchFiles.dir, name)
		build(path)
		benchFiles.paths[name] = path
	}
	return path
}

func benchTree(b *testing.B, a int, l Layout) *Tree {
	b.Helper()
	path := benchFile(b, fmt.Sprintf("%d-%s", a, l), func(path string) { newModel(a, benchI).build(b, path, Options{Layout: l}) })
	tr, err := Open(path, OpenOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { tr.Close() })
	return tr
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchFiles.dir != "" {
		os.RemoveAll(benchFiles.dir)
	}
	os.Exit(code)
}

func reportNodes(b *testing.B, nodes int) {
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

// BenchmarkSingle: the state of one random attribute at a random time.
func BenchmarkSingle(b *testing.B) {
	benchLayouts(b, func(b *testing.B, a int, l Layout) {
		tr := benchTree(b, a, l)
		r := rand.New(rand.NewPCG(3, 4))
		nodes := 0
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			_, st, err := tr.Single(bg, core.Key(r.IntN(a)), core.Time(r.Int64N(modelT+1)))
			if err != nil {
				b.Fatal(err)
			}
			nodes += st.NodesRead
		}
		reportNodes(b, nodes)
	})
}

// BenchmarkFull: the state of every attribute at a random time.
func BenchmarkFull(b *testing.B) {
	benchLayouts(b, func(b *testing.B, a int, l Layout) {
		tr := benchTree(b, a, l)
		r := rand.New(rand.NewPCG(5, 6))
		nodes := 0
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			n := 0
			st, err := tr.Full(bg, core.Time(r.Int64N(modelT+1)), func(core.Interval) bool { n++; return true })
			if err != nil || n != a {
				b.Fatalf("%d intervals, %v", n, err)
			}
			nodes += st.NodesRead
		}
		reportNodes(b, nodes)
	})
}

func evenTimes(n int, t0, t1 core.Time) []core.Time {
	ts := make([]core.Time, n)
	for i := range ts {
		ts[i] = t0 + (t1-t0)*core.Time(i)/core.Time(n-1)
	}
	return ts
}

// Benchmark2DSparse is the article's 2D benchmark: 100 random keys at 2000
// timestamps spread over the trace.
func Benchmark2DSparse(b *testing.B) { bench2D(b, 100, false, 2000) }

// Benchmark2DFrame is one terminal frame of the browser: 60 consecutive
// rows by 200 columns, fully zoomed out (one timestamp per column over the
// whole trace).
func Benchmark2DFrame(b *testing.B) { bench2D(b, 60, true, 200) }

// bench2D queries n keys (random, or a random run of consecutive keys) at
// columns times evenly spread over the trace.
func bench2D(b *testing.B, n int, consecutive bool, columns int) {
	benchLayouts(b, func(b *testing.B, a int, l Layout) {
		tr := benchTree(b, a, l)
		r := rand.New(rand.NewPCG(uint64(n), uint64(columns)))
		times := evenTimes(columns, 0, modelT)
		keys := make([]core.Key, n)
		nodes := 0
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			first := r.IntN(a - n)
			for k := range keys {
				if consecutive {
					keys[k] = core.Key(first + k)
				} else {
					keys[k] = core.Key(r.IntN(a))
				}
			}
			st, err := tr.Query2DTimes(bg, keys, times, func(core.Interval) bool { return true })
			if err != nil {
				b.Fatal(err)
			}
			nodes += st.NodesRead
		}
		reportNodes(b, nodes)
	})
}

// BenchmarkOpen opens an index (header, section table, root node) and
// closes it; BenchmarkOpenAttributes also loads the attribute tree.
func BenchmarkOpen(b *testing.B) {
	benchLayouts(b, func(b *testing.B, a int, l Layout) {
		path := benchTree(b, a, l).path
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			tr, err := Open(path, OpenOptions{})
			if err != nil {
				b.Fatal(err)
			}
			tr.Close()
		}
	})
}

func BenchmarkOpenAttributes(b *testing.B) {
	for _, a := range benchSizes {
		b.Run("A="+shortCount(a), func(b *testing.B) {
			path := benchTree(b, a, LayoutRSHT).path
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				tr, err := Open(path, OpenOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := tr.LoadAttributes(); err != nil {
					b.Fatal(err)
				}
				tr.Close()
			}
		})
	}
}

// BenchmarkOpenFirstScreen is what a browser needs for its first screen
// of a freshly opened index: open it, open the attribute tree, count the
// rows, take the first 60 with their names, and query their states at 200
// columns over the whole trace. With the attribute tree read on demand,
// it costs about the same at every A.
func BenchmarkOpenFirstScreen(b *testing.B) {
	for _, a := range benchSizes {
		b.Run("A="+shortCount(a), func(b *testing.B) {
			path := benchTree(b, a, LayoutRSHT).path
			times := evenTimes(200, 0, modelT)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				tr, err := Open(path, OpenOptions{})
				if err != nil {
					b.Fatal(err)
				}
				at, err := tr.LoadAttributes()
				if err != nil {
					b.Fatal(err)
				}
				if at.NumChildren(core.Root) != a {
					b.Fatalf("%d rows, want %d", at.NumChildren(core.Root), a)
				}
				rows := at.ChildRange(core.Root, 0, 60)
				for _, k := range rows {
					_ = at.Name(k)
				}
				if _, err := tr.Query2DTimes(bg, rows, times, func(core.Interval) bool { return true }); err != nil {
					b.Fatal(err)
				}
				tr.Close()
			}
		})
	}
}

// BenchmarkDecodeNode decodes the leaves of an R-SHT built from the model.
func BenchmarkDecodeNode(b *testing.B) {
	tr := benchTree(b, 100_000, LayoutRSHT)
	var blocks [][]byte
	for seq := uint32(0); seq < tr.hdr.nodeCount && len(blocks) < 256; seq++ {
		blk := make([]byte, tr.hdr.blockSize)
		if _, err := tr.f.ReadAt(blk, nodeOffset(seq, tr.hdr.blockSize)); err != nil {
			b.Fatal(err)
		}
		if blk[0] == nodeLeaf {
			blocks = append(blocks, blk)
		}
	}
	b.ResetTimer()
	recs := 0
	for i := 0; i < b.N; i++ {
		n, err := decodeNode(blocks[i%len(blocks)], tr.hdr.maxChildren)
		if err != nil {
			b.Fatal(err)
		}
		recs += n.count
	}
	b.ReportMetric(float64(recs)/float64(b.N), "records/op")
}

// benchKernel is the kernel-like model of the benchmarks: 50 k threads
// (the size of the browser's process tree benchmark), 20 status changes
// each.
var benchKernel = kernelModel{threads: 50_000, changes: 20, seed: 1}

// kernelTreePath builds the kernel-like model once per process, with or
// without attribute classes.
func kernelTreePath(b *testing.B, oneClass bool) string {
	b.Helper()
	return benchFile(b, fmt.Sprintf("kernel-%d-oneclass=%v", benchKernel.threads, oneClass), func(path string) {
		benchKernel.build(b, path, Options{oneClass: oneClass})
	})
}

// BenchmarkKernel runs, on the kernel-like model with and without
// attribute classes, the browser's two kinds of 2D query: PsTree, the
// Exec_name and PPID of every thread over the whole trace (the process
// tree at open: a freshly opened index, nothing cached), and Frame, the
// status of 60 consecutive threads at 200 columns over the whole trace.
func BenchmarkKernel(b *testing.B) {
	for _, one := range []bool{false, true} {
		classes := map[bool]string{false: "classes", true: "oneclass"}[one]
		b.Run("PsTree/"+classes, func(b *testing.B) {
			path := kernelTreePath(b, one)
			tr, err := Open(path, OpenOptions{})
			if err != nil {
				b.Fatal(err)
			}
			keys := psKeys(tr.Attributes())
			info := tr.Info()
			tr.Close()
			nodes := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				tr, err := Open(path, OpenOptions{})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				st, err := tr.Query2D(bg, keys, core.MinTime, core.MaxTime, func(core.Interval) bool { return true })
				if err != nil {
					b.Fatal(err)
				}
				nodes += st.NodesRead
				b.StopTimer()
				tr.Close()
				b.StartTimer()
			}
			reportNodes(b, nodes)
			b.ReportMetric(float64(info.Nodes), "tree-nodes")
			b.ReportMetric(float64(info.FileBytes)/float64(info.Intervals), "bytes/interval")
		})
		b.Run("Frame/"+classes, func(b *testing.B) {
			tr, err := Open(kernelTreePath(b, one), OpenOptions{})
			if err != nil {
				b.Fatal(err)
			}
			defer tr.Close()
			threads, _ := tr.Attributes().Child(core.Root, "Threads")
			rows := tr.Attributes().Children(threads)
			r := rand.New(rand.NewPCG(7, 8))
			times := evenTimes(200, 0, kernelT)
			nodes := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				first := r.IntN(len(rows) - 60)
				st, err := tr.Query2DTimes(bg, rows[first:first+60], times, func(core.Interval) bool { return true })
				if err != nil {
					b.Fatal(err)
				}
				nodes += st.NodesRead
			}
			reportNodes(b, nodes)
		})
	}
}

// BenchmarkAttributePaths reads the path of every key of a stored
// attribute tree (each a few reads of the mapped body, each read guarded
// against the file changing under it): the cost the browser pays per row
// label.
func BenchmarkAttributePaths(b *testing.B) {
	path := benchTree(b, 100_000, LayoutRSHT).path
	tr, err := Open(path, OpenOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	at, err := tr.LoadAttributes()
	if err != nil {
		b.Fatal(err)
	}
	n := at.Len()
	b.ResetTimer()
	for b.Loop() {
		for k := range n {
			_ = at.Path(core.Key(k))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/path")
}
