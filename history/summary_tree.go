package history

import (
	"context"
	"fmt"
	"sync"

	"github.com/tracetui/tracetui/core"
)

// summaryMap is a tree's summary section, mapped and checked on first use.
type summaryMap struct {
	once    sync.Once
	mu      sync.RWMutex // readers hold it while they read the mapping; close takes it
	x       *summaryIndex
	err     error
	release func()
}

var _ core.Summarizer = (*Tree)(nil)

// summaryIndex maps the section and checks its index's checksum and
// structure once; the entries' chunks are checked as they are first read
// (summaryIndex.verify).
func (t *Tree) summaryIndex() (*summaryIndex, error) {
	s := &t.sum
	s.once.Do(func() {
		var sec *section
		for i := range t.secs {
			if t.secs[i].name == SectionSummary {
				sec = &t.secs[i]
			}
		}
		if sec == nil {
			return // no summaries: every key is unserved
		}
		b, release, err := mapFile(t.f, int64(sec.off), int64(sec.size))
		if err != nil {
			s.err = fmt.Errorf("history: %s: map the summary section: %w", t.path, err)
			return
		}
		s.release = release
		if s.x, err = decodeSummaryIndex(b); err != nil {
			s.err = fmt.Errorf("history: %s: %w", t.path, err)
		}
	})
	return s.x, s.err
}

func (s *summaryMap) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.once.Do(func() {}) // never loaded: never will be
	if s.release != nil {
		s.release()
		s.release, s.x = nil, nil
	}
}

// Summary implements [core.Summarizer] from the summary section: no node
// is read, and each served key costs the runs of its level up to t1.
func (t *Tree) Summary(ctx context.Context, keys []core.Key, t0, t1, width core.Time, fn func(core.Key, core.SummaryRun) bool) ([]core.Key, core.QueryStats, error) {
	var st core.QueryStats
	t.sum.mu.RLock()
	defer t.sum.mu.RUnlock()
	if t.closed.Load() {
		return nil, st, fmt.Errorf("history: %s: %w", t.path, ErrTreeClosed)
	}
	if err := t.unchanged(); err != nil {
		return nil, st, err
	}
	x, err := t.summaryIndex()
	if err != nil || x == nil {
		return nil, st, err
	}
	li := core.SummaryLevelFor(x.levels, width)
	t0, t1 = max(t0, x.start), min(t1, x.end)
	if li < 0 || t0 > t1 {
		return nil, st, ctx.Err()
	}
	var served []core.Key
	stopped := false
	for i, key := range keys {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return served, st, err
			}
		}
		e, ok, err := x.entry(key)
		if err != nil {
			return served, st, fmt.Errorf("history: %s: key %d: %w", t.path, key, err)
		}
		if !ok {
			continue
		}
		runs, at, err := x.level(e, li)
		if err != nil {
			return served, st, fmt.Errorf("history: %s: key %d: %w", t.path, key, err)
		}
		served = append(served, key)
		n, err := x.readRuns(runs, x.levels[at], t0, t1, func(r core.SummaryRun) bool {
			stopped = !fn(key, r)
			return !stopped
		})
		st.Intervals += n
		if err != nil {
			return served, st, fmt.Errorf("history: %s: key %d: %w", t.path, key, err)
		}
		if stopped {
			break
		}
	}
	return served, st, nil
}
