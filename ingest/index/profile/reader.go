package profile

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/tracetui/tracetui/core"
)

// maxTables bounds what Open reads into memory: the tables of a real
// profile take a few MB (a directory line per 64 k samples, 8 bytes a
// thread and a call path, the names).
const maxTables = 1 << 30

// Profile is a profile section opened for reading: the trie of call
// paths, the threads and the blocks' directory in memory, the samples
// read on demand. It implements ingest/query/calltree's Paths. Its
// methods may be called from several goroutines at once.
type Profile struct {
	r      io.ReaderAt // the section
	check  func(error) error
	hdr    header
	dir    []blockEntry
	tids   []int64 // by thread number
	number map[int64]uint32
	sorted []int64
	parent []int32
	name   []uint32
	ends   []uint32 // of each name in names
	names  string
}

// Empty is a profile without samples (a trace that recorded no stacks).
func Empty() *Profile { return &Profile{number: map[int64]uint32{}} }

// Open reads the header and tables of the profile section of size bytes
// in r; the samples are read by Count. It fails with ErrCorrupt or
// ErrVersion. Count passes the errors of reading a damaged block
// through check (nil: as they are), which lets the index mark itself
// damaged.
func Open(r io.ReaderAt, size int64, check func(error) error) (*Profile, error) {
	var hb [headerSize]byte
	if size < headerSize {
		return nil, fmt.Errorf("%w: %d bytes", ErrCorrupt, size)
	}
	if err := readAt(r, hb[:], 0); err != nil {
		return nil, fmt.Errorf("profile: reading the header: %w", err)
	}
	h, err := decodeHeader(hb[:], size)
	if err != nil {
		return nil, err
	}
	n := h.tablesSize()
	if n > maxTables {
		return nil, fmt.Errorf("%w: %d bytes of tables", ErrCorrupt, n)
	}
	tables := make([]byte, n)
	if err := readAt(r, tables, int64(headerSize+h.blockBytes)); err != nil {
		return nil, fmt.Errorf("profile: reading the tables: %w", err)
	}
	if checksum(hb[:], tables) != binary.LittleEndian.Uint32(hb[12:]) {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	if check == nil {
		check = func(err error) error { return err }
	}
	p := &Profile{r: r, hdr: h, check: check}
	if err := p.decodeTables(tables); err != nil {
		return nil, err
	}
	return p, nil
}

// decodeTables fills p from the tables' bytes, checking every value a
// query relies on.
func (p *Profile) decodeTables(b []byte) error {
	h := &p.hdr
	p.dir = make([]blockEntry, h.blocks)
	at, total := uint64(0), uint64(0)
	for i := range p.dir {
		e := decodeEntry(b[i*entrySize:])
		if e.off != at || e.n == 0 || e.n > BlockLen || e.runs == 0 || e.runs > e.n || e.last < e.first ||
			(i > 0 && e.first < p.dir[i-1].last) {
			return fmt.Errorf("%w: block %d: offset %d, %d runs of %d samples, from %d to %d", ErrCorrupt, i, e.off, e.runs, e.n, e.first, e.last)
		}
		at += blockSize(e)
		total += uint64(e.n)
		p.dir[i] = e
	}
	if at != h.blockBytes || total != h.samples {
		return fmt.Errorf("%w: blocks of %d bytes and %d samples, the header says %d and %d", ErrCorrupt, at, total, h.blockBytes, h.samples)
	}
	b = b[h.blocks*entrySize:]
	p.tids = make([]int64, h.threads)
	p.number = make(map[int64]uint32, h.threads)
	for i := range p.tids {
		p.tids[i] = int64(binary.LittleEndian.Uint64(b[i*8:]))
		if _, dup := p.number[p.tids[i]]; dup {
			return fmt.Errorf("%w: thread %d twice", ErrCorrupt, p.tids[i])
		}
		p.number[p.tids[i]] = uint32(i)
	}
	p.sorted = slices.Sorted(func(yield func(int64) bool) {
		for _, t := range p.tids {
			if !yield(t) {
				return
			}
		}
	})
	b = b[h.threads*8:]
	p.parent, p.name = make([]int32, h.paths), make([]uint32, h.paths)
	for i := range p.parent {
		p.parent[i] = int32(binary.LittleEndian.Uint32(b[i*8:]))
		p.name[i] = binary.LittleEndian.Uint32(b[i*8+4:])
		if p.parent[i] < -1 || p.parent[i] >= int32(i) || p.name[i] >= h.names {
			return fmt.Errorf("%w: call path %d: caller %d, name %d", ErrCorrupt, i, p.parent[i], p.name[i])
		}
	}
	b = b[h.paths*8:]
	p.ends = make([]uint32, h.names)
	end := uint32(0)
	for i := range p.ends {
		e := binary.LittleEndian.Uint32(b[i*4:])
		if e < end || uint64(e) > h.nameBytes {
			return fmt.Errorf("%w: name %d ends at %d", ErrCorrupt, i, e)
		}
		p.ends[i], end = e, e
	}
	if uint64(end) != h.nameBytes {
		return fmt.Errorf("%w: names end at %d of %d bytes", ErrCorrupt, end, h.nameBytes)
	}
	p.names = string(b[h.names*4:])
	return nil
}

// readAt reads len(b) bytes at off; io.EOF with every byte read is no
// error (io.ReaderAt allows it), and nothing to read is not an error.
func readAt(r io.ReaderAt, b []byte, off int64) error {
	if len(b) == 0 {
		return nil
	}
	n, err := r.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// blockSize is the size of a block's bytes.
func blockSize(e blockEntry) uint64 { return 4 + 8*uint64(e.runs) + 12*uint64(e.n) }

// Len returns the number of call paths.
func (p *Profile) Len() int { return len(p.parent) }

// Parent returns the caller's path of path i, -1 for an outermost frame.
func (p *Profile) Parent(i int32) int32 { return p.parent[i] }

// Name returns the function of path i's last frame.
func (p *Profile) Name(i int32) string {
	k := p.name[i]
	from := uint32(0)
	if k > 0 {
		from = p.ends[k-1]
	}
	return p.names[from:p.ends[k]]
}

// Samples returns the number of samples.
func (p *Profile) Samples() int64 { return int64(p.hdr.samples) }

// Threads returns the ids of the threads with samples, ascending.
func (p *Profile) Threads() []int64 { return p.sorted }

// Count returns, for each path, the number of samples of threads tids
// (nil: every thread) in [from, to) that stopped there (the path is
// their stack). It fails with ctx's error when cancelled, and with
// ErrCorrupt for a damaged block.
func (p *Profile) Count(ctx context.Context, from, to core.Time, tids []int64) ([]int64, error) {
	self := make([]int64, len(p.parent))
	var want []bool // by thread number; nil: every thread
	if tids != nil {
		want = make([]bool, len(p.tids))
		for _, tid := range tids {
			if k, ok := p.number[tid]; ok {
				want[k] = true
			}
		}
	}
	first := sort.Search(len(p.dir), func(i int) bool { return p.dir[i].last >= from })
	var buf []byte
	for i := first; i < len(p.dir) && p.dir[i].first < to; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e := p.dir[i]
		buf = slices.Grow(buf[:0], int(blockSize(e)))[:blockSize(e)]
		if err := readAt(p.r, buf, int64(headerSize+e.off)); err != nil {
			return nil, p.check(fmt.Errorf("profile: reading block %d: %w", i, err))
		}
		if core.CRC32C(buf) != e.crc {
			return nil, p.check(fmt.Errorf("profile: block %d: %w: checksum mismatch", i, ErrCorrupt))
		}
		if err := p.countBlock(self, buf, e, from, to, want); err != nil {
			return nil, p.check(fmt.Errorf("profile: block %d: %w", i, err))
		}
	}
	return self, nil
}

// countBlock adds to self the samples of block b (entry e) in [from, to)
// of the threads wanted.
func (p *Profile) countBlock(self []int64, b []byte, e blockEntry, from, to core.Time, want []bool) error {
	if binary.LittleEndian.Uint32(b) != e.runs {
		return fmt.Errorf("%w: %d runs, the directory says %d", ErrCorrupt, binary.LittleEndian.Uint32(b), e.runs)
	}
	runs := b[4 : 4+8*e.runs]
	times := b[4+8*e.runs : 4+8*e.runs+8*e.n]
	paths := b[4+8*e.runs+8*e.n:]
	inside := e.first >= from && e.last < to
	at := uint32(0)
	for r := range e.runs {
		th := binary.LittleEndian.Uint32(runs[8*r:])
		n := binary.LittleEndian.Uint32(runs[8*r+4:])
		if th >= uint32(len(p.tids)) || n > e.n-at {
			return fmt.Errorf("%w: run %d: thread %d, %d samples", ErrCorrupt, r, th, n)
		}
		lo, hi := at, at+n
		at += n
		if want != nil && !want[th] {
			continue
		}
		if !inside {
			timeAt := func(k uint32) core.Time { return core.Time(binary.LittleEndian.Uint64(times[8*k:])) }
			lo += uint32(sort.Search(int(n), func(k int) bool { return timeAt(lo+uint32(k)) >= from }))
			hi = lo + uint32(sort.Search(int(hi-lo), func(k int) bool { return timeAt(lo+uint32(k)) >= to }))
		}
		for k := lo; k < hi; k++ {
			path := binary.LittleEndian.Uint32(paths[4*k:])
			if path >= uint32(len(self)) {
				return fmt.Errorf("%w: call path %d of %d", ErrCorrupt, path, len(self))
			}
			self[path]++
		}
	}
	if at != e.n {
		return fmt.Errorf("%w: runs of %d samples, the directory says %d", ErrCorrupt, at, e.n)
	}
	return nil
}
