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
func (e *entryEncoder) encode(ch []change, end core.Time, levels []uint8) []byte {
	e.entry = e.entry[:0]
	stored := true
	runs := 0
	for j, k := range levels {
		if j > 0 && (!stored || runs <= entryMinRuns) {
			stored = false
			e.entry = append(e.entry, 0)
			continue
		}
		var n int
		e.level, n = appendLevel(e.level[:0], ch, end, k, &e.acc)
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

// appendLevel appends the runs of one key at the level of shift k to dst:
// ch are its changes in time order (the first at the history's start),
// end the history's last instant. The runs cover the buckets from the one
// holding ch[0].start to the one holding end; it also returns their count.
func appendLevel(dst []byte, ch []change, end core.Time, k uint8, acc *bucketAcc) ([]byte, int) {
	w := runWriter{dst: dst}
	open, cur := false, core.Time(0)
	for i, c := range ch {
		s, e := c.start, end
		if i+1 < len(ch) {
			e = ch[i+1].start - 1
		}
		bs, be := s>>k, e>>k
		if !open || bs != cur {
			if open {
				w.put(acc.finish(), 1)
			}
			open, cur = true, bs
			acc.begin(c.v, i > 0 && s == bs<<k)
		} else {
			acc.b.Changes = min(acc.b.Changes, 254) + 1 // starts strictly inside (saturating)
		}
		if be == bs {
			acc.add(c.v, e-s+1)
			continue
		}
		acc.add(c.v, (bs+1)<<k-s)
		w.put(acc.finish(), 1)
		if be > bs+1 {
			w.put(core.SummaryBucket{First: c.v, Dominant: c.v}, int64(be-bs-1))
		}
		cur = be
		acc.begin(c.v, false)
		acc.add(c.v, e-be<<k+1)
	}
	if open {
		w.put(acc.finish(), 1)
	}
	w.flush()
	return w.dst, w.runs
}
