package history

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// TestLargeQueries: queries that read more than cacheNodes nodes (their
// further nodes go through the walk's scratch nodes) and ask for more
// than 4096 keys (sorted through a bitmap) answer like the reference, and
// the strings they returned stay intact after later queries reuse the
// scratch node.
func TestLargeQueries(t *testing.T) {
	r := coretest.Rand(t)
	m := kernelModel{threads: 3000, changes: 6, seed: r.Uint64()}
	mem := core.NewMemHistory(0)
	if err := m.feed(mem); err != nil {
		t.Fatal(err)
	}
	if err := mem.Close(kernelT); err != nil {
		t.Fatal(err)
	}
	ps := psKeys(mem.Attributes())
	if len(ps) < 2048 {
		t.Fatalf("%d process tree keys: the model is too small for the bitmap sort", len(ps))
	}
	for _, o := range []Options{
		{BlockSize: 2048, MaxChildren: 4},
		{BlockSize: 2048, MaxChildren: 8, oneClass: true},
		{Layout: LayoutESHT, BlockSize: 2048, MaxChildren: 8},
	} {
		t.Run(fmt.Sprintf("%s/c=%d/oneClass=%v", o.Layout, o.MaxChildren, o.oneClass), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "index")
			m.build(t, path, o)
			tr := openChecked(t, path, OpenOptions{CacheBytes: []int64{-1, 1 << 20}[r.IntN(2)]}) // caches that fill: the scratch node
			var first []core.Interval
			st, err := tr.Query2D(bg, ps, core.MinTime, core.MaxTime, func(iv core.Interval) bool { first = append(first, iv); return true })
			if err != nil {
				t.Fatal(err)
			}
			if st.NodesRead <= 2*cacheNodes {
				t.Fatalf("the query read %d nodes: too few to reach the scratch node", st.NodesRead)
			}
			want := collect(t, func(fn func(core.Interval) bool) (core.QueryStats, error) {
				return mem.Query2D(bg, ps, core.MinTime, core.MaxTime, fn)
			})
			all := allKeys(mem)
			for range 3 { // reuse the pooled walk and its scratch node
				got := collect(t, func(fn func(core.Interval) bool) (core.QueryStats, error) {
					return tr.Query2D(bg, all, core.MinTime, core.MaxTime, fn)
				})
				if !slices.Equal(got, mem.Intervals()) {
					t.Fatalf("all keys: %d intervals, want %d", len(got), len(mem.Intervals()))
				}
				at := core.Time(r.Int64N(kernelT + 1))
				got = collect(t, func(fn func(core.Interval) bool) (core.QueryStats, error) { return tr.Full(bg, at, fn) })
				if wantFull := collect(t, func(fn func(core.Interval) bool) (core.QueryStats, error) { return mem.Full(bg, at, fn) }); !slices.Equal(got, wantFull) {
					t.Fatalf("Full(%d): %d intervals, want %d", at, len(got), len(wantFull))
				}
			}
			core.SortIntervals(first)
			if !slices.Equal(first, want) {
				t.Fatalf("process tree query: %d intervals, want %d (or its strings changed after later queries)", len(first), len(want))
			}
		})
	}
}

// TestClassPruning: on a kernel-like trace, the process tree's query
// (every thread's Exec_name and PPID) reads a fraction of the nodes, where
// without classes it reads most of them.
func TestClassPruning(t *testing.T) {
	m := kernelModel{threads: 3000, changes: 10, seed: 1}
	nodes := map[bool]int{}
	for _, one := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "index")
		m.build(t, path, Options{oneClass: one})
		tr := openChecked(t, path, OpenOptions{})
		st, err := tr.Query2D(bg, psKeys(tr.Attributes()), core.MinTime, core.MaxTime, func(core.Interval) bool { return true })
		if err != nil {
			t.Fatal(err)
		}
		nodes[one] = st.NodesRead
		t.Logf("oneClass=%v: %d of %d nodes read, %d intervals", one, st.NodesRead, tr.Info().Nodes, st.Intervals)
	}
	if nodes[false]*3 > nodes[true] {
		t.Errorf("with classes the query read %d nodes, without %d: want at most a third", nodes[false], nodes[true])
	}
}
