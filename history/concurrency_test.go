package history

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// TestConcurrentQueries runs queries from many goroutines on one tree
// with a cache too small to hold it (so nodes are evicted and reloaded
// under the readers' feet) and checks every answer; CI runs it with -race.
func TestConcurrentQueries(t *testing.T) {
	r := coretest.Rand(t)
	s := randomScenario(r, 8000, 200)
	mem := core.NewMemHistory(s.start)
	s.replay(t, mem)
	tr := openChecked(t, buildScenario(t, s, Options{BlockSize: 2048, MaxChildren: 4}), OpenOptions{CacheBytes: 16 * 20_000})
	start, end := mem.Bounds()
	keys := allKeys(mem)
	if st, err := tr.Query2D(bg, keys, start, end, func(core.Interval) bool { return true }); err != nil || st.NodesRead <= 2*cacheNodes {
		t.Fatalf("a query of every key read %d nodes (%v): too few for the scratch node", st.NodesRead, err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		seed := r.Uint64()
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(seed, uint64(g)))
			for i := range 60 {
				if i%10 == 0 { // a large query: scratch nodes, second readings
					var all []core.Interval
					tr.Query2D(bg, keys, start, end, func(iv core.Interval) bool { all = append(all, iv); return true })
					core.SortIntervals(all)
					if !slices.Equal(all, mem.Intervals()) {
						errs <- "Query2D of every key differs"
						return
					}
				}
				at := start + core.Time(r.Int64N(int64(end-start)+1))
				k := keys[r.IntN(len(keys))]
				got, _, err1 := tr.Single(bg, k, at)
				want, _, err2 := mem.Single(bg, k, at)
				if got != want || (err1 == nil) != (err2 == nil) {
					errs <- "Single differs"
					return
				}
				ks := keys[r.IntN(len(keys)/2):]
				ks = ks[:min(len(ks), 30)]
				t1 := at + core.Time(r.IntN(10000))
				var a, b []core.Interval
				tr.Query2D(bg, ks, at, t1, func(iv core.Interval) bool { a = append(a, iv); return true })
				mem.Query2D(bg, ks, at, t1, func(iv core.Interval) bool { b = append(b, iv); return true })
				core.SortIntervals(a)
				core.SortIntervals(b)
				if !slices.Equal(a, b) {
					errs <- "Query2D differs"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestNodeCacheBound: the cache never holds more than its budget, and
// keeps the most recently used nodes.
func TestNodeCacheBound(t *testing.T) {
	c := newNodeCache(16 * 10_000)
	mk := func(seq uint32) *node {
		return &node{nodeHeader: nodeHeader{seq: seq}, raw: make([]byte, 3000)}
	}
	for seq := range uint32(1000) {
		c.put(mk(seq))
		if c.get(seq) == nil {
			t.Fatalf("node %d not cached right after put", seq)
		}
	}
	for i := range c.shards {
		if s := &c.shards[i]; s.used > s.limit || s.used != int64(s.lru.Len())*mk(0).memSize() {
			t.Fatalf("shard %d uses %d of %d bytes for %d nodes", i, s.used, s.limit, s.lru.Len())
		}
	}
	if c.get(0) != nil || c.get(999) == nil {
		t.Error("the cache kept an old node or dropped the newest")
	}
	if newNodeCache(-1).get(1) != nil {
		t.Error("a disabled cache returned a node")
	}
}
