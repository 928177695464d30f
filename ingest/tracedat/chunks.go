package tracedat

import (
	"fmt"
	"sort"
)

// chunk is one compressed chunk of a CPU's data (version 7), located in
// the file without being decompressed.
type chunk struct {
	at    int   // offset of its first byte in the CPU's decompressed data
	usize int   // bytes once decompressed
	csize int   // compressed bytes
	off   int64 // file offset of the compressed bytes
}

// lazyData is a CPU's data read on demand: a page reads (and
// decompresses) only the chunks that hold it, and one chunk is kept
// (pages are read in order). A reader opened Indexed, positioned by Seek,
// reads only what it needs; a full reader reads every chunk once per
// pass, with one chunk per CPU in memory. Uncompressed data (stored) is
// cut into pieces of storedChunk bytes read as they are: a reader holds
// a piece per CPU, not the CPU's data.
type lazyData struct {
	src    *fileData // the bytes the chunks are in
	stored bool      // the chunks are not compressed
	chunks []chunk
	size   int    // decompressed bytes, the sum of the chunks' usize
	cur    int    // index of the chunk in buf; -1 for none
	buf    []byte // chunk cur, decompressed
	cbuf   []byte // a chunk's compressed bytes, read into it
	span   []byte // a page that straddles chunks, copied together
}

// chunkIndex walks a CPU's compressed data at off (a count, then chunks
// of compressed size, uncompressed size and bytes) without decompressing
// it.
func (f *file) chunkIndex(off uint64) (*lazyData, error) {
	w := &window{d: f.data}
	b, err := w.at(off, 4)
	if err != nil {
		return nil, fmt.Errorf("compressed trace data: %w", err)
	}
	n := f.order.Uint32(b)
	// Each chunk takes 8 bytes at least: no more are made room for than
	// the file could hold.
	l := &lazyData{src: f.data, cur: -1, chunks: make([]chunk, 0, min(uint64(n), (uint64(f.data.size)-off)/8))}
	pos := off + 4
	for i := uint32(0); i < n; i++ {
		h, err := w.at(pos, 8)
		if err != nil {
			return nil, fmt.Errorf("compressed trace data, chunk %d: %w", i, err)
		}
		csize, usize := f.order.Uint32(h), f.order.Uint32(h[4:])
		pos += 8
		if uint64(csize) > uint64(f.data.size)-pos {
			return nil, fmt.Errorf("%w: compressed trace data at offset %d: a chunk of %d bytes past the end of the file", ErrCorrupt, pos, csize)
		}
		if err := l.add(pos, csize, usize); err != nil {
			return nil, err
		}
		pos += uint64(csize)
	}
	return l, nil
}

// add appends the chunk of csize compressed bytes at file offset off,
// usize once decompressed; an error when one chunk would pass
// maxSectionBytes. A CPU's data has no bound of its own: it is never in
// memory whole (a 50 M-event capture holds more than a GiB per CPU).
func (l *lazyData) add(off uint64, csize, usize uint32) error {
	if usize > maxSectionBytes {
		return fmt.Errorf("%w: a chunk of %d bytes once decompressed (more than %d)", ErrCorrupt, usize, maxSectionBytes)
	}
	l.chunks = append(l.chunks, chunk{at: l.size, usize: int(usize), csize: int(csize), off: int64(off)})
	l.size += int(usize)
	return nil
}

// storedChunk is the size of the pieces of uncompressed CPU data, a
// multiple of every page size up to 1 MiB.
const storedChunk = 1 << 20

// storedData locates size bytes of uncompressed CPU data at file offset
// off as pieces read on demand.
func (f *file) storedData(off, size uint64) (*lazyData, error) {
	if off > uint64(f.data.size) || size > uint64(f.data.size)-off {
		return nil, fmt.Errorf("%w: %d bytes of trace data at offset %d, past the end of the %d-byte file", ErrCorrupt, size, off, f.data.size)
	}
	l := &lazyData{src: f.data, stored: true, cur: -1, chunks: make([]chunk, 0, (size+storedChunk-1)/storedChunk)}
	for at := uint64(0); at < size; at += storedChunk {
		n := int(min(storedChunk, size-at))
		l.chunks = append(l.chunks, chunk{at: int(at), usize: n, csize: n, off: int64(off + at)})
	}
	l.size = int(size)
	return l, nil
}

