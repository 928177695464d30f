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

// runWriter appends runs of identical buckets (the record format is in
// doc.go, "Summaries").
type runWriter struct {
	dst   []byte
	cur   core.SummaryBucket
	count int64
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
}

// appendLevel appends the runs of one key at the level of shift k to dst:
// ch are its changes in time order (the first at the history's start),
// end the history's last instant. The runs cover the buckets from the one
// holding ch[0].start to the one holding end.
func appendLevel(dst []byte, ch []change, end core.Time, k uint8, acc *bucketAcc) []byte {
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
	return w.dst
}
