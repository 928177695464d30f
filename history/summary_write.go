package history

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/tracetui/tracetui/core"
)

// SectionSummary is the name of the section that holds the level-of-detail
// summaries (format in doc.go, "Summaries").
const SectionSummary = "summary"

// Summary section constants.
const (
	summaryMagic   = "LOD2"
	summaryTrailer = 40 // start, end, keys, slots, chunks, levels, 3 zero bytes, index CRC, magic
	// summaryChunkShift: the section is checked by chunks of 64 KiB,
	// each on its first read (summaryIndex.verify).
	summaryChunkShift = 16
	// summaryCheckEvery is how many keys the summary pass computes between
	// two looks at the build's context (a few ms at most).
	summaryCheckEvery = 256
)

// writeSection computes every summarised key's levels from its recorded
// intervals and writes the summary section to w (the pass's goroutine,
// once the log is complete); it returns the section's length. The batches
// are computed by up to s.workers goroutines (summary_workers.go); the
// bytes do not depend on how many.
func (s *summaryBuild) writeSection(ctx context.Context, w io.Writer, end core.Time) (int64, error) {
	if s.err != nil {
		return 0, s.err
	}
	if err := s.flushParts(); err != nil {
		return 0, err
	}
	levels := core.SummaryLevels(s.start, end)
	out := &sectionWriter{w: bufio.NewWriterSize(w, 1<<16)}
	lens, err := s.computeEntries(ctx, out, end, levels)
	if err != nil {
		return 0, err
	}
	// The index: one allocation, the entries' ends written into it from
	// their lengths (4 bytes per slot each: 6.4 MB at 1.6 M threads).
	head := 8*len(s.words) + 4*len(s.ranks) + 4*len(lens) + len(levels)
	chunks := (out.size + uint64(head) + 1<<summaryChunkShift - 1) >> summaryChunkShift
	idx := make([]byte, 0, head+4*int(chunks)+summaryTrailer)
	for _, word := range s.words {
		idx = le.AppendUint64(idx, word)
	}
	for _, r := range s.ranks {
		idx = le.AppendUint32(idx, r)
	}
	size := uint64(0)
	for _, n := range lens {
		size += uint64(n)
		idx = le.AppendUint32(idx, uint32(size))
	}
	lens = nil
	idx = append(idx, levels...)
	out.sums.add(idx)
	crcs := out.sums.finish()
	tail := len(idx) // the trailer's CRC covers the chunks' CRCs and the trailer
	idx = append(idx, crcs...)
	idx = le.AppendUint64(idx, uint64(s.start))
	idx = le.AppendUint64(idx, uint64(end))
	idx = le.AppendUint32(idx, uint32(s.scanned))
	idx = le.AppendUint32(idx, uint32(s.nslots))
	idx = le.AppendUint32(idx, uint32(len(crcs)/4))
	idx = append(idx, byte(len(levels)), 0, 0, 0)
	idx = le.AppendUint32(idx, core.CRC32C(idx[tail:]))
	idx = append(idx, summaryMagic...)
	if _, err := out.w.Write(idx); err != nil {
		return 0, fmt.Errorf("history: summary section: %w", err)
	}
	if err := out.w.Flush(); err != nil {
		return 0, fmt.Errorf("history: summary section: %w", err)
	}
	return int64(size) + int64(len(idx)), nil
}

// sectionWriter writes the entries of the section, summing its chunks.
type sectionWriter struct {
	w    *bufio.Writer
	sums chunkSums
	size uint64
}

func (o *sectionWriter) Write(b []byte) (int, error) {
	if o.size += uint64(len(b)); o.size > math.MaxUint32 {
		return 0, fmt.Errorf("history: summary section over 4 GiB: build with fewer summarised keys")
	}
	o.sums.add(b)
	return o.w.Write(b)
}

// chunkSums computes the CRC32C of each chunk of 1<<summaryChunkShift
// bytes of what it is given.
type chunkSums struct {
	crcs []byte // u32 per whole chunk
	cur  uint32 // of the chunk being filled
	n    int    // its bytes
}

func (c *chunkSums) add(b []byte) {
	for len(b) > 0 {
		k := min(len(b), 1<<summaryChunkShift-c.n)
		c.cur = core.UpdateCRC32C(c.cur, b[:k])
		c.n += k
		b = b[k:]
		if c.n == 1<<summaryChunkShift {
			c.crcs = le.AppendUint32(c.crcs, c.cur)
			c.cur, c.n = 0, 0
		}
	}
}

// finish returns the CRCs, the last chunk's (shorter) included.
func (c *chunkSums) finish() []byte {
	if c.n > 0 {
		c.crcs = le.AppendUint32(c.crcs, c.cur)
		c.cur, c.n = 0, 0
	}
	return c.crcs
}

// sideEnd returns the end of the temporary section file, creating it.
func (b *Builder) sideEnd() (int64, error) {
	if b.side == nil {
		f, err := createTemp(b.path, ".sec")
		if err != nil {
			return 0, err
		}
		b.side = f
	}
	return b.side.Seek(0, io.SeekEnd)
}

