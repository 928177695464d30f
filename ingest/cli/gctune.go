package cli

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// gcPercent is the least heap growth between collections that tracetui
// runs with, unless $GOGC says otherwise. An index build's memory is a few
// big arrays per attribute (current states, the attribute tree, the
// analyses' per-thread records), pointer-free, so a collection costs
// little however large they are: at Go's default of 100 the heap peaks at
// twice that data for nothing; at 25 the build of `gen --threads 1600000`
// stays under 1 GB, for a few percent more CPU.
const gcPercent = 25

// gcHeadroom is the least the heap grows between collections: a small
// build allocates its metadata, plans and buffers in a heap of a few MB,
// where 25% growth ran a collection every megabyte (13 collections while
// indexing bug446190's 31 k events, none now). Above
// gcHeadroom*100/gcPercent (64 MB) of live heap, gcPercent governs alone.
// 32 MB ran fewer collections still on a 16 000-thread generated trace (2
// instead of 5, 17 at 25%) but touched 2 000 more fresh pages, which cost
// as much on this VM; at 16 MB its peak RSS is that of 25% (78 MB).
const gcHeadroom = 16 << 20

// liveHeapMetric is the runtime's count of the heap bytes the last
// collection marked live.
const liveHeapMetric = "/gc/heap/live:bytes"

// tuneGC keeps the process's GC percent, when $GOGC is unset, at what
// lets the heap grow by gcHeadroom or by gcPercent, whichever is more,
// re-computed after every collection. It returns the function that stops
// it. It also stops when the percent was set by someone else (the
// browser's [BrowsingGC]).
func tuneGC() (stop func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	t := &gcTuner{set: gcPercentFor(0)}
	debug.SetGCPercent(t.set)
	t.arm()
	return func() { t.stopped.Store(true) }
}

// gcTuner re-sets the GC percent after each collection, from a cleanup
// on an object that the collection found unreachable.
type gcTuner struct {
	set     int // the percent last set
	stopped atomic.Bool
	sample  [1]metrics.Sample
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
	t.sample[0].Name = liveHeapMetric
	metrics.Read(t.sample[:])
	var live uint64
	if t.sample[0].Value.Kind() == metrics.KindUint64 {
		live = t.sample[0].Value.Uint64()
	}
	p := gcPercentFor(live)
	if prev := debug.SetGCPercent(p); prev != t.set {
		debug.SetGCPercent(prev) // set by someone else since: theirs stands
		return
	}
	t.set = p
	t.arm()
}

// gcPercentFor returns the GC percent for a live heap of live bytes: the
// growth of gcHeadroom, at least gcPercent. Before the first collection
// (live 0) the runtime counts a 4 MB heap.
func gcPercentFor(live uint64) int {
	const minHeap = 4 << 20
	live = max(live, minHeap)
	return max(gcPercent, int(gcHeadroom*100/live))
}
