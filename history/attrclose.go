package history

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// bodyGuard lets Close unmap an attribute tree's body while queries may
// be reading it: every method that reads the body enters the guard
// first, and the body is unmapped once closed and no reader is inside.
// Without it the mapping lived until the garbage collector found the
// store unreachable, and a read racing Close could fault (SIGBUS).
type bodyGuard struct {
	active  atomic.Int64 // readers inside
	closed  atomic.Bool
	drained chan struct{} // closed when the last reader leaves after close
	once    sync.Once
	release func() // unmaps the body; nil when nothing is mapped
}

// enter reports whether the body may be read; if so, the caller must call
// leave when done. Readers nest (EachChild's callback may read again).
func (s *attrStore) enter() bool {
	s.guard.active.Add(1)
	if s.guard.closed.Load() {
		s.leave()
		return false
	}
	return true
}

// leave ends a read started by a successful enter.
func (s *attrStore) leave() {
	if s.guard.active.Add(-1) == 0 && s.guard.closed.Load() {
		s.guard.once.Do(func() { close(s.guard.drained) })
	}
}

// close makes every later read answer as absent (Err then reports
// ErrTreeClosed), waits for the readers inside, and unmaps the body.
// Idempotent.
func (s *attrStore) close() {
	if s.guard.closed.Swap(true) {
		return
	}
	err := fmt.Errorf("history: %s: attribute tree: %w", s.path, ErrTreeClosed)
	s.err.CompareAndSwap(nil, &err)
	if s.guard.active.Load() != 0 {
		<-s.guard.drained
	}
	if s.guard.release != nil {
		s.guard.release()
	}
	s.body = nil
}
