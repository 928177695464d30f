package history

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// TestScratchAndCacheAgree is the read path's property test: over random
// trees whose nodes have more children than a window and more nodes than
// a walk caches, the same random 2D queries asked again and again (the
// cache warming up between them, so that a node is read once through a
// scratch node and later from the cache) answer like the reference,
// read the same number of nodes, and hand out intervals in the same order
// every time; and the strings returned by the first answer are still
// intact at the end (a scratch node's block is reused).
func TestScratchAndCacheAgree(t *testing.T) {
	r := coretest.Rand(t)
	s := randomScenario(r, 3000+r.IntN(9000), []int{40, 400}[r.IntN(2)])
	mem := core.NewMemHistory(s.start)
	s.replay(t, mem)
	o := Options{BlockSize: 2048, MaxChildren: []int{9, 12, 17}[r.IntN(3)], Layout: []Layout{LayoutRSHT, LayoutESHT, LayoutSHT}[r.IntN(3)]}
	cache := []int64{-1, 16 * 8_000, 0}[r.IntN(3)] // none, a few nodes per shard, the default
	tr := openChecked(t, buildScenario(t, s, o), OpenOptions{CacheBytes: cache})
	t.Logf("%s, %d nodes, c=%d, cache %d bytes", o.Layout, tr.Info().Nodes, o.MaxChildren, cache)
	start, end := mem.Bounds()
	keys := allKeys(mem)
	type query struct {
		ks     []core.Key
		t0, t1 core.Time
		times  []core.Time
	}
	qs := make([]query, 12)
	for i := range qs {
		lo := r.IntN(len(keys))
		q := query{ks: keys[lo:min(len(keys), lo+1+r.IntN(len(keys)))]}
		q.t0 = start + core.Time(r.Int64N(int64(end-start)+1))
		q.t1 = q.t0 + core.Time(r.Int64N(int64(end-q.t0)+1))
		if r.IntN(2) == 0 {
			q.times = make([]core.Time, 1+r.IntN(200))
			for j := range q.times {
				q.times[j] = start + core.Time(r.Int64N(int64(end-start)+1))
			}
		}
		qs[i] = q
	}
	ask := func(h core.History, q query, fn func(core.Interval) bool) (core.QueryStats, error) {
		if q.times != nil {
			return h.Query2DTimes(bg, q.ks, q.times, fn)
		}
		return h.Query2D(bg, q.ks, q.t0, q.t1, fn)
	}
	first := make([][]core.Interval, len(qs))
	nodes := make([]int, len(qs))
	for round := range 4 {
		for i, q := range qs {
			var got []core.Interval
			st, err := ask(tr, q, func(iv core.Interval) bool { got = append(got, iv); return true })
			if err != nil {
				t.Fatal(err)
			}
			if round == 0 {
				first[i], nodes[i] = got, st.NodesRead
				want := collect(t, func(fn func(core.Interval) bool) (core.QueryStats, error) { return ask(mem, q, fn) })
				sorted := slices.Clone(got)
				core.SortIntervals(sorted)
				if !slices.Equal(sorted, want) {
					t.Fatalf("query %d: %d intervals, want %d\n%v\n%v", i, len(sorted), len(want), head(sorted), head(want))
				}
				continue
			}
			if st.NodesRead != nodes[i] || !slices.Equal(got, first[i]) {
				t.Fatalf("query %d, round %d: %d intervals from %d nodes, first round %d from %d, or another order",
					i, round, len(got), st.NodesRead, len(first[i]), nodes[i])
			}
		}
	}
	for i, q := range qs { // the first answers' strings, after every later walk reused the scratch nodes
		want := collect(t, func(fn func(core.Interval) bool) (core.QueryStats, error) { return ask(mem, q, fn) })
		got := slices.Clone(first[i])
		core.SortIntervals(got)
		if !slices.Equal(got, want) {
			t.Fatalf("query %d: the first answer changed after later queries", i)
		}
	}
}

