package history

import (
	"context"
	"runtime/pprof"
	"sync/atomic"

	"github.com/tracetui/tracetui/core"
)

// The build uses two cores: the caller's goroutine (decoding and analysis,
// which call Modify) hands the intervals that Modify closes, in batches,
// to a goroutine that places them in the tree (R-buffer loads, node
// encoding, writes). The queue is bounded (pipelineDepth batches), so
// memory does not grow when the tree side is the slower, and the tree side
// sees exactly the sequence of intervals, and of attribute counts, that a
// build on one goroutine would: the file has the same bytes.
//
// The tree side works in bursts: it buffers intervals cheaply, then loads
// a whole R-tree at once (sort, encode, write: tens of milliseconds for
// the largest, MaxRHeight 3, about 350 k intervals). The queue holds about
// as many intervals as such a load, so that the caller goes on analysing
// during it: with 4 batches the caller waited 1.2 s of a 5.6 s build of
// `gen --threads 200000`, with 64 it waits 0.2 s. Batches are allocated
// as the queue first fills (8 MB of intervals at most, plus their
// strings), so a small trace takes only what it uses.

const (
	batchLen      = 4096 // intervals per batch
	pipelineDepth = 64   // batches queued or being placed
)

// ivBatch is a run of intervals on their way to the tree builder.
type ivBatch struct {
	recs []rec
	strs []byte    // string values, which recs point into
	keys []keyMark // attribute count changes within the batch
	// loadFirst: the R-buffer is loaded before the batch is placed
	// (Builder.cutBuffer).
	loadFirst bool
}

// keyMark says that from record at on, the builder had n attributes (the
// vR height follows it).
type keyMark struct{ at, n int }

// pipeline is the tree side of the build.
type pipeline struct {
	in     chan *ivBatch
	free   chan *ivBatch
	done   chan struct{}
	err    error       // the tree side's first error, written once
	failed atomic.Bool // set after err: the caller may then read err
	// dropping tells the tree side to place nothing more (Abort): the
	// queue then drains within one insertion, at most one R-tree load.
	dropping atomic.Bool
	keys     int // attribute count as of the interval being placed
	made     int // batches allocated (by the caller's side)
	depth    int // batches at most
}

func newPipeline(tb *treeBuilder, depth int) *pipeline {
	if depth <= 0 {
		depth = pipelineDepth
	}
	p := &pipeline{in: make(chan *ivBatch, depth), free: make(chan *ivBatch, depth), done: make(chan struct{}), depth: depth}
	tb.keyCount = func() int { return p.keys }
	go func() {
		// A CPU profile of a build splits by stage (pprof -tagfocus).
		pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels("stage", "tree")))
		p.run(tb)
	}()
	return p
}

// next returns an empty batch for the caller to fill: a placed one, else
// a new one while fewer than p.depth exist, else it waits for the
// tree side to place one.
func (p *pipeline) next() *ivBatch {
	select {
	case bt := <-p.free:
		return bt
	default:
	}
	if p.made < p.depth {
		p.made++
		return &ivBatch{recs: make([]rec, 0, batchLen)}
	}
	return <-p.free
}

// run places every batch; after an error it only drains the queue.
func (p *pipeline) run(tb *treeBuilder) {
	defer close(p.done)
	for bt := range p.in {
		if bt.loadFirst && p.err == nil && !p.dropping.Load() {
			p.err = tb.loadBuffer()
		}
		mark := 0
		for i := 0; i < len(bt.recs) && p.err == nil && !p.dropping.Load(); i++ {
			for mark < len(bt.keys) && bt.keys[mark].at == i {
				p.keys = bt.keys[mark].n
				mark++
			}
			if p.err = tb.insert(&bt.recs[i], bt.strs); p.err != nil {
				p.failed.Store(true)
			}
		}
		bt.recs, bt.strs, bt.keys, bt.loadFirst = bt.recs[:0], bt.strs[:0], bt.keys[:0], false
		p.free <- bt
	}
}

// emit records the interval [start, end] of key with value v: in the
// summaries, and in the tree (queued, or held back when it is the key's
// first null: nulls.go).
func (b *Builder) emit(key core.Key, start, end core.Time, v core.Value) error {
	if b.sum != nil {
		if se, ok := b.sum.entry(b.tree, key, end, v); ok {
			b.sum.log(se)
		}
	}
	if b.holdNulls && start == b.start && v.IsNull() {
		return b.holdNull(key, end)
	}
	return b.send(key, start, end, v)
}

// send queues the interval [start, end] of key with value v for the tree.
func (b *Builder) send(key core.Key, start, end core.Time, v core.Value) error {
	if b.opts.sequential {
		b.strs = b.strs[:0]
		r := recFromValue(key, b.cls.class(key), start, end, v, &b.strs)
		return b.tb.insert(&r, b.strs)
	}
	if b.pipe == nil {
		b.pipe = newPipeline(b.tb, b.opts.queueDepth)
		b.cur = b.pipe.next()
	}
	bt := b.cur
	if n := b.tree.Len(); n != b.keysSent {
		bt.keys = append(bt.keys, keyMark{len(bt.recs), n})
		b.keysSent = n
	}
	bt.recs = append(bt.recs, recFromValue(key, b.cls.class(key), start, end, v, &bt.strs))
	if len(bt.recs) < batchLen {
		return nil
	}
	return b.handOver()
}

// handOver queues the batch being filled for the tree side and takes an
// empty one, unless the tree side stopped on an error.
func (b *Builder) handOver() error {
	if b.pipe.failed.Load() {
		return b.pipe.err
	}
	b.pipe.in <- b.cur
	b.cur = b.pipe.next()
	return nil
}

// sendLast sends the pending batch and closes the queue: the tree side
// then places what is queued and stops. Nothing may be emitted after it.
func (b *Builder) sendLast() {
	if b.pipe == nil || b.cur == nil {
		return
	}
	if len(b.cur.recs) > 0 {
		b.pipe.in <- b.cur
	}
	close(b.pipe.in)
	b.cur = nil
}

// cutBuffer makes the intervals sent from now on start a new R-buffer:
// the one being filled is loaded first (nulls.go).
func (b *Builder) cutBuffer() error {
	if b.pipe == nil { // sequential, or nothing sent yet: the tree builder is this goroutine's
		return b.tb.loadBuffer()
	}
	if len(b.cur.recs) > 0 {
		if err := b.handOver(); err != nil {
			return err
		}
	}
	b.cur.loadFirst = true
	return nil
}

// drain sends the pending batch, waits for the tree side to place
// everything and stops it. The tree builder is then the caller's again,
// with the current attribute count.
func (b *Builder) drain() error {
	if b.pipe == nil {
		return nil
	}
	b.sendLast()
	<-b.pipe.done
	err := b.pipe.err
	b.pipe = nil
	b.tb.keyCount = b.tree.Len
	return err
}
