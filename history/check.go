package history

import (
	"fmt"
	"io"
	"math"
	"unicode/utf8"

	"github.com/tracetui/tracetui/core"
)

// Check reads the whole file and verifies every invariant of the format:
// checksums; each node's intervals inside its time and key range; each
// child's entry equal to the child's own header and inside its parent;
// sub-tree bounds tight (key and class ranges always, end times for esht
// and rsht, start times for R-tree nodes); sibling order (by class and key
// range for R-tree nodes, by end time otherwise, and consecutive time
// ranges for sht); every node reachable exactly once; the depth, node and
// interval counts of the header; the class table (dense ids; any
// assignment is correct, see classes.go), the attribute tree and every
// section's checksum, and the summaries against the intervals. It returns the first violation, as an ErrCorrupt (or
// ErrTruncated) error.
func (t *Tree) Check() error {
	if t.closed.Load() {
		return ErrTreeClosed
	}
	of, err := t.loadClasses()
	if err != nil {
		return err
	}
	c := checker{t: t, seen: make([]bool, t.hdr.nodeCount), classes: of}
	c.seen[t.root.seq] = true
	root, blk, err := t.loadBlock(t.root.seq)
	if err != nil {
		return err
	}
	sub, err := c.node(root, blk, 1)
	if err != nil {
		return err
	}
	h := t.hdr
	switch {
	case c.visited != int(h.nodeCount):
		return fmt.Errorf("%w: %d of %d nodes reachable from the root", ErrCorrupt, c.visited, h.nodeCount)
	case c.maxDepth != int(h.depth):
		return fmt.Errorf("%w: deepest node at level %d, header says %d", ErrCorrupt, c.maxDepth, h.depth)
	case sub.count != h.intervals:
		return fmt.Errorf("%w: %d intervals in the nodes, header says %d", ErrCorrupt, sub.count, h.intervals)
	case h.attrCount > 0 && sub.count > 0 && sub.maxEnd != int64(h.end):
		return fmt.Errorf("%w: last interval ends at %d, trace at %d", ErrCorrupt, sub.maxEnd, h.end)
	case sub.count > 0 && int64(sub.maxKey) >= int64(h.attrCount):
		return fmt.Errorf("%w: key %d for %d attributes", ErrCorrupt, sub.maxKey, h.attrCount)
	}
	if _, err := t.LoadAttributes(); err != nil {
		return err
	}
	if err := t.attrStore.check(); err != nil {
		return err
	}
	for _, s := range t.secs {
		hash := core.NewCRC32C()
		if _, err := io.Copy(hash, io.NewSectionReader(t.f, int64(s.off), int64(s.size))); err != nil {
			return fmt.Errorf("%w: section %q: %v", ErrTruncated, s.name, err)
		}
		if got := hash.Sum32(); got != s.crc {
			return fmt.Errorf("%w: section %q checksum %08x, want %08x", ErrCorrupt, s.name, got, s.crc)
		}
	}
	return t.checkSummary()
}

type checker struct {
	t        *Tree
	seen     []bool
	classes  classTable
	visited  int
	maxDepth int
}

// bounds are the tight bounds of a sub-tree's intervals.
type bounds struct {
	count              uint64
	minStart           int64
	maxEnd             int64
	minKey, maxKey     core.Key
	minClass, maxClass uint16
}

func emptyBounds() bounds {
	return bounds{minStart: math.MaxInt64, maxEnd: math.MinInt64, minKey: math.MaxInt32, maxKey: math.MinInt32, minClass: noClassLo, maxClass: noClassHi}
}

func (b *bounds) add(o bounds) {
	b.count += o.count
	b.minStart, b.maxEnd = min(b.minStart, o.minStart), max(b.maxEnd, o.maxEnd)
	b.minKey, b.maxKey = min(b.minKey, o.minKey), max(b.maxKey, o.maxKey)
	b.minClass, b.maxClass = min(b.minClass, o.minClass), max(b.maxClass, o.maxClass)
}