// TestWalkCacheBudget: a walk adds at most cacheNodes nodes to the cache,
// the cache stays within its budget with its accounting exact, and a
// query that reads far more nodes than that does not flush the nodes a
// frame keeps cached.
func TestWalkCacheBudget(t *testing.T) {
	r := coretest.Rand(t)
	m := kernelModel{threads: 3000, changes: 6, seed: r.Uint64()}
	path := filepath.Join(t.TempDir(), "index")
	m.build(t, path, Options{BlockSize: 2048, MaxChildren: 16})
	tr := openChecked(t, path, OpenOptions{})
	frame := func() core.QueryStats { // 60 rows over a tenth of the trace
		lo := core.Key(tr.Attributes().Len() / 2)
		ks := make([]core.Key, 60)
		for i := range ks {
			ks[i] = lo + core.Key(i)
		}
		st, err := tr.Query2D(bg, ks, kernelT/2, kernelT/2+kernelT/10, func(core.Interval) bool { return true })
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	before := cachedSeqs(tr.cache)
	for range 100 { // until the frame is cached whole
		st := frame()
		after := cachedSeqs(tr.cache)
		if added := len(after) - len(before); added > cacheNodes {
			t.Fatalf("a walk of %d nodes added %d nodes to the cache, want at most %d", st.NodesRead, added, cacheNodes)
		}
		checkCacheAccounting(t, tr.cache)
		if len(after) == len(before) {
			break
		}
		before = after
	}
	kept := cachedSeqs(tr.cache)
	if len(kept) == 0 {
		t.Fatal("nothing cached after the frames")
	}
	st, err := tr.Query2D(bg, allKeys(tr), core.MinTime, core.MaxTime, func(core.Interval) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if st.NodesRead <= 4*cacheNodes {
		t.Fatalf("the large query read %d nodes: too few to test anything", st.NodesRead)
	}
	after := cachedSeqs(tr.cache)
	if n := len(after) - len(kept); n > cacheNodes {
		t.Fatalf("a query of %d nodes added %d nodes to the cache, want at most %d", st.NodesRead, n, cacheNodes)
	}
	for seq := range kept {
		if !after[seq] {
			t.Fatalf("node %d of the frame was evicted by a large query though the cache had room", seq)
		}
	}
	checkCacheAccounting(t, tr.cache)
	if st := frame(); st.NodesRead == 0 {
		t.Fatal("the frame read nothing")
	}
	if got := cachedSeqs(tr.cache); len(got) != len(after) {
		t.Fatalf("the frame, cached whole before, added %d nodes", len(got)-len(after))
	}
}

// TestCacheEvictsWithinBudget: with a cache smaller than a frame, walks
// evict the least recently used nodes and the cache never holds more than
// its budget.
func TestCacheEvictsWithinBudget(t *testing.T) {
	r := coretest.Rand(t)
	m := kernelModel{threads: 2000, changes: 6, seed: r.Uint64()}
	path := filepath.Join(t.TempDir(), "index")
	m.build(t, path, Options{BlockSize: 2048, MaxChildren: 16})
	tr := openChecked(t, path, OpenOptions{CacheBytes: 16 * 30_000}) // a few nodes per shard
	all := allKeys(tr)
	for i := range 20 {
		lo := r.IntN(len(all))
		ks := all[lo:min(len(all), lo+1+r.IntN(200))]
		if _, err := tr.Query2D(bg, ks, core.MinTime, core.MaxTime, func(core.Interval) bool { return true }); err != nil {
			t.Fatalf("query %d: %v", i, err)
		}
		checkCacheAccounting(t, tr.cache)
	}
}

// cachedSeqs lists the nodes in c.
func cachedSeqs(c *nodeCache) map[uint32]bool {
	seqs := map[uint32]bool{}
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		for seq := range s.index {
			seqs[seq] = true
		}
		s.mu.Unlock()
	}
	return seqs
}

// checkCacheAccounting fails unless every shard's used bytes are the sum
// of its nodes' sizes and within its limit.
func checkCacheAccounting(t *testing.T, c *nodeCache) {
	t.Helper()
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		var sum int64
		for e := s.lru.Front(); e != nil; e = e.Next() {
			sum += e.Value.(*node).memSize()
		}
		used, limit, n := s.used, s.limit, len(s.index)
		s.mu.Unlock()
		if used != sum || used > limit || n != s.lru.Len() {
			t.Fatalf("shard %d: %d bytes used, its %d nodes hold %d, limit %d", i, used, n, sum, limit)
		}
	}
}
