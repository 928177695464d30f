package history

import (
	"fmt"
	"slices"
)

// Reading children. walk2D reads the children it will visit before
// descending into them, each run of consecutive blocks that are not in the
// cache with one system call (the leaves of an R-tree that a query reads
// are mostly consecutive in the file), into a buffer of the walk's for
// that depth; a child is decoded when its turn comes.
//
// Large queries. Once a walk has read scanAfter nodes from the file, it
// decodes the further leaves into one scratch node instead of a new,
// cached node each: a query that reads hundreds of leaves (the process
// tree at open: every thread's Exec_name and PPID, 800 nodes on a
// 50 k-thread trace) would otherwise allocate and zero some 15 MB, and
// fill the cache with nodes that the views' small queries do not need
// (as a database's sequential scans bypass its buffer pool). A leaf with
// string values keeps its own copy of its block: the strings given to the
// callback point into it and must stay valid.

// scanAfter is the number of nodes a walk reads through the cache before
// its further leaves go through the scratch node. A frame of the browser
// reads a few dozen nodes; this is above that.
const scanAfter = 64

// batch is the children of a node that a walk visits: their entries, the
// query's lists narrowed to each (2D queries), and each child as a cached
// node or a block in buf. A walk keeps one per depth, reused.
type batch struct {
	visit []child
	specs []spec
	nodes []*node // nil: the block is buf[offs[i]:][:blockSize]
	offs  []int
	buf   []byte
}

// spec is a 2D query's lists narrowed to a child.
type spec struct {
	ks keyList
	cs classSet
	ts timeSpec
}

// batch returns the walk's batch for the children of a node at depth,
// emptied.
func (w *walk) batch(depth int) *batch {
	for len(w.batches) <= depth {
		w.batches = append(w.batches, new(batch))
	}
	b := w.batches[depth]
	b.visit, b.specs, b.nodes, b.offs, b.buf = b.visit[:0], b.specs[:0], b.nodes[:0], b.offs[:0], b.buf[:0]
	return b
}

// readChildren finds the children b.visit of p in the cache, or reads
// their blocks.
func (w *walk) readChildren(p *node, b *batch) error {
	t, cs := w.t, b.visit
	bs := t.hdr.blockSize
	for i := 0; i < len(cs); {
		seq := cs[i].seq
		if seq >= t.hdr.nodeCount {
			return fmt.Errorf("%w: node %d of %d", ErrCorrupt, seq, t.hdr.nodeCount)
		}
		if n := t.cache.get(seq); n != nil {
			if err := checkEntry(p, cs[i], n); err != nil {
				return err
			}
			b.nodes, b.offs = append(b.nodes, n), append(b.offs, -1)
			i++
			continue
		}
		j := i + 1
		for j < len(cs) && j-i < maxRun && cs[j].seq == cs[j-1].seq+1 && cs[j].seq < t.hdr.nodeCount && !t.cache.has(cs[j].seq) {
			j++
		}
		off := len(b.buf)
		b.buf = slices.Grow(b.buf, (j-i)*bs)[:off+(j-i)*bs]
		if err := t.readBlocks(b.buf[off:], seq); err != nil {
			return err
		}
		for k := i; k < j; k++ {
			b.nodes, b.offs = append(b.nodes, nil), append(b.offs, off+(k-i)*bs)
		}
		i = j
	}
	return nil
}

// child returns child i of the batch, p's child of entry c, decoding it
// if needed: into a new node that goes to the cache, or, past scanAfter
// nodes, a leaf into the walk's scratch node, valid until the next call.
func (w *walk) child(b *batch, i int, p *node, c child) (*node, error) {
	if n := b.nodes[i]; n != nil {
		return n, nil
	}
	t := w.t
	blk := b.buf[b.offs[i]:][:t.hdr.blockSize]
	h, err := decodeNodeHeader(blk, t.hdr.maxChildren)
	if err != nil {
		return nil, err
	}
	w.loaded++
	n := &w.leaf
	scan := w.loaded > scanAfter && h.typ == nodeLeaf
	if !scan {
		n, blk = new(node), slices.Clone(blk)
	}
	if err := n.decode(blk, h); err != nil {
		return nil, err
	}
	if n.seq != c.seq {
		return nil, fmt.Errorf("%w: block %d holds node %d", ErrCorrupt, c.seq, n.seq)
	}
	if err := checkEntry(p, c, n); err != nil {
		return nil, err
	}
	if !scan {
		t.cache.put(n)
	} else if n.strings {
		n.raw = slices.Clone(blk)
	}
	return n, nil
}