// chunkSize is a chunk's compressed and decompressed sizes.
type chunkSize struct{ csize, usize uint32 }

// chunksFromState locates the chunks of the compressed CPU data at off,
// size bytes of chunks after their count, from the sizes the index state
// keeps for it, instead of walking their headers through the file (reading
// all of it: 15-40 ms for 10 MB); false when the state has none for off
// or they do not add up to the file's count and size.
func (f *file) chunksFromState(d *cpuData, off, size uint64) bool {
	if f.state == nil {
		return false
	}
	sizes, ok := f.state.chunks[off]
	if !ok {
		return false
	}
	if b, err := f.data.read(off, 4); err != nil || f.order.Uint32(b) != uint32(len(sizes)) {
		return false
	}
	l := &lazyData{src: f.data, cur: -1, chunks: make([]chunk, 0, len(sizes))}
	pos := off + 4
	for _, c := range sizes {
		pos += 8
		if pos > uint64(f.data.size) || uint64(c.csize) > uint64(f.data.size)-pos || l.add(pos, c.csize, c.usize) != nil {
			return false
		}
		pos += uint64(c.csize)
	}
	if pos-off-4 != size {
		return false
	}
	d.chunks = l
	return true
}

// slice returns the decompressed bytes [off, end) of the data, end no
// more than size. The result is valid until the next call.
func (l *lazyData) slice(f *file, off, end int) ([]byte, error) {
	k := l.find(off)
	if c := &l.chunks[k]; end <= c.at+c.usize {
		if err := l.load(f, k); err != nil {
			return nil, err
		}
		return l.buf[off-c.at : end-c.at], nil
	}
	l.span = l.span[:0]
	for pos := off; pos < end; {
		k := l.find(pos)
		if err := l.load(f, k); err != nil {
			return nil, err
		}
		c := &l.chunks[k]
		stop := min(end, c.at+c.usize)
		l.span = append(l.span, l.buf[pos-c.at:stop-c.at]...)
		pos = stop
	}
	return l.span, nil
}

// find returns the index of the chunk holding decompressed offset off
// (which must be below size).
func (l *lazyData) find(off int) int {
	return sort.Search(len(l.chunks), func(i int) bool { return l.chunks[i].at+l.chunks[i].usize > off })
}

// load reads (and decompresses) chunk k into buf, unless it is there
// already.
func (l *lazyData) load(f *file, k int) error {
	if l.cur == k {
		return nil
	}
	c := &l.chunks[k]
	l.cur = -1
	if l.stored {
		data, err := l.src.readInto(l.buf, uint64(c.off), uint64(c.usize))
		if err != nil {
			return &chunkError{c: *c, stored: true, err: err}
		}
		l.buf, l.cur = data, k
		return nil
	}
	data, err := l.src.readInto(l.cbuf, uint64(c.off), uint64(c.csize))
	if err != nil {
		return &chunkError{c: *c, err: err}
	}
	if l.src.all == nil {
		l.cbuf = data
	}
	out, err := f.decompress(l.buf[:0], data, uint32(c.usize))
	if err != nil {
		return &chunkError{c: *c, err: err}
	}
	l.buf, l.cur = out, k
	return nil
}

// chunkError is a chunk that cannot be read or decompressed: the pages it
// holds are lost, the CPU's other chunks are not.
type chunkError struct {
	c      chunk
	stored bool
	err    error
}

func (e *chunkError) Error() string {
	if e.stored {
		return fmt.Sprintf("the %d bytes of this CPU's data at file offset %d (from offset %d) cannot be read: %v", e.c.usize, e.c.off, e.c.at, e.err)
	}
	return fmt.Sprintf("the compressed chunk at file offset %d (%d bytes of this CPU's data from offset %d) does not decompress: %v", e.c.off, e.c.usize, e.c.at, e.err)
}

func (e *chunkError) Unwrap() error { return e.err }
