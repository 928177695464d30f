package perfdata

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// The records of a perf.data file are in the order perf read its CPUs'
// ring buffers: time-ordered per buffer, not across them. perf record
// writes a FINISHED_ROUND after each pass over the buffers, and nothing
// after a round marker is older than what came before the previous one.
// Like perf, the reader queues timed records and, at each round marker,
// delivers the queued ones up to the largest time queued before the
// previous marker (equal times in file order); records without a time (or
// at time 0: perf's synthesized start-up records) are delivered as read.
// A record older than one already delivered (which perf would deliver at
// the next round, out of order) is delivered as read, counted in a
// warning, so times never go back.

// queued is a record waiting in the queue, its bytes copied.
type queued struct {
	t    uint64
	at   pos
	typ  uint32
	misc uint16
	data []byte
	done bool
}

func (q *queued) less(o *queued) bool {
	return q.t < o.t || q.t == o.t && q.at.less(o.at)
}

// sortKey orders queued records by time, then file order (mergeRuns
// sorts by it).
func sortKey(a, b *queued) int {
	switch {
	case a.less(b):
		return -1
	case b.less(a):
		return 1
	}
	return 0
}

// orderState is what a checkpoint keeps of the queue: the queue itself
// is the timed records read since replay (the earliest queued record)
// whose key is above lastKey.
type orderState struct {
	replay    pos    // the first record to read again on Seek
	lastRead  pos    // the last record read
	lastT     uint64 // key of the last record delivered from the queue
	lastAt    pos
	hasLast   bool
	flushing  bool   // delivering the queued records up to limit
	limit     uint64 // the current round's limit
	nextFlush uint64 // the next round's limit (perf's next_flush)
	maxT      uint64 // the largest time queued (perf's max_timestamp)
	time      uint64 // the last time delivered (events' times never go back)
	started   bool   // a record was read
	eof       bool   // the stream is exhausted: the queue is delivered whole
}

// queue orders records as described above: the records waiting, in file
// order, and the batch a round delivers, sorted.
type queue struct {
	rest  []*queued // waiting for a later round, in file order
	batch []*queued // this round's, sorted; batch[bi:] not delivered yet
	spare []*queued // mergeRuns's scratch
	bi    int
	fifo  []*queued // queued records in file order, delivered ones trimmed from the front
	st    orderState
	late  int64    // records delivered as read because older than the queue's last delivery
	bytes int      // bytes of the records queued
	slab  []queued // queued records are allocated from slabs
	arena []byte   // and their bytes from arenas (a record's bytes stay
	// valid while a batch holds it: an arena is never written again once
	// full, and the GC frees it with its last record)
	scratch queued
}

// push queues a timed record (copying its bytes), or returns false when it
// must be delivered as read.
func (q *queue) push(rec record, t uint64) bool {
	if t == 0 || t == ^uint64(0) {
		return false
	}
	if q.st.hasLast && (t < q.st.lastT || t == q.st.lastT && rec.at.less(q.st.lastAt)) {
		q.late++
		return false
	}
	e := q.alloc()
	*e = queued{t: t, at: rec.at, typ: rec.typ, misc: rec.misc, data: q.copyBytes(rec.data)}
	if q.empty() {
		q.st.maxT = t
	} else {
		q.st.maxT = max(q.st.maxT, t)
	}
	q.rest = append(q.rest, e)
	q.fifo = append(q.fifo, e)
	q.bytes += len(e.data)
	if q.bytes > maxQueueBytes && !q.st.flushing {
		q.half()
	}
	return true
}

// maxQueueBytes bounds the queue: a file without round markers (or with
// rounds larger than this) is delivered half a queue at a time, as perf
// does when its queue is full.
var maxQueueBytes = 64 << 20

// half delivers the queued records up to the middle of their time span
// (perf's HALF flush, whose limit stays the next round's).
func (q *queue) half() {
	first := q.rest[0].t
	for _, e := range q.rest {
		first = min(first, e.t)
	}
	mid := first + (q.st.maxT-first)/2
	q.st.flushing, q.st.limit, q.st.nextFlush = true, mid, mid
	q.fill()
}

// empty reports whether no record waits.
func (q *queue) empty() bool { return len(q.rest) == 0 && q.bi == len(q.batch) }

// fill moves the waiting records the round delivers (all of them at the
// end of the data) to the batch, sorted.
func (q *queue) fill() {
	q.batch, q.bi = q.batch[:0], 0
	keep := q.rest[:0]
	for _, e := range q.rest {
		if q.st.eof || q.st.limit != 0 && e.t <= q.st.limit {
			q.batch = append(q.batch, e)
		} else {
			keep = append(keep, e)
		}
	}
	clear(q.rest[len(keep):])
	q.rest = keep
	q.batch, q.spare = mergeRuns(q.batch, q.spare)
}

// mergeRuns sorts b by sortKey and returns it with the scratch slice to
// keep for the next call (either may be the other's array). A round's
// records are a few ascending runs, one per ring buffer read (and the
// previous round's leftovers): merging the runs takes a pass per halving
// of their number, where a comparison sort took a tenth of an index
// build (sched record of 1.5 M events, 0.13 of 1.3 s of CPU).
func mergeRuns(b, scratch []*queued) (sorted, spare []*queued) {
	var ends []int // the end of each run
	for i := 1; i <= len(b); i++ {
		if i == len(b) || b[i].less(b[i-1]) {
			ends = append(ends, i)
		}
	}
	if len(ends) <= 1 {
		return b, scratch
	}
	scratch = slices.Grow(scratch[:0], len(b))[:len(b)]
	src, dst := b, scratch
	for len(ends) > 1 {
		merged := ends[:0]
		from := 0
		for k := 0; k < len(ends); k += 2 {
			if k+1 == len(ends) { // an odd run out: copied as it is
				copy(dst[from:ends[k]], src[from:ends[k]])
				merged = append(merged, ends[k])
				break
			}
			mid, end := ends[k], ends[k+1]
			i, j, o := from, mid, from
			for i < mid && j < end {
				if src[j].less(src[i]) {
					dst[o], j = src[j], j+1
				} else {
					dst[o], i = src[i], i+1
				}
				o++
			}
			o += copy(dst[o:], src[i:mid])
			copy(dst[o:], src[j:end])
			merged = append(merged, end)
			from = end
		}
		ends = merged
		src, dst = dst, src
	}
	clear(dst) // no record kept alive by the scratch
	return src, dst[:0]
}

