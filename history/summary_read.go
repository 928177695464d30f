package history

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/tracetui/tracetui/core"
)

// summaryIndex is a decoded view of the summary section (doc.go,
// "Summaries"): the slices alias the section's bytes. Only the trailer,
// the chunks' CRCs and the levels are checked when it is decoded; the
// bytes a query reads are checked by chunks as it first reads them
// (verify), and their structure locally (entry); Check checks it all
// (checkStructure).
type summaryIndex struct {
	start, end core.Time
	keys       int // keys covered by the bitmap
	slots      int
	levels     []uint8
	words      []byte // u64 per 64 keys
	ranks      []byte // u32 per word
	ends       []byte // u32 per slot
	entries    []byte
	// Offsets of words, ranks and ends in the section, which chunks
	// count from.
	wordsOff, ranksOff, endsOff int
	crcs                        []byte          // u32 per chunk
	checked                     []atomic.Uint64 // bit per chunk whose CRC matched
	covered                     []byte          // the bytes the chunks cover
}

func badSummary(format string, a ...any) error {
	return fmt.Errorf("%w: summary section: %s", ErrCorrupt, fmt.Sprintf(format, a...))
}

// decodeSummaryIndex checks the section's trailer, the chunks' CRCs and
// the levels, and returns its index: O(1) in the keys, so that opening a
// trace of millions of threads does not read megabytes of summaries.
func decodeSummaryIndex(b []byte) (*summaryIndex, error) {
	bad := badSummary
	if len(b) < summaryTrailer {
		return nil, bad("%d bytes, shorter than its trailer", len(b))
	}
	tr := b[len(b)-summaryTrailer:]
	if string(tr[36:]) != summaryMagic || tr[29] != 0 || tr[30] != 0 || tr[31] != 0 {
		return nil, bad("no trailer")
	}
	x := &summaryIndex{start: core.Time(le.Uint64(tr)), end: core.Time(le.Uint64(tr[8:])),
		keys: int(le.Uint32(tr[16:])), slots: int(le.Uint32(tr[20:]))}
	chunks, nlev := uint64(le.Uint32(tr[24:])), int(tr[28])
	if x.start < 0 || x.end < x.start {
		return nil, bad("bounds [%d, %d]", x.start, x.end)
	}
	if chunks*4 > uint64(len(b)-summaryTrailer) {
		return nil, bad("%d chunk checksums in %d bytes", chunks, len(b))
	}
	x.covered = b[:len(b)-summaryTrailer-int(chunks)*4]
	x.crcs = b[len(x.covered) : len(b)-summaryTrailer]
	if got, want := core.CRC32C(b[len(x.covered):len(b)-8]), le.Uint32(tr[32:]); got != want {
		return nil, bad("trailer checksum %08x, want %08x", got, want)
	}
	if want := (uint64(len(x.covered)) + 1<<summaryChunkShift - 1) >> summaryChunkShift; chunks != want {
		return nil, bad("%d chunk checksums for %d bytes", chunks, len(x.covered))
	}
	nw := (x.keys + 63) / 64
	idx := uint64(nw)*12 + uint64(x.slots)*4 + uint64(nlev)
	if idx > uint64(len(x.covered)) {
		return nil, bad("index of %d bytes in %d", idx, len(x.covered))
	}
	pos := len(x.covered) - int(idx)
	x.entries = b[:pos]
	x.wordsOff = pos
	x.words, pos = b[pos:pos+8*nw], pos+8*nw
	x.ranksOff = pos
	x.ranks, pos = b[pos:pos+4*nw], pos+4*nw
	x.endsOff = pos
	x.ends, pos = b[pos:pos+4*x.slots], pos+4*x.slots
	x.levels = b[pos : pos+nlev]
	x.checked = make([]atomic.Uint64, (chunks+63)/64)
	if err := x.verify(pos, pos+nlev); err != nil {
		return nil, err
	}
	want := core.SummaryLevels(x.start, x.end)
	if string(x.levels) != string(want) {
		return nil, bad("levels %v, want %v for the bounds", x.levels, want)
	}
	return x, nil
}

// checkStructure checks every chunk and what entry checks only locally:
// the ranks count the bits before them, no bit is set past the last key,
// the entries' ends increase up to the end of the entries.
func (x *summaryIndex) checkStructure() error {
	bad := badSummary
	if err := x.verify(0, len(x.covered)); err != nil {
		return err
	}
	nw := (x.keys + 63) / 64
	n := uint32(0)
	for w := range nw {
		if le.Uint32(x.ranks[4*w:]) != n {
			return bad("rank of word %d", w)
		}
		word := le.Uint64(x.words[8*w:])
		if w == nw-1 && x.keys%64 != 0 && word>>(x.keys%64) != 0 {
			return bad("bits past the last key")
		}
		n += uint32(bits.OnesCount64(word))
	}
	if int(n) != x.slots {
		return bad("%d keys marked, %d slots", n, x.slots)
	}
	prev := uint32(0)
	for i := range x.slots {
		e := le.Uint32(x.ends[4*i:])
		if e < prev || int(e) > len(x.entries) {
			return bad("entry %d ends at %d", i, e)
		}
		prev = e
	}
	if int(prev) != len(x.entries) {
		return bad("entries end at %d, index at %d", prev, len(x.entries))
	}
	return nil
}

