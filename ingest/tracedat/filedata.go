package tracedat

import (
	"fmt"
	"io"
)

// fileData gives the bytes of a trace.dat: from memory when the whole
// file is held (tests, fuzzing), else with ReadAt, so a
// reader reads the metadata and the chunks it needs as it needs them
// (reading a 10 MB capture whole into fresh memory cost 50-120 ms on the
// 2-core VM, ReadAt through a reused buffer 4-8 ms).
type fileData struct {
	all  []byte      // the whole file, or nil
	at   io.ReaderAt // read when all is nil
	size int64
}

// read returns n bytes of the file at off: a slice of the file held in
// memory, or a new buffer; an error when they are not all in the file.
func (d *fileData) read(off, n uint64) ([]byte, error) {
	return d.readInto(nil, off, n)
}

// readInto is read into buf (reused when large enough) for a file not
// held in memory.
func (d *fileData) readInto(buf []byte, off, n uint64) ([]byte, error) {
	size := uint64(d.size)
	if off > size || n > size-off {
		return nil, fmt.Errorf("%w: %d bytes at offset %d, past the end of the %d-byte file", ErrCorrupt, n, off, size)
	}
	if d.all != nil {
		return d.all[off : off+n], nil
	}
	if uint64(cap(buf)) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := d.at.ReadAt(buf, int64(off)); err != nil {
		return nil, fmt.Errorf("reading %d bytes at offset %d: %w", n, off, err)
	}
	return buf, nil
}

// window reads a file sequentially in blocks through one buffer, for
// walking the headers of compressed chunks spread over megabytes.
type window struct {
	d     *fileData
	start uint64 // file offset of buf[0]
	buf   []byte
}

const windowBytes = 64 << 10

// at returns the n (≤ windowBytes) bytes at off, valid until the next call.
func (w *window) at(off, n uint64) ([]byte, error) {
	if w.d.all != nil {
		return w.d.read(off, n)
	}
	if off >= w.start && off+n <= w.start+uint64(len(w.buf)) {
		return w.buf[off-w.start : off-w.start+n], nil
	}
	size := uint64(w.d.size)
	if off > size || n > size-off {
		return nil, fmt.Errorf("%w: %d bytes at offset %d, past the end of the %d-byte file", ErrCorrupt, n, off, size)
	}
	b, err := w.d.readInto(w.buf[:cap(w.buf)], off, min(windowBytes, size-off))
	if err != nil {
		return nil, err
	}
	w.start, w.buf = off, b
	return b[:n], nil
}