// node checks node n, whose block is blk, and its sub-tree.
func (c *checker) node(n *node, blk []byte, depth int) (bounds, error) {
	bad := func(format string, a ...any) (bounds, error) {
		return bounds{}, fmt.Errorf("%w: node %d: %s", ErrCorrupt, n.seq, fmt.Sprintf(format, a...))
	}
	c.visited++
	c.maxDepth = max(c.maxDepth, depth)
	if depth > int(c.t.hdr.depth) {
		return bad("at depth %d, header says %d levels", depth, c.t.hdr.depth)
	}
	end := nodeHeaderSize + len(n.children)*childEntrySize + n.dataLen
	for _, x := range blk[end:] {
		if x != 0 {
			return bad("non-zero bytes after the records")
		}
	}
	sub := emptyBounds()
	for i := range n.keys {
		if n.kinds[i] == core.KindString {
			if s := n.value(i).Str(); !utf8.ValidString(s) {
				return bad("record %d: string is not UTF-8", i)
			}
		}
		k := n.keys[i]
		if int64(k) >= int64(c.classes.len()) {
			return bad("record %d: key %d of %d attributes", i, k, c.classes.len())
		}
		cl := c.classes.of(core.Key(k))
		sub.add(bounds{count: 1, minStart: n.starts[i], maxEnd: n.ends[i], minKey: core.Key(k), maxKey: core.Key(k), minClass: cl, maxClass: cl})
	}
	layout := c.t.hdr.layout
	for i, e := range n.children {
		if e.seq >= c.t.hdr.nodeCount {
			return bad("child %d: node %d of %d", i, e.seq, c.t.hdr.nodeCount)
		}
		if c.seen[e.seq] {
			return bad("child %d: node %d reached twice", i, e.seq)
		}
		c.seen[e.seq] = true
		if i > 0 {
			p := n.children[i-1]
			switch {
			case n.flags&flagKeySplit != 0:
				// Ordered by (class, key): a class shared by two
				// siblings has its smaller keys in the first.
				if p.maxClass > e.minClass || p.minClass == e.maxClass && p.maxKey > e.minKey {
					return bad("children %d and %d: class and key ranges out of order", i-1, i)
				}
			case layout == LayoutSHT && e.start != p.end+1:
				return bad("children %d and %d: [%d, %d] then [%d, %d], not consecutive", i-1, i, p.start, p.end, e.start, e.end)
			case e.end < p.end && layout != LayoutRSHT:
				// Children are closed in time order. (R-trees are loaded
				// in time order too, but the first nulls' are loaded
				// after the last change: nulls.go.)
				return bad("children %d and %d: end %d after %d", i-1, i, p.end, e.end)
			}
		}
		ch, chBlk, err := c.t.loadBlock(e.seq)
		if err != nil {
			return bounds{}, err
		}
		if ch.parent != n.seq || !ch.matches(e) {
			return bad("child %d (node %d) does not match its entry", i, e.seq)
		}
		cb, err := c.node(ch, chBlk, depth+1)
		if err != nil {
			return bounds{}, err
		}
		sub.add(cb)
	}
	if sub.count == 0 {
		if !n.hollow() {
			return bad("no interval below, keys [%d, %d]", n.minKey, n.maxKey)
		}
		return sub, nil
	}
	switch {
	case n.hollow() || n.minKey != sub.minKey || n.maxKey != sub.maxKey:
		return bad("keys [%d, %d], sub-tree has [%d, %d]", n.minKey, n.maxKey, sub.minKey, sub.maxKey)
	case n.minClass != sub.minClass || n.maxClass != sub.maxClass:
		return bad("classes [%d, %d], sub-tree has [%d, %d]", n.minClass, n.maxClass, sub.minClass, sub.maxClass)
	case int64(n.start) > sub.minStart || int64(n.end) < sub.maxEnd:
		return bad("range [%d, %d] does not cover its sub-tree [%d, %d]", n.start, n.end, sub.minStart, sub.maxEnd)
	case layout != LayoutSHT && n.parent != noParent && int64(n.end) != sub.maxEnd:
		return bad("ends at %d, its sub-tree at %d", n.end, sub.maxEnd)
	case n.flags&flagSortedByKey != 0 && int64(n.start) != sub.minStart:
		return bad("R-tree node starts at %d, its sub-tree at %d", n.start, sub.minStart)
	}
	return sub, nil
}
