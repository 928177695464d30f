package history

import (
	"fmt"
)

// Reading children. A walk reads the children it will visit a window at a
// time before descending into them, each run of consecutive blocks that
// are not in the cache with one system call (the leaves of an R-tree that
// a query reads are mostly consecutive in the file), into a buffer of the
// walk's for that depth; a child is decoded when its turn comes.
//
// Fresh memory. On the virtual machines this is measured on, the first
// write to a page the process has never touched costs 10 to 30 µs, while
// decoding a 4 KiB node (490 intervals) into memory already touched costs
// 5 µs: a decoded node holds 14 KiB of arrays, so caching it costs about
// 100 µs the first time, 10 to 20 times a decode. A cold frame of a dense
// capture reads 600 to 1600 nodes. Caching all of them made the first
// frame of a real 1.29 M-event ftrace capture cost 40 ms more; admitting them on their
// second reading (as the 2Q cache does, which this replaced) moved those
// 40 ms to the second frame. So a walk caches the first cacheNodes nodes
// it decodes, evicting the least recently used nodes if needed, and
// decodes the rest into a scratch node per depth, reused from walk to walk
// (its memory stays touched), not cached:
//
//   - a cold frame touches at most cacheNodes nodes' worth of fresh
//     memory (under 0.5 MB, about 3 ms), and decodes the rest at 5 µs each
//     (the first frame's query on bigbuild.txt: 15 ms of CPU instead of 48);
//   - a walk goes depth first, so the nodes it caches are the upper levels
//     that every query crosses and its first leaves; the frames that
//     follow find them cached and cache more: the cache warms up over a few
//     frames;
//   - a query that reads more nodes than the cache holds (a full query, or
//     the article's sparse 2D query at a million attributes: 4000 nodes,
//     70 MB decoded) evicts at most cacheNodes nodes, so it does not flush
//     the cache (as a database's sequential scans bypass its buffer pool),
//     and a query that reads hundreds of leaves once (the process tree:
//     every thread's Exec_name and PPID, 750 leaves on a 50 k-thread
//     trace; `tracetui bench paper`) allocates little.
//
// Strings. A decoded node's string values point into its block. A cached
// node keeps a copy of its strings only (node.own), not of the block; a
// scratch node's block is the walk's buffer, and the strings it hands to
// the callback are copies (node.borrowed), which must stay valid after the
// walk.

// cacheNodes is the number of nodes a walk adds to the cache (evicting the
// least recently used nodes if needed); it decodes its further nodes into
// scratch nodes.
const cacheNodes = 32

// window is the number of children a walk reads at a time before visiting
// them: its buffers stay small, so a cold query touches little fresh
// memory, and a run of consecutive blocks is still read with one system
// call.
const window = 8

// batch is the children of a node that a walk visits: their entries and
// the query's lists narrowed to each (2D queries); and for the window
// being visited, each child as a cached node or a block in buf. A walk
// keeps one per depth, reused.
type batch struct {
	visit   []child
	specs   []spec
	nodes   [window]*node // the window's child k when cached, else nil
	offs    [window]int   // the block of the window's child k in buf
	buf     []byte
	scratch node // the child being visited, when not cached
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
	b.visit, b.specs = b.visit[:0], b.specs[:0]
	return b
}

// visit reads the children b.visit of n, a window at a time, and calls f
// with each, in order, decoding it first if it was not cached.
func (w *walk) visit(n *node, b *batch, f func(i int, ch *node) error) error {
	for lo := 0; lo < len(b.visit); lo += window {
		cs := b.visit[lo:min(lo+window, len(b.visit))]
		if err := w.readChildren(n, b, cs); err != nil {
			return err
		}
		for k, c := range cs {
			ch, err := w.child(b, k, n, c)
			if err != nil {
				return err
			}
			if err := f(lo+k, ch); err != nil {
				return err
			}
		}
	}
	return nil
}

// readChildren finds the children cs of p (a window) in the cache, or
// reads their blocks, each run of consecutive ones with one system call.
func (w *walk) readChildren(p *node, b *batch, cs []child) error {
	t := w.t
	bs := t.hdr.blockSize
	if cap(b.buf) < window*bs {
		b.buf = make([]byte, 0, window*bs) // once per depth: never grown and copied
	}
	b.buf = b.buf[:0]
	for i := 0; i < len(cs); {
		seq := cs[i].seq
		if seq >= t.hdr.nodeCount {
			return fmt.Errorf("%w: node %d of %d", ErrCorrupt, seq, t.hdr.nodeCount)
		}
		if n := t.cache.get(seq); n != nil {
			if err := checkEntry(p, cs[i], n); err != nil {
				return err
			}
			b.nodes[i] = n
			i++
			continue
		}
		j := i + 1
		for j < len(cs) && cs[j].seq == cs[j-1].seq+1 && cs[j].seq < t.hdr.nodeCount && !t.cache.has(cs[j].seq) {
			j++
		}
		off := len(b.buf)
		b.buf = b.buf[:off+(j-i)*bs]
		if err := t.readBlocks(b.buf[off:], seq); err != nil {
			return err
		}
		for k := i; k < j; k++ {
			b.nodes[k], b.offs[k] = nil, off+(k-i)*bs
		}
		i = j
	}
	return nil
}

// child returns the window's child k, p's child of entry c, decoding it if
// needed: into a new node that goes to the cache (one of the first
// cacheNodes nodes the walk decodes), or into the batch's scratch node,
// valid until the next call (a walk uses a node's records before it
// visits the node's children, and the children's entries are copied into
// the next batch).
func (w *walk) child(b *batch, k int, p *node, c child) (*node, error) {
	if n := b.nodes[k]; n != nil {
		return n, nil
	}
	t := w.t
	blk := b.buf[b.offs[k]:][:t.hdr.blockSize]
	h, err := decodeNodeHeader(blk, t.hdr.maxChildren)
	if err != nil {
		return nil, err
	}
	n, cache := &b.scratch, w.cached < cacheNodes
	if cache {
		n = new(node)
	}
	if err := n.decode(blk, h); err != nil {
		return nil, err
	}
	if n.strings {
		n.borrowed = true // blk is the batch's: valid until the window is over
		if cache {
			n.own()
		}
	}
	if n.seq != c.seq {
		return nil, fmt.Errorf("%w: block %d holds node %d", ErrCorrupt, c.seq, n.seq)
	}
	if err := checkEntry(p, c, n); err != nil {
		return nil, err
	}
	if cache {
		w.cached++
		t.cache.put(n)
	}
	return n, nil
}
