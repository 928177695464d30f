package tracedat

import (
	"fmt"
	"sort"
)

// chunk is one compressed chunk of a CPU's data (version 7), located in
// the file without being decompressed.
type chunk struct {
	at    int    // offset of its first byte in the CPU's decompressed data
	usize int    // bytes once decompressed
	data  []byte // the compressed bytes, a slice of the file
	off   int64  // file offset of data, for messages
}

// lazyData is a compressed CPU's data read on demand, for a reader
// opened Indexed: a page decompresses only the chunks that hold it, and
// one decompressed chunk is kept (pages are read in order).
type lazyData struct {
	chunks []chunk
	size   int    // decompressed bytes, the sum of the chunks' usize
	cur    int    // index of the chunk in buf; -1 for none
	buf    []byte // chunk cur, decompressed
	span   []byte // a page that straddles chunks, copied together
}

// chunkIndex walks a CPU's compressed data (a count, then chunks of
// compressed size, uncompressed size and bytes) without decompressing it;
// [file.chunks] decompresses them all.
func (f *file) chunkIndex(raw []byte, base int64) (*lazyData, error) {
	r := &rd{b: raw, order: f.order, what: "compressed trace data", base: base}
	n := r.u32()
	l := &lazyData{cur: -1}
	for i := uint32(0); i < n && r.err == nil; i++ {
		csize, usize := r.u32(), r.u32()
		off := base + int64(r.off)
		data := r.take(uint64(csize))
		if r.err != nil {
			break
		}
		if uint64(l.size)+uint64(usize) > maxSectionBytes {
			return nil, fmt.Errorf("%w: more than %d bytes of trace data once decompressed", ErrCorrupt, maxSectionBytes)
		}
		l.chunks = append(l.chunks, chunk{at: l.size, usize: int(usize), data: data, off: off})
		l.size += int(usize)
	}
	return l, r.err
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

// load decompresses chunk k into buf, unless it is there already.
func (l *lazyData) load(f *file, k int) error {
	if l.cur == k {
		return nil
	}
	c := &l.chunks[k]
	l.cur = -1
	out, err := f.decompress(l.buf[:0], c.data, uint32(c.usize))
	if err != nil {
		return fmt.Errorf("chunk at offset %d: %w", c.off, err)
	}
	l.buf, l.cur = out, k
	return nil
}
