package history

import (
	"fmt"
	"math"
	"os"

	"github.com/tracetui/tracetui/core"
)

// blockWriter hands out sequence numbers and writes node blocks at their
// place in the file.
type blockWriter struct {
	f    *os.File
	bs   int
	next uint32
}

func (w *blockWriter) alloc() uint32 {
	s := w.next
	w.next++
	return s
}

// write writes consecutive blocks starting at seq first.
func (w *blockWriter) write(first uint32, blocks []byte) error {
	if _, err := w.f.WriteAt(blocks, nodeOffset(first, w.bs)); err != nil {
		return fmt.Errorf("history: write node %d: %w", first, err)
	}
	return nil
}

// bnode is a node of the in-memory rightmost branch: records are encoded
// into data as they arrive (the encoding of a record depends only on the
// one before it), child entries are added as children close.
type bnode struct {
	seq, parent        uint32
	typ                uint8
	start, end         int64  // nominal start; max end of the sub-tree so far
	minKey, maxKey     int32  // of the sub-tree so far
	minClass, maxClass uint16 // of the sub-tree so far
	children           []child
	childHeight        int
	data               []byte
	enc                encState
	cap                int
	count              int
}

func (n *bnode) reset(seq, parent uint32, typ uint8, start int64, capacity int) {
	*n = bnode{seq: seq, parent: parent, typ: typ, start: start, end: math.MinInt64,
		minKey: math.MaxInt32, maxKey: math.MinInt32, minClass: noClassLo, maxClass: noClassHi, children: n.children[:0], data: n.data[:0],
		enc: newEncState(start), cap: capacity}
}

// tryAdd appends r if it fits.
func (n *bnode) tryAdd(r *rec, strs []byte) bool {
	saved, old := n.enc, len(n.data)
	n.data = n.enc.appendRecord(n.data, r, strs)
	if len(n.data) > n.cap {
		n.data, n.enc = n.data[:old], saved
		return false
	}
	n.count++
	n.cover(r.end, r.key, r.key, r.class, r.class)
	return true
}

// cover extends the sub-tree bounds the node will have when it closes.
func (n *bnode) cover(end int64, minKey, maxKey int32, minClass, maxClass uint16) {
	n.end = max(n.end, end)
	n.minKey = min(n.minKey, minKey)
	n.maxKey = max(n.maxKey, maxKey)
	n.minClass = min(n.minClass, minClass)
	n.maxClass = max(n.maxClass, maxClass)
}

func (n *bnode) addChild(c child, height int) {
	n.children = append(n.children, c)
	n.childHeight = max(n.childHeight, height)
	if c.minKey <= c.maxKey {
		n.cover(int64(c.end), int32(c.minKey), int32(c.maxKey), c.minClass, c.maxClass)
	}
}

// treeBuilder places intervals, arriving by non-decreasing end time, into
// nodes according to the layout's rules, and writes nodes as they close.
type treeBuilder struct {
	opts      Options
	w         *blockWriter
	leafCap   int // record bytes of a leaf
	coreCap   int // record bytes of a core node (room kept for every child)
	branch    []*bnode
	free      []*bnode
	block     []byte
	treeStart int64
	treeEnd   int64 // latest interval end inserted
	intervals uint64
	rb        *rbuffer   // R-SHT only
	keyCount  func() int // number of attributes so far (for vR)
}

func newTreeBuilder(opts Options, w *blockWriter, start int64, keyCount func() int) *treeBuilder {
	t := &treeBuilder{
		keyCount:  keyCount,
		opts:      opts,
		w:         w,
		leafCap:   opts.BlockSize - nodeHeaderSize,
		coreCap:   opts.BlockSize - nodeHeaderSize - opts.MaxChildren*childEntrySize,
		block:     make([]byte, opts.BlockSize),
		treeStart: start,
		treeEnd:   start,
	}
	if opts.Layout == LayoutRSHT {
		t.rb = newRBuffer(t)
		t.branch = append(t.branch, t.newNode(noParent, nodeCore, start))
		t.rb.setHeight()
	} else {
		t.branch = append(t.branch, t.newNode(noParent, nodeLeaf, start))
	}
	return t
}

func (t *treeBuilder) newNode(parent uint32, typ uint8, start int64) *bnode {
	var n *bnode
	if k := len(t.free); k > 0 {
		n, t.free = t.free[k-1], t.free[:k-1]
	} else {
		n = new(bnode)
	}
	c := t.leafCap
	if typ == nodeCore {
		c = t.coreCap
	}
	n.reset(t.w.alloc(), parent, typ, start, c)
	return n
}

// deepest returns the deepest branch level whose node starts at or before s.
func (t *treeBuilder) deepest(s int64) int {
	for i := len(t.branch) - 1; i > 0; i-- {
		if t.branch[i].start <= s {
			return i
		}
	}
	return 0
}

// insert places one interval.
func (t *treeBuilder) insert(r *rec, strs []byte) error {
	t.intervals++
	err := t.place(r, strs)
	t.treeEnd = max(t.treeEnd, r.end) // after placing: SHT branches start past the previous end
	return err
}

