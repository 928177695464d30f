package chrome

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"slices"
)

// External sort: the first pass appends records to an in-memory arena;
// when the arena is full it is sorted by (time, file rank) and written as
// one run to a temporary file. Next then merges the runs (k-way, by a
// small heap). Memory is bounded by the arena and one read buffer per run,
// whatever the size of the trace.

// sortKey locates one record of the arena. Records are appended in file
// order, so off doubles as the tie-break and the rank in the run.
type sortKey struct {
	ts  int64
	off uint32 // offset of the body in the arena
	n   uint32 // body length
}

// keyBytes is the memory of one sortKey, counted in the run budget.
const keyBytes = 16

// run is one sorted run in the temporary file.
type run struct {
	start, end int64 // byte range in the file
	records    int64
}

// runWriter accumulates records and spills sorted runs.
type runWriter struct {
	f       *os.File
	w       *bufio.Writer
	written int64
	arena   []byte
	keys    []sortKey
	budget  int // arena and key bytes per run
	runs    []run
	// firstSeq is the sum of the previous runs' arena sizes: with a
	// record's arena offset it gives a rank increasing in file order,
	// the merge's tie-break.
	firstSeq uint64
	scratch  [binary.MaxVarintLen64*2 + 8]byte
	sortedIn bool // input so far already in order (no sort needed)
	lastTS   int64
	lastSeq  uint64
}

// newRunWriter returns a writer whose runs hold at most budget bytes of
// records; sizeHint (the input size) avoids growing the arena by copies
// when the trace is smaller than a run.
func newRunWriter(f *os.File, budget int, sizeHint int64) *runWriter {
	rw := &runWriter{f: f, w: bufio.NewWriterSize(f, 1<<20), budget: budget, sortedIn: true}
	// Records are about a third of their JSON; keys a sixth of records.
	hint := int(min(int64(budget), max(sizeHint, 4096)))
	rw.arena = make([]byte, 0, hint*3/4+maxEventBytes/64)
	rw.keys = make([]sortKey, 0, hint/4/keyBytes+16)
	return rw
}

// add appends one record (the next in file order); body must be the
// encoding of the event.
func (rw *runWriter) add(ts int64, body []byte) error {
	if len(rw.keys) > 0 && (ts < rw.keys[len(rw.keys)-1].ts) {
		rw.sortedIn = false
	}
	rw.keys = append(rw.keys, sortKey{ts: ts, off: uint32(len(rw.arena)), n: uint32(len(body))})
	rw.arena = append(rw.arena, body...)
	if len(rw.arena)+keyBytes*len(rw.keys) >= rw.budget {
		return rw.spill()
	}
	return nil
}

// spill sorts the arena and writes it as one run.
func (rw *runWriter) spill() error {
	if len(rw.keys) == 0 {
		return nil
	}
	if !rw.sortedIn {
		slices.SortFunc(rw.keys, func(a, b sortKey) int {
			if a.ts != b.ts {
				if a.ts < b.ts {
					return -1
				}
				return 1
			}
			if a.off < b.off {
				return -1
			}
			return 1
		})
	}
	r := run{start: rw.written}
	for _, k := range rw.keys {
		hdr := binary.LittleEndian.AppendUint64(rw.scratch[:0], uint64(k.ts))
		hdr = binary.AppendUvarint(hdr, rw.firstSeq+uint64(k.off))
		hdr = binary.AppendUvarint(hdr, uint64(k.n))
		if _, err := rw.w.Write(hdr); err != nil {
			return fmt.Errorf("writing sort run: %w", err)
		}
		if _, err := rw.w.Write(rw.arena[k.off : k.off+k.n]); err != nil {
			return fmt.Errorf("writing sort run: %w", err)
		}
		rw.written += int64(len(hdr)) + int64(k.n)
	}
	r.end, r.records = rw.written, int64(len(rw.keys))
	rw.runs = append(rw.runs, r)
	rw.firstSeq += uint64(len(rw.arena))
	rw.keys, rw.arena, rw.sortedIn = rw.keys[:0], rw.arena[:0], true
	return nil
}

