package index

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/history"
)

// A damaged node is only seen when a query reads it: opening checks the
// header, not every node (that is `info --check`). Queries go through
// guardedHistory, which on such an error marks the index bad so that the
// next open rebuilds it, and says so (issue 18: the browser and `query`
// failed on every run, never rebuilding).

// ErrDamaged is returned (wrapping the history's error) by a query that
// met a damaged index.
var ErrDamaged = errors.New("the index is damaged")

// damage is what an Index knows to mark itself bad.
type damage struct {
	path    string
	trace   string
	inCache bool        // in the cache directory: removed, rebuilt on the next open
	file    os.FileInfo // the file opened, so a newer index at path is not removed
	once    sync.Once
	err     error
}

// newDamage records the index at path as opened now.
func newDamage(path, trace string, inCache bool) *damage {
	st, _ := os.Stat(path)
	return &damage{path: path, trace: trace, inCache: inCache, file: st}
}

// check returns err, or when err says the file is damaged, the error
// that says how it is rebuilt (marking a cache index bad the first time).
func (d *damage) check(err error) error {
	if err == nil || !(errors.Is(err, history.ErrCorrupt) || errors.Is(err, history.ErrTruncated)) {
		return err
	}
	d.once.Do(func() {
		if !d.inCache {
			d.err = fmt.Errorf("%w: %s (%w): rebuild it with 'tracetui index --index %s %s'", ErrDamaged, d.path, err, d.path, d.trace)
			return
		}
		// Removed (this process keeps reading its open file), only if
		// it is still the file opened: another process may have put a
		// new index there meanwhile.
		if st, serr := os.Stat(d.path); serr == nil && d.file != nil && os.SameFile(st, d.file) {
			os.Remove(d.path)
		}
		d.err = fmt.Errorf("%w: %s (%w): it was removed, open the trace again to rebuild it", ErrDamaged, d.path, err)
	})
	return d.err
}

// guardedHistory is the index's history as its users see it: every
// method of the interfaces it offers (core.History, core.Summarizer) is
// written out, so that a method added to the tree is not reachable
// unguarded by embedding; every query's error goes through damage.check.
type guardedHistory struct {
	tree *history.Tree
	d    *damage
}

// The interfaces the opened history offers, all guarded.
var (
	_ core.History    = guardedHistory{}
	_ core.Summarizer = guardedHistory{}
)

func (g guardedHistory) Attributes() *core.AttributeTree { return g.tree.Attributes() }

// Section returns a named section of the index (history.Tree.Section):
// stats.Compute reads the whole trace's report from it.
func (g guardedHistory) Section(name string) (*io.SectionReader, error) {
	return g.tree.Section(name)
}

func (g guardedHistory) Bounds() (start, end core.Time) { return g.tree.Bounds() }

// IntervalCount tells readers of every state how many intervals there are.
func (g guardedHistory) IntervalCount() int64 { return g.tree.IntervalCount() }

func (g guardedHistory) Single(ctx context.Context, key core.Key, t core.Time) (core.Interval, core.QueryStats, error) {
	iv, st, err := g.tree.Single(ctx, key, t)
	return iv, st, g.d.check(err)
}

func (g guardedHistory) Full(ctx context.Context, t core.Time, fn func(core.Interval) bool) (core.QueryStats, error) {
	st, err := g.tree.Full(ctx, t, fn)
	return st, g.d.check(err)
}

func (g guardedHistory) Query2D(ctx context.Context, keys []core.Key, t0, t1 core.Time, fn func(core.Interval) bool) (core.QueryStats, error) {
	st, err := g.tree.Query2D(ctx, keys, t0, t1, fn)
	return st, g.d.check(err)
}

func (g guardedHistory) Query2DTimes(ctx context.Context, keys []core.Key, times []core.Time, fn func(core.Interval) bool) (core.QueryStats, error) {
	st, err := g.tree.Query2DTimes(ctx, keys, times, fn)
	return st, g.d.check(err)
}

func (g guardedHistory) Summary(ctx context.Context, keys []core.Key, t0, t1, width core.Time, fn func(core.Key, core.SummaryRun) bool) ([]core.Key, core.QueryStats, error) {
	served, st, err := g.tree.Summary(ctx, keys, t0, t1, width, fn)
	return served, st, g.d.check(err)
}
