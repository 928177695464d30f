package history

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/tracetui/tracetui/core"
)

// errStop ends a traversal when the callback returns false.
var errStop = errors.New("stop")

// walk holds the state of one query: the context, the stats, the
// callback. Every query visits a node at most once: the tree is walked
// from the root, each child reached only through its parent's entry.
type walk struct {
	t       *Tree
	ctx     context.Context
	st      core.QueryStats
	fn      func(core.Interval) bool
	batches []*batch // children being visited, per depth (scan.go)
	cached  int      // nodes this walk added to the cache (scan.go)
}

func (t *Tree) newWalk(ctx context.Context, fn func(core.Interval) bool) (*walk, error) {
	if t.closed.Load() {
		return nil, ErrTreeClosed
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := t.unchanged(); err != nil {
		return nil, err
	}
	var w *walk
	select {
	case w = <-t.walks:
	default:
		w = &walk{t: t}
	}
	w.ctx, w.fn, w.st, w.cached = ctx, fn, core.QueryStats{}, 0
	return w, nil
}

// release returns w, and the buffers it grew, to the tree's pool, or
// drops it when the pool is full.
func (w *walk) release() {
	w.ctx, w.fn = nil, nil
	select {
	case w.t.walks <- w:
	default:
	}
}

// enter accounts for a visit of n at depth (the root is 1).
func (w *walk) enter(n *node, depth int) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	if depth > int(w.t.hdr.depth) {
		return fmt.Errorf("%w: node %d at depth %d, header says %d levels", ErrCorrupt, n.seq, depth, w.t.hdr.depth)
	}
	w.st.NodesRead++
	return nil
}

func (w *walk) emit(n *node, i int) error {
	w.st.Intervals++
	if !w.fn(n.interval(i)) {
		return errStop
	}
	return nil
}

// done maps the traversal's end to the query's result.
func (w *walk) done(err error) (core.QueryStats, error) {
	if err == errStop {
		err = nil
	}
	return w.st, err
}

// Single implements [core.History]. A key outside the attribute tree gives
// an error matching both core.ErrNoState and core.ErrBadKey.
func (t *Tree) Single(ctx context.Context, key core.Key, at core.Time) (core.Interval, core.QueryStats, error) {
	var found core.Interval
	w, err := t.newWalk(ctx, func(iv core.Interval) bool { found = iv; return false })
	if err != nil {
		return found, core.QueryStats{}, err
	}
	defer w.release()
	switch {
	case key < 0 || int64(key) >= int64(t.hdr.attrCount):
		return found, w.st, fmt.Errorf("%w: %w: key %d", core.ErrNoState, core.ErrBadKey, key)
	case at < t.hdr.start || at > t.hdr.end:
		return found, w.st, fmt.Errorf("%w: key %d at %d, outside [%d, %d]", core.ErrNoState, key, at, t.hdr.start, t.hdr.end)
	}
	of, err := t.loadClasses()
	if err != nil {
		return found, w.st, err
	}
	err = w.single(t.root, key, of.of(key), at, 1)
	if err == errStop {
		return found, w.st, nil
	}
	if err == nil {
		err = fmt.Errorf("%w: key %d at %d", core.ErrNoState, key, at)
	}
	return found, w.st, err
}

