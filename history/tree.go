package history

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/tracetui/tracetui/core"
)

// Tree is an open index file. It implements [core.History]; any number of
// goroutines may query it at once.
type Tree struct {
	f     *os.File
	path  string
	hdr   *fileHeader
	root  *node
	cache *nodeCache
	secs  []section

	attrOnce  sync.Once
	attrs     *core.AttributeTree
	attrStore *attrStore // nil when the attribute tree could not be opened
	attrErr   error
	openStore atomic.Pointer[attrStore] // attrStore once opened, for unchanged (any goroutine)

	// walks keeps idle walks with their buffers and scratch nodes, whose
	// memory stays touched (a sync.Pool would drop them at every garbage
	// collection, and fresh memory is what a cold frame pays for most, see
	// scan.go); at most walkPool of them.
	walks chan *walk

	classOnce sync.Once
	classes   classTable // class per key (classes.go)
	classErr  error

	sum summaryMap // level-of-detail summaries (summary_tree.go)

	closed atomic.Bool
	opened os.FileInfo // the file as opened: a query first checks it is unchanged
}

var _ core.History = (*Tree)(nil)

// Open opens an index built by [Builder]. It reads the header, the root
// node and the section table, and checks them; the attribute tree is read
// on first use ([Tree.LoadAttributes]). A file that is not an index, of
// another format version, corrupt or truncated is refused with an error
// matching ErrNotIndex, ErrVersion, ErrCorrupt or ErrTruncated: rebuild it.
func Open(path string, opts OpenOptions) (*Tree, error) {
	f, err := openRegular(path)
	if err != nil {
		return nil, fmt.Errorf("history: open index: %w", err)
	}
	t, err := open(f, path, opts)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("history: open %s: %w", path, err)
	}
	return t, nil
}

func open(f *os.File, path string, opts OpenOptions) (*Tree, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	head := make([]byte, fileHeaderSize)
	n, err := f.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return nil, err
	}
	if n < len(magic) || n < fileHeaderSize && !bytes.Equal(head[:len(magic)], magic[:]) {
		if bytes.HasPrefix(magic[:], head[:min(n, len(magic))]) {
			return nil, fmt.Errorf("%w: %d bytes", ErrTruncated, n)
		}
		return nil, fmt.Errorf("%w: %d bytes", ErrNotIndex, n)
	}
	h, err := decodeFileHeader(head[:n])
	if err != nil {
		return nil, err
	}
	switch {
	case uint64(size) < h.fileSize:
		return nil, fmt.Errorf("%w: %d bytes, header says %d", ErrTruncated, size, h.fileSize)
	case uint64(size) > h.fileSize:
		return nil, fmt.Errorf("%w: %d bytes, header says %d", ErrCorrupt, size, h.fileSize)
	}
	pad := make([]byte, h.blockSize-fileHeaderSize)
	if _, err := f.ReadAt(pad, fileHeaderSize); err != nil {
		return nil, fmt.Errorf("%w: header block: %v", ErrTruncated, err)
	}
	if slices.ContainsFunc(pad, func(b byte) bool { return b != 0 }) {
		return nil, fmt.Errorf("%w: non-zero bytes in the header block's padding", ErrCorrupt)
	}
	cacheBytes := opts.CacheBytes
	if cacheBytes == 0 {
		cacheBytes = DefaultCacheBytes
	}
	t := &Tree{f: f, path: path, hdr: h, cache: newNodeCache(cacheBytes), walks: make(chan *walk, walkPool), opened: st}
	tab := make([]byte, h.sectTabLen)
	if _, err := f.ReadAt(tab, int64(h.sectTabOff)); err != nil {
		return nil, fmt.Errorf("%w: section table: %v", ErrCorrupt, err)
	}
	if got := core.CRC32C(tab); got != h.sectTabCRC {
		return nil, fmt.Errorf("%w: section table checksum %08x, want %08x", ErrCorrupt, got, h.sectTabCRC)
	}
	if t.secs, err = decodeSections(tab, h.sectionCount, h.attrOff+h.attrLen, h.sectTabOff); err != nil {
		return nil, err
	}
	root, err := t.load(h.rootSeq)
	if err != nil {
		return nil, err
	}
	if root.parent != noParent || root.start != h.start || root.end != h.end {
		return nil, fmt.Errorf("%w: root node %d (parent %d) spans [%d, %d], header says [%d, %d]",
			ErrCorrupt, root.seq, root.parent, root.start, root.end, h.start, h.end)
	}
	if !root.hollow() && int64(root.maxKey) >= int64(h.attrCount) {
		return nil, fmt.Errorf("%w: keys up to %d for %d attributes", ErrCorrupt, root.maxKey, h.attrCount)
	}
	t.root = root
	return t, nil
}

