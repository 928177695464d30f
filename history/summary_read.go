package history

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/tracetui/tracetui/core"
)

// summaryIndex is a decoded view of the summary section (doc.go,
// "Summaries"): the slices alias the section's bytes.
type summaryIndex struct {
	start, end core.Time
	keys       int // keys covered by the bitmap
	slots      int
	levels     []uint8
	words      []byte // u64 per 64 keys
	ranks      []byte // u32 per word
	ends       []byte // u32 per slot
	crcs       []byte // u32 per chunk of entries
	entries    []byte
	checked    []atomic.Uint64 // bit per chunk whose CRC matched
}

// decodeSummaryIndex checks the section's structure (not the entries'
// runs, checked when read) and returns its index.
func decodeSummaryIndex(b []byte) (*summaryIndex, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: summary section: %s", ErrCorrupt, fmt.Sprintf(format, a...))
	}
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
	nw := (x.keys + 63) / 64
	idx := uint64(nw)*12 + uint64(x.slots)*4 + uint64(nlev) + chunks*4
	if idx > uint64(len(b)-summaryTrailer) {
		return nil, bad("index of %d bytes in %d", idx, len(b))
	}
	pos := len(b) - summaryTrailer - int(idx)
	if got, want := crc32c(b[pos:len(b)-8]), le.Uint32(tr[32:]); got != want {
		return nil, bad("index checksum %08x, want %08x", got, want)
	}
	x.entries = b[:pos]
	x.words, pos = b[pos:pos+8*nw], pos+8*nw
	x.ranks, pos = b[pos:pos+4*nw], pos+4*nw
	x.ends, pos = b[pos:pos+4*x.slots], pos+4*x.slots
	x.levels, pos = b[pos:pos+nlev], pos+nlev
	x.crcs = b[pos : pos+4*int(chunks)]
	if want := (uint64(len(x.entries)) + 1<<summaryChunkShift - 1) >> summaryChunkShift; chunks != want {
		return nil, bad("%d chunk checksums for %d bytes of entries", chunks, len(x.entries))
	}
	x.checked = make([]atomic.Uint64, (chunks+63)/64)
	want := core.SummaryLevels(x.start, x.end)
	if string(x.levels) != string(want) {
		return nil, bad("levels %v, want %v for the bounds", x.levels, want)
	}
	n := uint32(0)
	for w := range nw {
		if le.Uint32(x.ranks[4*w:]) != n {
			return nil, bad("rank of word %d", w)
		}
		word := le.Uint64(x.words[8*w:])
		if w == nw-1 && x.keys%64 != 0 && word>>(x.keys%64) != 0 {
			return nil, bad("bits past the last key")
		}
		n += uint32(bits.OnesCount64(word))
	}
	if int(n) != x.slots {
		return nil, bad("%d keys marked, %d slots", n, x.slots)
	}
	prev := uint32(0)
	for i := range x.slots {
		e := le.Uint32(x.ends[4*i:])
		if e < prev || int(e) > len(x.entries) {
			return nil, bad("entry %d ends at %d", i, e)
		}
		prev = e
	}
	if int(prev) != len(x.entries) {
		return nil, bad("entries end at %d, index at %d", prev, len(x.entries))
	}
	return x, nil
}

// entry returns key's entry (its levels), or false when it has none,
// after checking the chunks it lies in.
func (x *summaryIndex) entry(key core.Key) ([]byte, bool, error) {
	if key < 0 || int(key) >= x.keys {
		return nil, false, nil
	}
	w, bit := int(key)/64, uint(key)%64
	word := le.Uint64(x.words[8*w:])
	if word&(1<<bit) == 0 {
		return nil, false, nil
	}
	r := int(le.Uint32(x.ranks[4*w:])) + bits.OnesCount64(word&(1<<bit-1))
	lo := 0
	if r > 0 {
		lo = int(le.Uint32(x.ends[4*(r-1):]))
	}
	hi := int(le.Uint32(x.ends[4*r:]))
	if lo == hi {
		return nil, false, nil
	}
	if err := x.verify(lo, hi); err != nil {
		return nil, false, err
	}
	return x.entries[lo:hi], true, nil
}

// verify checks the CRCs of the chunks of entries that [lo, hi) touches,
// each once: the section is not read whole when the tree opens (12 MB on
// gen --threads 200000, a few milliseconds of page faults on the first
// frame).
func (x *summaryIndex) verify(lo, hi int) error {
	for c := lo >> summaryChunkShift; c <= (hi-1)>>summaryChunkShift; c++ {
		w, bit := c/64, uint64(1)<<(c%64)
		if x.checked[w].Load()&bit != 0 {
			continue
		}
		s, e := c<<summaryChunkShift, min((c+1)<<summaryChunkShift, len(x.entries))
		if got, want := crc32c(x.entries[s:e]), le.Uint32(x.crcs[4*c:]); got != want {
			return fmt.Errorf("%w: summary section: chunk %d checksum %08x, want %08x", ErrCorrupt, c, got, want)
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
