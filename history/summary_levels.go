package history

import (
	"encoding/binary"

	"github.com/tracetui/tracetui/core"
)

// bucketAcc accumulates one bucket of one key.
type bucketAcc struct {
	b       core.SummaryBucket
	durs    [256]core.Time
	touched []byte // values with a duration, in the order met
}

func (a *bucketAcc) begin(v byte, changedAtFirst bool) {
	for _, t := range a.touched {
		a.durs[t] = 0
	}
	a.touched = a.touched[:0]
	a.b = core.SummaryBucket{First: v, ChangedAtFirst: changedAtFirst}
}

func (a *bucketAcc) add(v byte, d core.Time) {
	if a.durs[v] == 0 {
		a.touched = append(a.touched, v)
	}
	a.durs[v] += d
}

// finish returns the bucket; the dominant is the value with the most time,
// the first met on a tie.
func (a *bucketAcc) finish() core.SummaryBucket {
	best := a.touched[0]
	for _, v := range a.touched[1:] {
		if a.durs[v] > a.durs[best] {
			best = v
		}
	}
	a.b.Dominant = best
	return a.b
}

// Coarser levels are kept only where they save reading: level j+1 of a
// key is stored when level j is, has more than entryMinRuns runs, and
// level j+1 takes at most half its bytes; otherwise its length is 0 and a
// reader uses the nearest finer level stored (the same few runs, finer).
// Most threads change a few times in a trace: their entry is then the
// finest level and a zero byte per coarser one.
const entryMinRuns = 8

// entryEncoder computes entries, reusing its buffers.
type entryEncoder struct {
	acc          bucketAcc
	entry, level []byte
	prev         []byte
}

// encode returns the entry of a key (its changes ch) for levels.
func (e *entryEncoder) encode(ch changes, end core.Time, levels []uint8) []byte {
	return e.assemble(len(levels), func(j int, dst []byte) ([]byte, int) {
		l := levelState{w: runWriter{dst: dst}, k: levels[j], acc: &e.acc}
		n := len(ch.starts)
		for i, start := range ch.starts {
			last := end
			if i+1 < n {
				last = ch.starts[i+1] - 1
			}
			l.step(i == 0, change{start: start, v: ch.vals[i]}, last)
		}
		return l.done()
	})
}

// assemble returns the entry made of the n levels that level(j, dst)
// appends to dst (with their runs), each asked for only when the levels
// before it leave it to be stored.
func (e *entryEncoder) assemble(n int, level func(j int, dst []byte) ([]byte, int)) []byte {
	e.entry = e.entry[:0]
	stored := true
	runs := 0
	for j := range n {
		if j > 0 && (!stored || runs <= entryMinRuns) {
			stored = false
			e.entry = append(e.entry, 0)
			continue
		}
		var n int
		e.level, n = level(j, e.level[:0])
		if j > 0 && 2*len(e.level) > len(e.prev) {
			stored = false
			e.entry = append(e.entry, 0)
			continue
		}
		e.entry = appendUvarintBytes(e.entry, e.level)
		e.prev, e.level = e.level, e.prev
		runs = n
	}
	return e.entry
}

// streamEncoder computes a key's entry from its changes given one at a
// time, every level at once: its memory is the levels' runs (at most
// core.SummaryMaxBuckets buckets each), not the key's changes. The pass
// uses it for a key with more changes than a batch holds (a busy CPU's
// row of a long capture: 6 M changes, 117 MB as a batch).
type streamEncoder struct {
	levels  []levelState
	pending change
	n       int // changes given
}

func newStreamEncoder(levels []uint8) *streamEncoder {
	st := &streamEncoder{levels: make([]levelState, len(levels))}
	for j, k := range levels {
		st.levels[j] = levelState{k: k, acc: &bucketAcc{}}
	}
	return st
}

// add takes the key's next change.
func (st *streamEncoder) add(c change) {
	if st.n > 0 {
		st.step(c.start - 1)
	}
	st.pending = c
	st.n++
}

func (st *streamEncoder) step(last core.Time) {
	for j := range st.levels {
		st.levels[j].step(st.n == 1, st.pending, last)
	}
}

// entry returns the key's entry, the history ending at end.
func (st *streamEncoder) entry(e *entryEncoder, end core.Time) []byte {
	if st.n > 0 {
		st.step(end)
	}
	return e.assemble(len(st.levels), func(j int, dst []byte) ([]byte, int) {
		b, n := st.levels[j].done()
		return append(dst, b...), n
	})
}

// runWriter appends runs of identical buckets (the record format is in
// doc.go, "Summaries").
type runWriter struct {
	dst   []byte
	cur   core.SummaryBucket
	count int64
	runs  int
}

func (w *runWriter) put(b core.SummaryBucket, n int64) {
	if w.count > 0 && b == w.cur {
		w.count += n
		return
	}
	w.flush()
	w.cur, w.count = b, n
}

func (w *runWriter) flush() {
	if w.count == 0 {
		return
	}
	w.dst = binary.AppendUvarint(w.dst, uint64(w.count))
	flags := byte(0)
	if w.cur.ChangedAtFirst {
		flags = 1
	}
	w.dst = append(w.dst, w.cur.First, w.cur.Dominant, w.cur.Changes, flags)
	w.count = 0
	w.runs++
}

// levelState computes the runs of one key at the level of shift k from
// its changes in time order (the first at the history's start), one at
// a time ([levelState.step]); [levelState.done] returns the runs, which
// cover the buckets from the one holding the first change's start to the
// one holding the last instant given, and their count.
type levelState struct {
	w    runWriter
	k    uint8
	acc  *bucketAcc
	open bool
	cur  core.Time // the open bucket
}

// step takes change c (first: the key's first), which lasts until last.
func (l *levelState) step(first bool, c change, last core.Time) {
	k, acc := l.k, l.acc
	s, e := c.start, last
	bs, be := s>>k, e>>k
	if !l.open || bs != l.cur {
		if l.open {
			l.w.put(acc.finish(), 1)
		}
		l.open, l.cur = true, bs
		acc.begin(c.v, !first && s == bs<<k)
	} else {
		acc.b.Changes = min(acc.b.Changes, 254) + 1 // starts strictly inside (saturating)
	}
	if be == bs {
		acc.add(c.v, e-s+1)
		return
	}
	acc.add(c.v, (bs+1)<<k-s)
	l.w.put(acc.finish(), 1)
	if be > bs+1 {
		l.w.put(core.SummaryBucket{First: c.v, Dominant: c.v}, int64(be-bs-1))
	}
	l.cur = be
	acc.begin(c.v, false)
	acc.add(c.v, e-be<<k+1)
}

// done closes the open bucket and returns the runs and their count.
func (l *levelState) done() ([]byte, int) {
	if l.open {
		l.w.put(l.acc.finish(), 1)
		l.open = false
	}
	l.w.flush()
	return l.w.dst, l.w.runs
}