// load reads and decodes node seq, bypassing the cache.
func (t *Tree) load(seq uint32) (*node, error) {
	n, _, err := t.loadBlock(seq)
	return n, err
}

// loadBlock reads and decodes node seq, bypassing the cache, and returns
// its block too.
func (t *Tree) loadBlock(seq uint32) (*node, []byte, error) {
	if seq >= t.hdr.nodeCount {
		return nil, nil, fmt.Errorf("%w: node %d of %d", ErrCorrupt, seq, t.hdr.nodeCount)
	}
	b := make([]byte, t.hdr.blockSize)
	if err := t.readBlocks(b, seq); err != nil {
		return nil, nil, err
	}
	n, err := t.decode(b, seq)
	return n, b, err
}

// readBlocks reads len(b)/blockSize consecutive blocks starting at node
// seq.
func (t *Tree) readBlocks(b []byte, seq uint32) error {
	if _, err := t.f.ReadAt(b, nodeOffset(seq, t.hdr.blockSize)); err != nil {
		if t.closed.Load() {
			return ErrTreeClosed
		}
		return fmt.Errorf("%w: read node %d: %v", ErrTruncated, seq, err)
	}
	return nil
}

// decode decodes block b, which must hold node seq.
func (t *Tree) decode(b []byte, seq uint32) (*node, error) {
	n, err := decodeNode(b, t.hdr.maxChildren)
	if err != nil {
		return nil, err
	}
	if n.seq != seq {
		return nil, fmt.Errorf("%w: block %d holds node %d", ErrCorrupt, seq, n.seq)
	}
	return n, nil
}

// node returns node seq from the cache or the file.
func (t *Tree) node(seq uint32) (*node, error) {
	if seq == t.root.seq {
		return t.root, nil
	}
	if n := t.cache.get(seq); n != nil {
		return n, nil
	}
	n, err := t.load(seq)
	if err != nil {
		return nil, err
	}
	t.cache.put(n)
	return n, nil
}

// child returns the child of p described by entry c, checking that the
// node is the one the entry describes (so a misplaced block is an error,
// never a wrong answer, and traversals cannot loop).
func (t *Tree) child(p *node, c child) (*node, error) {
	n, err := t.node(c.seq)
	if err != nil {
		return nil, err
	}
	return n, checkEntry(p, c, n)
}

func checkEntry(p *node, c child, n *node) error {
	if n.parent != p.seq || !n.matches(c) {
		return fmt.Errorf("%w: node %d (parent %d, %+v) does not match its entry in node %d (%+v)",
			ErrCorrupt, n.seq, n.parent, n.entry(), p.seq, c)
	}
	return nil
}

// walkPool is the number of idle walks a tree keeps: the browser runs one
// query at a time, and a few more at open.
const walkPool = 2

// LoadAttributes opens the attribute tree (once; later calls return the
// same tree). It reads the tree's head and page checksums and maps the
// rest, which is read page by page as the tree is used: opening costs
// about the same at a thousand attributes as at ten million. The error is
// the damage found so far, in the head or in the pages read since.
func (t *Tree) LoadAttributes() (*core.AttributeTree, error) {
	t.attrOnce.Do(func() {
		s, err := openAttributes(t.f, t.path, t.hdr)
		if err != nil {
			if t.closed.Load() {
				err = ErrTreeClosed
			}
			t.attrErr = fmt.Errorf("history: %s: %w", t.path, err)
			t.attrs = core.NewAttributeTree()
			return
		}
		t.attrStore, t.attrs = s, core.NewStoredAttributeTree(s)
		t.openStore.Store(s)
	})
	if t.attrErr != nil {
		return t.attrs, t.attrErr
	}
	return t.attrs, t.attrs.Err()
}