func (t *treeBuilder) place(r *rec, strs []byte) error {
	for {
		d := t.deepest(r.start)
		last := len(t.branch) - 1
		if t.rb != nil && d == last {
			// Starts at or after the R-tree parent: into the R-buffer.
			t.rb.add(r, strs)
			if t.rb.full() {
				return t.rb.flush(false)
			}
			return nil
		}
		if t.branch[d].tryAdd(r, strs) {
			return nil
		}
		if t.rb != nil && len(t.rb.recs) > 0 {
			// The branch below d is about to close: the buffer belongs
			// under the current R-tree parent, so load it first.
			if err := t.rb.flush(true); err != nil {
				return err
			}
			continue // the flush may have changed the branch
		}
		start := r.start // eSHT, R-SHT: a new node starts at its first interval
		if t.opts.Layout == LayoutSHT {
			start = t.treeEnd + 1 // SHT: siblings are consecutive; r may have to go up
			if t.treeEnd == math.MaxInt64 {
				start = t.treeEnd
			}
		}
		if err := t.roll(d, start); err != nil {
			return err
		}
	}
}

// loadBuffer loads the R-buffer, if it holds anything, under the current
// R-tree parent.
func (t *treeBuilder) loadBuffer() error {
	if t.rb == nil || len(t.rb.recs) == 0 {
		return nil
	}
	return t.rb.flush(true)
}

// roll replaces the node at level d, and the branch below it, by new
// nodes starting at start. It closes the nodes it replaces, and adds a new
// root when no ancestor has room for another child.
func (t *treeBuilder) roll(d int, start int64) error {
	// A branch node's open child (the next level) is not in its children
	// yet: it needs room for that one and the new sibling.
	p := d - 1
	for p >= 0 && len(t.branch[p].children)+2 > t.opts.MaxChildren {
		p--
	}
	if p < 0 {
		root := t.newNode(noParent, nodeCore, t.treeStart)
		t.branch[0].parent = root.seq
		t.branch = append([]*bnode{root}, t.branch...)
		p = 0
	}
	last := len(t.branch) - 1
	for i := last; i > p; i-- {
		if err := t.closeLevel(i); err != nil {
			return err
		}
	}
	for i := p + 1; i <= last; i++ {
		typ := uint8(nodeCore)
		if i == last && t.rb == nil {
			typ = nodeLeaf
		}
		t.branch[i] = t.newNode(t.branch[i-1].seq, typ, start)
	}
	return nil
}

// closeLevel writes the branch node at level i and registers it in its
// parent (level i-1, if any). The node object goes back to the free list.
func (t *treeBuilder) closeLevel(i int) error {
	n := t.branch[i]
	if t.opts.Layout == LayoutSHT {
		n.end = t.treeEnd // SHT nodes end where the tree is when they close
	}
	c, err := t.writeNode(n)
	if err != nil {
		return err
	}
	if i > 0 {
		t.branch[i-1].addChild(c, n.childHeight+1)
	}
	t.free = append(t.free, n)
	return nil
}

// writeNode encodes and writes n, returning its entry for the parent.
func (t *treeBuilder) writeNode(n *bnode) (child, error) {
	h := nodeHeader{typ: n.typ, childCount: len(n.children), seq: n.seq, parent: n.parent,
		count: n.count, start: core.Time(n.start), end: core.Time(n.end), minKey: core.Key(n.minKey), maxKey: core.Key(n.maxKey),
		minClass: n.minClass, maxClass: n.maxClass, dataLen: len(n.data)}
	if n.minKey > n.maxKey { // no interval in the sub-tree
		h.minKey, h.maxKey, h.minClass, h.maxClass = 0, -1, noClassLo, noClassHi
		if t.opts.Layout != LayoutSHT && n.parent != noParent {
			h.end = h.start - 1
		}
	}
	if h.end < h.start && h.end != h.start-1 { // (start-1 wraps at MinInt64: then no end is below it)
		h.end = h.start - 1
	}
	b := t.block
	clear(b)
	h.put(b)
	for i, c := range n.children {
		putChild(b[nodeHeaderSize+i*childEntrySize:], c)
	}
	copy(b[nodeHeaderSize+len(n.children)*childEntrySize:], n.data)
	sealBlock(b)
	if err := t.w.write(n.seq, b); err != nil {
		return child{}, err
	}
	return h.entry(), nil
}

// finish loads what the R-buffer holds, closes the whole branch and
// returns the root's sequence number and the tree's depth.
func (t *treeBuilder) finish(end int64) (root uint32, depth int, err error) {
	if t.rb != nil && len(t.rb.recs) > 0 {
		if err := t.rb.flush(true); err != nil {
			return 0, 0, err
		}
	}
	t.treeEnd = max(t.treeEnd, end)
	for i := len(t.branch) - 1; i > 0; i-- {
		if err := t.closeLevel(i); err != nil {
			return 0, 0, err
		}
	}
	r := t.branch[0]
	r.end = max(r.end, end) // the root spans the whole trace
	if r.minKey > r.maxKey {
		r.minKey, r.maxKey, r.minClass, r.maxClass = 0, -1, noClassLo, noClassHi
	}
	if _, err := t.writeNode(r); err != nil {
		return 0, 0, err
	}
	return r.seq, r.childHeight + 1, nil
}

// maxRHeight returns the largest R-tree height loaded (0 without R-trees).
func (t *treeBuilder) maxRHeight() int {
	if t.rb == nil {
		return 0
	}
	return t.rb.maxHeight
}
