package history

import (
	"fmt"
	"slices"
	"sync/atomic"
)

// Reading children. walk2D reads the children it will visit before
// descending into them, each run of consecutive blocks that are not in the
// cache with one system call (the leaves of an R-tree that a query reads
// are mostly consecutive in the file), into a buffer of the walk's for
// that depth; a child is decoded when its turn comes.
//
// Large queries. Once a walk has read scanAfter nodes from the file, it
// decodes a further leaf into one scratch node of its own, not cached,
// unless the leaf was already read that way before and the cache has room
// for it (it would evict nothing): admission on the second reading, as in
// the 2Q cache. A query that reads hundreds of leaves once (the process
// tree at open: every thread's Exec_name and PPID, 750 nodes on a
// 50 k-thread trace) then allocates nothing for them: 13 MB less, which
// in the browser's process, with its attribute tree on the heap, cost
// the query 20 to 23 ms instead of 15 (garbage collection, page faults:
// `tracetui bench paper`, caching every leaf that fits). A query
// that reads more nodes than the cache holds (a full query or the
// article's sparse 2D query at a million attributes: 4000 nodes, 70 MB
// decoded) no longer flushes the cache with each run for nothing (as a
// database's sequential scans bypass its buffer pool); and large queries
// repeated while the cache has room for them still end up cached. A leaf
// with string values keeps its own copy of its block: the strings given to
// the callback point into it and must stay valid.

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

// visit reads the children b.visit of n and calls f with each, in order.
func (w *walk) visit(n *node, b *batch, f func(i int, ch *node) error) error {
	if err := w.readChildren(n, b); err != nil {
		return err
	}
	for i, c := range b.visit {
		ch, err := w.child(b, i, n, c)
		if err != nil {
			return err
		}
		if err := f(i, ch); err != nil {
			return err
		}
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
	if scan && t.readBefore(c.seq) && t.cache.room(c.seq, h.memSize(t.hdr.blockSize)) {
		scan = false
	}
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

// readBefore records that leaf seq was decoded into a scratch node and
// reports whether it had been before. The record is one bit per node,
// allocated on first use.
func (t *Tree) readBefore(seq uint32) bool {
	t.scannedOnce.Do(func() { t.scanned = make([]atomic.Uint64, (t.hdr.nodeCount+63)/64) })
	bit := uint64(1) << (seq % 64)
	return t.scanned[seq/64].Or(bit)&bit != 0
}