// live returns the records of a slot that has a summary, 0 for a dropped
// one.
func (s *summaryBuild) live(slot int) uint32 {
	if slot >= len(s.counts)*sumSlotsPage { // no record reached the log
		return 0
	}
	n := *s.count(slot)
	if n&sumDroppedBit != 0 {
		return 0
	}
	return n
}

// logReader reads the change log back, one batch of slots at a time.
type logReader struct {
	s   *summaryBuild
	buf []byte
	// starts and vals hold a batch's changes, each slot's a run
	// (changes): two arrays, 9 bytes a change where []change took 16,
	// allocated to the batch's size (at most batchMax).
	starts []core.Time
	vals   []byte
	out    []changes
	// next and lim are, per slot of the batch, where its next record goes
	// in starts and vals and where its records end (lim == next: a
	// dropped slot).
	next, lim []int32
	// emit, when set, takes the records of a batch's one slot in place
	// of ivs (stream).
	emit func(end core.Time, v byte)
}

// stream gives the changes of one slot, in time order, to st, reading its
// log part once and keeping none of them.
func (r *logReader) stream(ctx context.Context, part *logPart, slot int, st *streamEncoder) error {
	prev := r.s.start
	r.next, r.lim = grow(r.next, 1), grow(r.lim, 1)
	r.next[0], r.lim[0] = 0, int32(r.s.live(slot))
	r.emit = func(end core.Time, v byte) {
		st.add(change{start: prev, v: v})
		prev = end + 1
	}
	defer func() { r.emit = nil }()
	return r.read(ctx, part, slot, slot+1)
}

// batch returns the intervals of slots lo..hi-1 (n records in all) from
// the log part that holds them, as changes in time order; nil for a
// dropped slot.
func (r *logReader) batch(ctx context.Context, part *logPart, lo, hi int, n int64) ([]changes, error) {
	s := r.s
	r.starts, r.vals = growAtMost(r.starts, int(n), s.batchMax), growAtMost(r.vals, int(n), s.batchMax)
	r.out = grow(r.out, hi-lo)
	r.next = grow(r.next, hi-lo)
	r.lim = grow(r.lim, hi-lo)
	at := int32(0)
	for i := lo; i < hi; i++ {
		c := int32(s.live(i))
		r.out[i-lo] = changes{}
		if c > 0 {
			r.out[i-lo] = changes{starts: r.starts[at : at+c], vals: r.vals[at : at+c]}
		}
		r.next[i-lo], r.lim[i-lo] = at, at+c
		at += c
	}
	if n > 0 {
		if err := r.read(ctx, part, lo, hi); err != nil {
			return nil, err
		}
	}
	// The records hold each interval's end: turn them into starts.
	for _, ch := range r.out {
		prev := s.start
		for j, e := range ch.starts {
			ch.starts[j] = prev
			prev = e + 1
		}
	}
	return r.out, nil
}

// read puts the records of a log part for slots lo..hi-1 in their slots'
// runs of starts and vals, each start holding the interval's end. The
// loop is the pass's hottest (a record in a few nanoseconds): the records
// are scattered here rather than handed to a callback.
func (r *logReader) read(ctx context.Context, part *logPart, lo, hi int) error {
	s := r.s
	src := part.reader(s.logFile.f)
	if r.buf == nil {
		r.buf = make([]byte, sumLogReadBuffer)
	}
	buf, pos, eof := r.buf[:0], 0, false
	end := s.start
	starts, vals, next, lim := r.starts, r.vals, r.next[:hi-lo], r.lim[:hi-lo]
	for rec := int64(0); rec < part.records; rec++ {
		if rec%(1<<16) == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("history: summary section: %w", err)
			}
		}
		if len(buf)-pos < sumMaxRecord && !eof {
			m := copy(r.buf, buf[pos:])
			k, err := io.ReadFull(src, r.buf[m:])
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				eof = true
			} else if err != nil {
				return fmt.Errorf("history: read the summaries' change log: %w", err)
			}
			buf, pos = r.buf[:m+k], 0
		}
		slot, a := binary.Uvarint(buf[pos:])
		delta, b := binary.Uvarint(buf[pos+max(a, 0):])
		if a <= 0 || b <= 0 || pos+a+b >= len(buf) || slot >= uint64(s.nslots) {
			return fmt.Errorf("history: the summaries' change log is damaged at record %d", rec)
		}
		v := buf[pos+a+b]
		pos += a + b + 1
		end += core.Time(delta)
		if i := int(slot) - lo; i >= 0 && i < len(next) {
			if at := next[i]; at < lim[i] {
				if r.emit != nil {
					r.emit(end, v)
				} else {
					starts[at], vals[at] = end, v
				}
				next[i] = at + 1
			}
		}
	}
	return nil
}

// appendUvarintBytes appends b preceded by its length.
func appendUvarintBytes(dst, b []byte) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(b))), b...)
}
