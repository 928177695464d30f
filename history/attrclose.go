package history

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// bodyGuard lets Close unmap a mapped region (the attribute tree's body)
// while queries may be reading it: every method that reads the region
// enters the guard first, and the region is unmapped once the guard is
// shut and no reader is inside. Without it the mapping lived until the
// garbage collector found its owner unreachable.
type bodyGuard struct {
	active  atomic.Int64 // readers inside
	closed  atomic.Bool
	drained chan struct{} // closed when the last reader leaves after shut
	once    sync.Once
	release func() // unmaps the region; nil when nothing is mapped
}

// newBodyGuard guards a region that release unmaps (nil: nothing to
// unmap, the region was read into memory).
func newBodyGuard(release func()) bodyGuard {
	return bodyGuard{drained: make(chan struct{}), release: release}
}

// enter reports whether the region may be read; if so, the caller must
// call leave when done. Readers nest (EachChild's callback may read
// again).
func (g *bodyGuard) enter() bool {
	g.active.Add(1)
	if g.closed.Load() {
		g.leave()
		return false
	}
	return true
}

// leave ends a read started by a successful enter.
func (g *bodyGuard) leave() {
	if g.active.Add(-1) == 0 && g.closed.Load() {
		g.once.Do(func() { close(g.drained) })
	}
}

// shut makes every later enter fail, waits for the readers inside, and
// unmaps the region. It reports false when it was already shut.
func (g *bodyGuard) shut() bool {
	if g.closed.Swap(true) {
		return false
	}
	if g.active.Load() != 0 {
		<-g.drained
	}
	if g.release != nil {
		g.release()
	}
	return true
}

// close makes every later read of the attribute tree answer as absent
// (Err then reports ErrTreeClosed), waits for the reads in progress, and
// unmaps the body. Idempotent.
func (s *attrStore) close() {
	err := fmt.Errorf("history: %s: attribute tree: %w", s.path, ErrTreeClosed)
	s.err.CompareAndSwap(nil, &err)
	s.guard.shut()
}
