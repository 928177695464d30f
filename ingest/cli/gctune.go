package cli

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// gcRegime is how much the heap may grow between two collections: by
// percent of the live heap, or by headroom bytes, whichever is more.
type gcRegime struct {
	percent  int
	headroom uint64
	// most caps the growth in bytes (0: no cap), at 1% at least.
	most uint64
}

// buildGC is the regime of everything but the browser. An index build's
// memory is a few big arrays per attribute (current states, the attribute
// tree, the analyses' per-thread records), pointer-free, so a collection
// costs little however large they are: at Go's default of 100% the heap
// peaks at twice that data for nothing; at 25% the build of `gen
// --threads 1600000` stays under 1 GB, for a few percent more CPU.
//
// A small build allocates its metadata, plans and buffers in a heap of a
// few MB, where 25% growth ran a collection every megabyte (13 while
// indexing bug446190's 31 k events, none with the headroom). Above 64 MB
// of live heap, the percent governs alone. 32 MB of headroom ran fewer
// collections still on a 16 000-thread generated trace (2 instead of 5,
// 17 at 25%) but touched 2 000 more fresh pages, which cost as much on
// this VM; at 16 MB its peak RSS is that of 25% (78 MB).
//
// Above 384 MB of live heap the growth is capped at 96 MB: at 25% the
// peak RSS of `gen --threads 1600000` (800 MB live at the end of its
// events) depended on where the collections fell, 909 to 1 013 MB over
// eight builds; capped, 909.9 to 910.1 MB over three, in the same time.
var buildGC = gcRegime{percent: 25, headroom: 16 << 20, most: 96 << 20}

// browseGC is the browser's regime, once its trace is open: Go's default
// percent with 8 MB of headroom. Its heap is small (rows and attribute
// tree are read from the index file) and every frame allocates. At 25%,
// a collection ran every frame or two and the first frame of the real
// capture bigbuild.txt took 39 to 51 ms instead of 28 to 30. At 100%
// alone the process's first collection ran in the first frame (a 4 MB
// goal), 3 to 5 ms there on this VM, where the collector's own metadata
// is fresh memory; 8 MB puts it after. 64 MB of headroom ran no
// collection over the demo's `bench frames` script instead of 7, but its
// median frame went from 1.0 to 1.9 ms: fresh pages for every frame cost
// more here than the collections that recycle warm ones.
var browseGC = gcRegime{percent: 100, headroom: 8 << 20}

// queryGC is the regime of `diff` once its indexes are open: Go's
// default percent. Its heap is the rows of every thread's states read
// from the two indexes (millions of intervals, with pointers), garbage
// batch after batch. A diff of two 1.4 M-event generated captures took
// 3.8 s user + 0.4 s system CPU at 25%, 2.1 to 2.4 + 0.6 to 0.9 at 100%,
// for a peak RSS of 950 to 1 050 MB instead of 640 to 670 (load 7 to 8
// on two cores).
var queryGC = gcRegime{percent: 100, headroom: 16 << 20}

// liveHeapMetric is the runtime's count of the heap bytes the last
// collection marked live.
const liveHeapMetric = "/gc/heap/live:bytes"

// gcTuner keeps the process's GC percent, unless $GOGC is set, at what
// lets the heap grow as its regime says, re-computed after every
// collection from a cleanup on an object that the collection found
// unreachable.
type gcTuner struct {
	off     bool // $GOGC is set: the tuner does nothing
	regime  atomic.Pointer[gcRegime]
	stopped atomic.Bool
}

// startGCTuner starts tuning in the build regime.
func startGCTuner() *gcTuner {
	t := &gcTuner{off: os.Getenv("GOGC") != ""}
	t.regime.Store(&buildGC)
	if !t.off {
		t.apply()
		t.arm()
	}
	return t
}

// stop ends the tuning (the next collection's cleanup does nothing).
func (t *gcTuner) stop() { t.stopped.Store(true) }

// use switches to regime r at once.
func (t *gcTuner) use(r *gcRegime) {
	t.regime.Store(r)
	if !t.off {
		t.apply()
	}
}

// gcSentinel is allocated per collection for its cleanup; large enough
// not to share a tiny-allocator block that something else keeps alive.
type gcSentinel struct{ _ [32]byte }

func (t *gcTuner) arm() {
	runtime.AddCleanup(new(gcSentinel), func(t *gcTuner) { t.collected() }, t)
}

// collected runs on the cleanup goroutine after a collection.
func (t *gcTuner) collected() {
	if t.stopped.Load() {
		return
	}
	t.apply()
	t.arm()
}

// apply sets the percent for the live heap the last collection found.
func (t *gcTuner) apply() {
	s := []metrics.Sample{{Name: liveHeapMetric}}
	metrics.Read(s)
	var live uint64
	if s[0].Value.Kind() == metrics.KindUint64 {
		live = s[0].Value.Uint64()
	}
	debug.SetGCPercent(t.regime.Load().percentFor(live))
}

// percentFor returns the GC percent for a live heap of live bytes: the
// growth of the headroom, at least the percent. Before the first
// collection (live 0) the runtime counts a 4 MB heap.
func (r *gcRegime) percentFor(live uint64) int {
	const minHeap = 4 << 20
	live = max(live, minHeap)
	p := max(r.percent, int(r.headroom*100/live))
	if r.most > 0 {
		p = max(1, min(p, int(r.most*100/live)))
	}
	return p
}

// Reclaim is the command line's answer to a build's Reclaim call (see
// index.Options.Reclaim): a collection, or one that also gives the freed
// pages back to the system. Process-wide memory calls are made here only.
func Reclaim(returnToOS bool) {
	if returnToOS {
		debug.FreeOSMemory()
		return
	}
	runtime.GC()
}