// Attributes implements [core.History]. If the attribute tree cannot be
// read it returns an empty tree: call LoadAttributes to get the error.
func (t *Tree) Attributes() *core.AttributeTree {
	a, _ := t.LoadAttributes()
	return a
}

// Bounds implements [core.History].
func (t *Tree) Bounds() (start, end core.Time) { return t.hdr.start, t.hdr.end }

// Info describes an open index (from its header).
type Info struct {
	Path          string
	FormatVersion int
	Layout        Layout
	BlockSize     int
	MaxChildren   int
	MaxRHeight    int // largest R-tree height used (0 for sht and esht)
	Depth         int // levels from the root to the deepest leaf
	Nodes         int
	Intervals     int64
	Attributes    int
	FileBytes     int64
	Start, End    core.Time
	Sections      []string
}

// Info returns facts from the header.
func (t *Tree) Info() Info {
	h := t.hdr
	in := Info{
		Path: t.path, FormatVersion: int(h.version), Layout: h.layout, BlockSize: h.blockSize, MaxChildren: h.maxChildren,
		MaxRHeight: int(h.maxRHeight), Depth: int(h.depth), Nodes: int(h.nodeCount), Intervals: int64(h.intervals),
		Attributes: int(h.attrCount), FileBytes: int64(h.fileSize), Start: h.start, End: h.end,
	}
	for _, s := range t.secs {
		in.Sections = append(in.Sections, s.name)
	}
	return in
}

// Section returns a reader of the named section's bytes, read from the
// file on demand.
func (t *Tree) Section(name string) (*io.SectionReader, error) {
	for _, s := range t.secs {
		if s.name == name {
			return io.NewSectionReader(t.f, int64(s.off), int64(s.size)), nil
		}
	}
	return nil, fmt.Errorf("history: %s: %w: %q", t.path, ErrNoSection, name)
}

// Close closes the file and unmaps the attribute tree (waiting for the
// attribute reads in progress). Queries after Close fail with
// ErrTreeClosed; the attribute tree then answers as empty and its Err
// (and LoadAttributes) report ErrTreeClosed.
func (t *Tree) Close() error {
	if t.closed.Swap(true) {
		return nil
	}
	t.attrOnce.Do(func() { // never opened: nothing to unmap, and never will be
		t.attrErr = fmt.Errorf("history: %s: %w", t.path, ErrTreeClosed)
		t.attrs = core.NewAttributeTree()
	})
	if t.attrStore != nil {
		t.attrStore.close()
	}
	t.sum.close()
	return t.f.Close()
}

// unchanged returns an error matching ErrCorrupt when the index file is no
// longer the one opened (truncated, or rewritten in place by another
// program: its size changed), and then makes the attribute tree answer as
// absent. Every query checks it first (one fstat), so a changed file reads
// as damaged and is rebuilt, never as a wrong answer or a fault. The
// modification time is not compared: the cache marks an index used by
// setting it, from any process. A rewrite of the same size is caught
// where it is read: by the nodes' checksums, each time a node is read
// from the file.
func (t *Tree) unchanged() error {
	st, err := t.f.Stat()
	if err == nil && st.Size() == t.opened.Size() {
		return nil
	}
	why := "it can no longer be read"
	if err == nil {
		why = fmt.Sprintf("%d bytes, it was %d", st.Size(), t.opened.Size())
	}
	if s := t.openStore.Load(); s != nil {
		s.changed(why)
	}
	return fmt.Errorf("history: %s: %w: the index file changed while it was open (%s): it was truncated or rewritten by another program", t.path, ErrCorrupt, why)
}

// IntervalCount is how many intervals the index holds: what a reader of
// every state of the trace has to hold or stream.
func (t *Tree) IntervalCount() int64 { return int64(t.hdr.intervals) }