// entry returns key's entry (its levels), or false when it has none,
// after checking the chunks of every byte it read.
func (x *summaryIndex) entry(key core.Key) ([]byte, bool, error) {
	if key < 0 || int(key) >= x.keys {
		return nil, false, nil
	}
	w, bit := int(key)/64, uint(key)%64
	if err := x.verify(x.wordsOff+8*w, x.wordsOff+8*w+8); err != nil {
		return nil, false, err
	}
	word := le.Uint64(x.words[8*w:])
	if word&(1<<bit) == 0 {
		return nil, false, nil
	}
	if err := x.verify(x.ranksOff+4*w, x.ranksOff+4*w+4); err != nil {
		return nil, false, err
	}
	r := int(le.Uint32(x.ranks[4*w:])) + bits.OnesCount64(word&(1<<bit-1))
	if r >= x.slots {
		return nil, false, badSummary("key %d at slot %d of %d", key, r, x.slots)
	}
	if err := x.verify(x.endsOff+4*max(r-1, 0), x.endsOff+4*r+4); err != nil {
		return nil, false, err
	}
	lo := 0
	if r > 0 {
		lo = int(le.Uint32(x.ends[4*(r-1):]))
	}
	hi := int(le.Uint32(x.ends[4*r:]))
	if lo > hi || hi > len(x.entries) {
		return nil, false, badSummary("key %d's entry at [%d, %d) of %d bytes", key, lo, hi, len(x.entries))
	}
	if lo == hi {
		return nil, false, nil
	}
	if err := x.verify(lo, hi); err != nil {
		return nil, false, err
	}
	return x.entries[lo:hi], true, nil
}

// verify checks the CRCs of the chunks that the section's bytes [lo, hi)
// touch, each once.
func (x *summaryIndex) verify(lo, hi int) error {
	if lo >= hi {
		return nil
	}
	for c := lo >> summaryChunkShift; c <= (hi-1)>>summaryChunkShift; c++ {
		w, bit := c/64, uint64(1)<<(c%64)
		if x.checked[w].Load()&bit != 0 {
			continue
		}
		s, e := c<<summaryChunkShift, min((c+1)<<summaryChunkShift, len(x.covered))
		if got, want := core.CRC32C(x.covered[s:e]), le.Uint32(x.crcs[4*c:]); got != want {
			return badSummary("chunk %d checksum %08x, want %08x", c, got, want)
		}
		x.checked[w].Or(bit)
	}
	return nil
}

// level returns the runs of the level of an entry a reader asking for
// level li uses: li itself, or the nearest finer level stored (a coarser
// level that would not save reading is stored empty, see entryEncoder),
// and that level's index.
func (x *summaryIndex) level(e []byte, li int) ([]byte, int, error) {
	var runs []byte
	at := -1
	for i := 0; i <= li; i++ {
		n, m := binary.Uvarint(e)
		if m <= 0 || n > uint64(len(e)-m) || i == 0 && n == 0 {
			return nil, 0, fmt.Errorf("%w: summary section: level %d length", ErrCorrupt, i)
		}
		if n > 0 {
			runs, at = e[m:m+int(n)], i
		}
		e = e[m+int(n):]
	}
	return runs, at, nil
}

// readRuns decodes the runs of one level of shift k (which must cover the
// buckets of [x.start, x.end] exactly) and calls fn with those that
// overlap [t0, t1]; it returns the runs decoded.
func (x *summaryIndex) readRuns(runs []byte, k uint8, t0, t1 core.Time, fn func(core.SummaryRun) bool) (int, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: summary section: %s", ErrCorrupt, fmt.Sprintf(format, a...))
	}
	next, last := x.start>>k, x.end>>k
	n := 0
	for len(runs) > 0 {
		c, m := binary.Uvarint(runs)
		if m <= 0 || c == 0 || c > uint64(last-next+1) || len(runs)-m < 4 {
			return n, bad("run at bucket %d", next)
		}
		p := runs[m : m+4]
		runs = runs[m+4:]
		if p[0] > core.SummaryNull || p[1] > core.SummaryNull || p[3] > 1 {
			return n, bad("bucket bytes %v at bucket %d", p, next)
		}
		n++
		r := core.SummaryRun{Start: next << k, Shift: k, Count: int64(c),
			Bucket: core.SummaryBucket{First: p[0], Dominant: p[1], Changes: p[2], ChangedAtFirst: p[3] == 1}}
		next += core.Time(c)
		if r.End() >= t0 && !fn(r) {
			return n, nil
		}
		if r.End() >= t1 {
			return n, nil
		}
	}
	if next != last+1 {
		return n, bad("runs end at bucket %d, want %d", next, last+1)
	}
	return n, nil
}