// round handles a FINISHED_ROUND.
func (q *queue) round() {
	if q.empty() {
		return
	}
	q.st.flushing, q.st.limit = true, q.st.nextFlush
	q.st.nextFlush = q.st.maxT
	q.fill()
}

// finish delivers every record left, at the end of the data.
func (q *queue) finish() {
	q.st.eof = true
	q.fill()
}

// pop returns the next record to deliver from the queue, nil when the
// queue has none to deliver now (more must be read).
func (q *queue) pop() *queued {
	if q.bi == len(q.batch) {
		q.st.flushing = false
		return nil
	}
	top := q.batch[q.bi]
	q.batch[q.bi] = nil
	q.bi++
	q.bytes -= len(top.data)
	top.done = true
	q.st.lastT, q.st.lastAt, q.st.hasLast = top.t, top.at, true
	k := 0
	for k < len(q.fifo) && q.fifo[k].done {
		k++
	}
	if k > 0 {
		clear(q.fifo[:k])
		q.fifo = q.fifo[k:]
	}
	return top
}

// release drops a delivered record's bytes.
func (q *queue) release(e *queued) { e.data = nil }

// alloc returns a queued record from the current slab.
func (q *queue) alloc() *queued {
	if len(q.slab) == 0 {
		q.slab = make([]queued, 1024)
	}
	e := &q.slab[0]
	q.slab = q.slab[1:]
	return e
}

// copyBytes copies a record's bytes into the current arena.
func (q *queue) copyBytes(b []byte) []byte {
	if len(b) > 16<<10 {
		return append([]byte(nil), b...)
	}
	if cap(q.arena)-len(q.arena) < len(b) {
		q.arena = make([]byte, 0, 256<<10)
	}
	start := len(q.arena)
	q.arena = append(q.arena, b...)
	return q.arena[start:len(q.arena):len(q.arena)]
}

// checkpoint appends the queue's state.
func (q *queue) checkpoint(dst []byte) []byte {
	st := q.st
	st.replay = st.lastRead
	if len(q.fifo) > 0 {
		st.replay = q.fifo[0].at
	}
	le := binary.LittleEndian
	flags := byte(0)
	for i, b := range []bool{st.hasLast, st.flushing, st.started, st.eof} {
		if b {
			flags |= 1 << i
		}
	}
	dst = append(dst, flags)
	for _, p := range []pos{st.replay, st.lastRead, st.lastAt} {
		dst = le.AppendUint64(dst, uint64(p.off))
		dst = le.AppendUint32(dst, uint32(p.inner))
	}
	for _, v := range []uint64{st.lastT, st.limit, st.nextFlush, st.maxT, st.time} {
		dst = le.AppendUint64(dst, v)
	}
	return dst
}

const checkpointLen = 1 + 3*12 + 5*8

// ErrBadCheckpoint is wrapped by Seek errors for checkpoints this trace
// did not produce.
var ErrBadCheckpoint = errors.New("bad checkpoint")

// decodeCheckpoint reads a state written by checkpoint.
func decodeCheckpoint(b []byte) (orderState, error) {
	var st orderState
	if len(b) != checkpointLen {
		return st, fmt.Errorf("%w: %d bytes", ErrBadCheckpoint, len(b))
	}
	le := binary.LittleEndian
	flags := b[0]
	st.hasLast, st.flushing, st.started, st.eof = flags&1 != 0, flags&2 != 0, flags&4 != 0, flags&8 != 0
	b = b[1:]
	ps := make([]pos, 3)
	for i := range ps {
		ps[i] = pos{off: int64(le.Uint64(b)), inner: int32(le.Uint32(b[8:]))}
		b = b[12:]
	}
	st.replay, st.lastRead, st.lastAt = ps[0], ps[1], ps[2]
	vs := make([]uint64, 5)
	for i := range vs {
		vs[i] = le.Uint64(b)
		b = b[8:]
	}
	st.lastT, st.limit, st.nextFlush, st.maxT, st.time = vs[0], vs[1], vs[2], vs[3], vs[4]
	return st, nil
}

// reset empties the queue.
func (q *queue) reset() {
	q.rest, q.batch, q.bi = q.rest[:0], q.batch[:0], 0
	q.fifo = q.fifo[:0]
	q.st = orderState{}
	q.bytes = 0
}

// pushReplay queues a record read again by Seek (the state is set after).
func (q *queue) pushReplay(rec record, t uint64) {
	e := &queued{t: t, at: rec.at, typ: rec.typ, misc: rec.misc, data: append([]byte(nil), rec.data...)}
	q.rest = append(q.rest, e)
	q.fifo = append(q.fifo, e)
	q.bytes += len(e.data)
}

// restore sets the state of a checkpoint after its records were queued
// again: the round being delivered then is delivered on.
func (q *queue) restore(st orderState) {
	q.st = st
	if st.flushing || st.eof {
		q.fill()
	}
}