func (w *walk) single(n *node, key core.Key, class uint16, at core.Time, depth int) error {
	if err := w.enter(n, depth); err != nil {
		return err
	}
	if i := n.find(key, at); i >= 0 {
		return w.emit(n, i)
	}
	for _, c := range n.children {
		if c.start <= at && at <= c.end && c.minKey <= key && key <= c.maxKey && c.minClass <= class && class <= c.maxClass {
			ch, err := w.t.child(n, c)
			if err != nil {
				return err
			}
			if err := w.single(ch, key, class, at, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// find returns the index of the record of key containing at, or -1.
func (n *node) find(key core.Key, at core.Time) int {
	k := int32(key)
	if n.flags&flagSortedByKey != 0 {
		i, _ := slices.BinarySearch(n.keys, k)
		for ; i < len(n.keys) && n.keys[i] == k; i++ {
			if n.starts[i] <= int64(at) && int64(at) <= n.ends[i] {
				return i
			}
		}
		return -1
	}
	for i, nk := range n.keys {
		if nk == k && n.starts[i] <= int64(at) && int64(at) <= n.ends[i] {
			return i
		}
	}
	return -1
}

// Full implements [core.History].
func (t *Tree) Full(ctx context.Context, at core.Time, fn func(core.Interval) bool) (core.QueryStats, error) {
	w, err := t.newWalk(ctx, fn)
	if err != nil {
		return core.QueryStats{}, err
	}
	defer w.release()
	if at < t.hdr.start || at > t.hdr.end {
		return w.st, nil
	}
	return w.done(w.full(t.root, int64(at), 1))
}

func (w *walk) full(n *node, at int64, depth int) error {
	if err := w.enter(n, depth); err != nil {
		return err
	}
	for i := range n.keys {
		if n.starts[i] <= at && at <= n.ends[i] {
			if err := w.emit(n, i); err != nil {
				return err
			}
		}
	}
	if len(n.children) == 0 {
		return nil
	}
	b := w.batch(depth)
	for _, c := range n.children {
		if int64(c.start) <= at && at <= int64(c.end) && c.minKey <= c.maxKey {
			b.visit = append(b.visit, c)
		}
	}
	return w.visit(n, b, func(_ int, ch *node) error { return w.full(ch, at, depth+1) })
}

// keyList is the sorted, de-duplicated key list of a 2D query, narrowed
// to a node's key range at each step with binary searches.
type keyList []core.Key

// sortedKeys returns the keys of the tree among keys, sorted and
// de-duplicated (keys outside [0, attrs) match nothing and are dropped).
// A long list (the process tree asks for every thread's Exec_name and
// PPID) is sorted through a bitmap of the attributes, in linear time.
func sortedKeys(keys []core.Key, attrs uint32) keyList {
	if len(keys) < 4096 || uint64(attrs) > 64*uint64(len(keys)) {
		ks := slices.DeleteFunc(slices.Clone(keys), func(k core.Key) bool { return k < 0 || int64(k) >= int64(attrs) })
		slices.Sort(ks)
		return slices.Compact(ks)
	}
	set := make([]uint64, (attrs+63)/64)
	for _, k := range keys {
		if k >= 0 && int64(k) < int64(attrs) {
			set[k/64] |= 1 << (k % 64)
		}
	}
	ks := make(keyList, 0, len(keys))
	for i, word := range set {
		for ; word != 0; word &= word - 1 {
			ks = append(ks, core.Key(i*64+bits.TrailingZeros64(word)))
		}
	}
	return ks
}

// gallop returns the first index after i (s[i] < x) of sorted s whose
// element is at least x, or len(s): an exponential then a binary search,
// so that skipping d elements costs O(log d).
func gallop[T cmp.Ordered](s []T, i int, x T) int {
	lo, hi, step := i+1, i+1, 1
	for hi < len(s) && s[hi] < x {
		lo = hi + 1
		hi = lo + step
		step *= 2
	}
	hi = min(hi, len(s))
	j, _ := slices.BinarySearch(s[lo:hi], x)
	return lo + j
}

// within returns the keys in [lo, hi].
func (ks keyList) within(lo, hi core.Key) keyList { return within(ks, lo, hi) }

// within returns the elements of sorted s in [lo, hi] (none when lo > hi,
// as for the empty ranges of a sub-tree without intervals).
func within[S ~[]E, E cmp.Ordered](s S, lo, hi E) S {
	if len(s) == 0 || lo > hi || s[0] > hi || s[len(s)-1] < lo {
		return nil
	}
	if lo <= s[0] && s[len(s)-1] <= hi {
		return s
	}
	i, _ := slices.BinarySearch(s, lo)
	j, found := slices.BinarySearch(s[i:], hi)
	if found {
		j++
	}
	return s[i : i+j]
}

func (ks keyList) contains(k core.Key) bool {
	if len(ks) == 0 || k < ks[0] || k > ks[len(ks)-1] {
		return false
	}
	if int(ks[len(ks)-1]-ks[0]) == len(ks)-1 {
		return true // a run of consecutive keys, as the rows of a view
	}
	_, ok := slices.BinarySearch(ks, k)
	return ok
}

// Query2D implements [core.History]: one walk of the tree, pruned by each
// child's time, key and class bounds.
func (t *Tree) Query2D(ctx context.Context, keys []core.Key, t0, t1 core.Time, fn func(core.Interval) bool) (core.QueryStats, error) {
	t0, t1 = max(t0, t.hdr.start), min(t1, t.hdr.end)
	if t0 > t1 {
		return t.query2D(ctx, nil, timeSpec{}, fn)
	}
	return t.query2D(ctx, keys, timeSpec{t0: int64(t0), t1: int64(t1)}, fn)
}

// Query2DTimes implements [core.History]: like Query2D, with the time list
// narrowed to each child's time bounds.
func (t *Tree) Query2DTimes(ctx context.Context, keys []core.Key, times []core.Time, fn func(core.Interval) bool) (core.QueryStats, error) {
	ts := slices.Clone(times)
	slices.Sort(ts)
	ts = timesWithin(slices.Compact(ts), t.hdr.start, t.hdr.end)
	if len(ts) == 0 {
		return t.query2D(ctx, nil, timeSpec{}, fn)
	}
	return t.query2D(ctx, keys, timeSpec{ts: ts, list: true}, fn)
}

func (t *Tree) query2D(ctx context.Context, keys []core.Key, ts timeSpec, fn func(core.Interval) bool) (core.QueryStats, error) {
	w, err := t.newWalk(ctx, fn)
	if err != nil {
		return core.QueryStats{}, err
	}
	defer w.release()
	ks := sortedKeys(keys, t.hdr.attrCount)
	if len(ks.within(t.root.minKey, t.root.maxKey)) == 0 {
		return w.st, nil
	}
	of, err := t.loadClasses()
	if err != nil {
		return w.st, err
	}
	return w.done(w.walk2D(t.root, ks, classSetOf(of, ks, int(t.hdr.classCount)), ts, 1))
}

// timeSpec is the time side of a 2D query: the range [t0, t1], or a
// sorted list of times.
type timeSpec struct {
	t0, t1 int64
	ts     []core.Time
	list   bool
}

// within narrows s to [lo, hi] and reports whether anything is left.
func (s timeSpec) within(lo, hi core.Time) (timeSpec, bool) {
	if !s.list {
		return s, int64(lo) <= s.t1 && int64(hi) >= s.t0
	}
	ts := timesWithin(s.ts, lo, hi)
	return timeSpec{ts: ts, list: true}, len(ts) > 0
}

// hits reports whether the interval [start, end] matches s.
func (s timeSpec) hits(start, end int64) bool {
	if !s.list {
		return start <= s.t1 && end >= s.t0
	}
	i, _ := slices.BinarySearch(s.ts, core.Time(start))
	return i < len(s.ts) && int64(s.ts[i]) <= end
}

// timesWithin returns the times of sorted ts in [lo, hi].
func timesWithin(ts []core.Time, lo, hi core.Time) []core.Time { return within(ts, lo, hi) }

func (w *walk) walk2D(n *node, ks keyList, cs classSet, ts timeSpec, depth int) error {
	if err := w.enter(n, depth); err != nil {
		return err
	}
	ks = ks.within(n.minKey, n.maxKey)
	ts, _ = ts.within(n.start, n.end)
	if n.flags&flagSortedByKey != 0 {
		// Merge the node's key-sorted records with the key list,
		// galloping over the side that is behind: an R-tree root holds a
		// few hundred records over the whole key range, and a query may
		// ask for a hundred thousand keys.
		i, j, tpos := 0, 0, -1
		for i < len(n.keys) && j < len(ks) {
			switch k := core.Key(n.keys[i]); {
			case k < ks[j]:
				if i++; i < len(n.keys) && core.Key(n.keys[i]) < ks[j] {
					i = gallop(n.keys, i, int32(ks[j]))
				}
			case k > ks[j]:
				if j++; j < len(ks) && ks[j] < k {
					j = gallop(ks, j, k)
				}
				tpos = -1
			default:
				hit := false
				if start, end := n.starts[i], n.ends[i]; !ts.list {
					hit = start <= ts.t1 && end >= ts.t0
				} else {
					// (key, start) increase: a key's records are in time
					// order, and gallop along the time list from where the
					// key's previous record left it.
					switch {
					case tpos < 0:
						tpos, _ = slices.BinarySearch(ts.ts, core.Time(start))
					case tpos < len(ts.ts) && int64(ts.ts[tpos]) < start:
						tpos = gallop(ts.ts, tpos, core.Time(start))
					}
					hit = tpos < len(ts.ts) && int64(ts.ts[tpos]) <= end
				}
				if hit {
					if err := w.emit(n, i); err != nil {
						return err
					}
				}
				i++
			}
		}
	} else {
		for i, k := range n.keys {
			if ks.contains(core.Key(k)) && ts.hits(n.starts[i], n.ends[i]) {
				if err := w.emit(n, i); err != nil {
					return err
				}
			}
		}
	}
	if len(n.children) == 0 {
		return nil
	}
	// The children to visit, with the lists narrowed to each, read
	// together (see scan.go).
	b := w.batch(depth)
	for _, c := range n.children {
		cts, ok := ts.within(c.start, c.end)
		if !ok {
			continue
		}
		ccs := cs.within(c.minClass, c.maxClass)
		if len(ccs) == 0 {
			continue
		}
		if cks := ks.within(c.minKey, c.maxKey); len(cks) > 0 {
			b.visit = append(b.visit, c)
			b.specs = append(b.specs, spec{cks, ccs, cts})
		}
	}
	return w.visit(n, b, func(i int, ch *node) error {
		sp := &b.specs[i]
		return w.walk2D(ch, sp.ks, sp.cs, sp.ts, depth+1)
	})
}