// close spills the last run and flushes the file.
func (rw *runWriter) close() error {
	if err := rw.spill(); err != nil {
		return err
	}
	if err := rw.w.Flush(); err != nil {
		return fmt.Errorf("writing sort run: %w", err)
	}
	rw.arena, rw.keys = nil, nil
	return nil
}

// runReader reads one run's records in order with positioned reads, so
// any number of runs share one file.
type runReader struct {
	f          io.ReaderAt
	run        run
	off        int64 // file offset of buf[0]
	buf        []byte
	pos, end   int
	headOff    int64 // file offset of the head record
	headTS     int64
	headSeq    uint64
	headBody   []byte
	ok         bool // head holds a record
	maxBody    int
	bufSize    int
	readFailed error
}

// seek positions the reader at file offset off (inside its run) and
// loads the head record.
func (rr *runReader) seek(off int64) error {
	if off < rr.run.start || off > rr.run.end {
		return errBadRecord
	}
	rr.off, rr.pos, rr.end = off, 0, 0
	return rr.advance()
}

// ensure makes at least n bytes available at pos (less at the run's end).
func (rr *runReader) ensure(n int) error {
	if rr.end-rr.pos >= n {
		return nil
	}
	if rr.pos > 0 {
		copy(rr.buf, rr.buf[rr.pos:rr.end])
		rr.off += int64(rr.pos)
		rr.end -= rr.pos
		rr.pos = 0
	}
	if n > len(rr.buf) {
		nb := make([]byte, max(n, rr.bufSize))
		copy(nb, rr.buf[:rr.end])
		rr.buf = nb
	}
	avail := rr.run.end - (rr.off + int64(rr.end))
	want := min(int64(len(rr.buf)-rr.end), avail)
	if want > 0 {
		m, err := rr.f.ReadAt(rr.buf[rr.end:rr.end+int(want)], rr.off+int64(rr.end))
		rr.end += m
		if m < int(want) {
			if err == nil {
				err = io.ErrUnexpectedEOF
			}
			return fmt.Errorf("reading sort run: %w", err)
		}
	}
	return nil
}

// advance loads the next record as head, or clears ok at the run's end.
func (rr *runReader) advance() error {
	rr.headOff = rr.off + int64(rr.pos)
	if rr.headOff >= rr.run.end {
		rr.ok = false
		return nil
	}
	if err := rr.ensure(8 + 2*binary.MaxVarintLen64); err != nil {
		return err
	}
	b := rr.buf[rr.pos:rr.end]
	if len(b) < 9 {
		return errBadRecord
	}
	ts := int64(binary.LittleEndian.Uint64(b))
	seq, n1 := binary.Uvarint(b[8:])
	if n1 <= 0 {
		return errBadRecord
	}
	blen, n2 := binary.Uvarint(b[8+n1:])
	if n2 <= 0 || blen > uint64(rr.maxBody) {
		return errBadRecord
	}
	hdr := 8 + n1 + n2
	total := hdr + int(blen)
	if rr.headOff+int64(total) > rr.run.end {
		return errBadRecord
	}
	if err := rr.ensure(total); err != nil {
		return err
	}
	rr.headTS, rr.headSeq = ts, seq
	rr.headBody = rr.buf[rr.pos+hdr : rr.pos+total]
	rr.pos += total
	rr.ok = true
	return nil
}

// before orders run heads by (time, file rank).
func (rr *runReader) before(o *runReader) bool {
	if rr.headTS != o.headTS {
		return rr.headTS < o.headTS
	}
	return rr.headSeq < o.headSeq
}

// mergeHeap is a binary min-heap of runs with a head record.
type mergeHeap []*runReader

func (h mergeHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h[r].before(h[l]) {
			m = r
		}
		if !h[m].before(h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

func (h mergeHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}
