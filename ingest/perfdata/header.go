package perfdata

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Magic starts every perf.data file (version 2), in the recording
// machine's byte order: read as a little-endian u64 it is magicLE on a
// little-endian file and its byte swap on a big-endian one.
const Magic = "PERFILE2"

const (
	magicLE       = 0x32454c4946524550
	magicBE       = 0x50455246494c4532
	fileHeaderLen = 104
	pipeHeaderLen = 16
)

// Sentinel errors, wrapped by the reader's errors.
var (
	// ErrNotPerfData: the file does not start with the PERFILE2 magic.
	ErrNotPerfData = errors.New("not a perf.data file (no PERFILE2 magic)")
	// ErrCorrupt: a length, count or offset in the file points outside it
	// or past what it could hold.
	ErrCorrupt = errors.New("corrupt perf.data")
	// ErrUnsupported: a valid file this reader does not read.
	ErrUnsupported = errors.New("unsupported perf.data")
)

// section is an {offset, size} pair of the file header.
type section struct{ off, size uint64 }

func (s section) end() uint64 { return s.off + s.size }

// header is what the first bytes of the file say.
type header struct {
	order    binary.ByteOrder
	pipe     bool
	attrSize uint64
	attrs    section
	data     section
	features [4]uint64 // adds_features bitmap
}

// readHeader reads and checks the file header; size is the file's size.
func readHeader(r io.ReaderAt, size int64) (*header, error) {
	var b [fileHeaderLen]byte
	n, err := r.ReadAt(b[:], 0)
	if n < pipeHeaderLen {
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %d bytes", ErrNotPerfData, n)
	}
	h := &header{}
	switch binary.LittleEndian.Uint64(b[:]) {
	case magicLE:
		h.order = binary.LittleEndian
	case magicBE:
		h.order = binary.BigEndian
	default:
		if string(b[:8]) == "PERFFILE" {
			return nil, fmt.Errorf("%w: version 1 (PERFFILE) file; convert it with a current perf (perf inject -i old -o new)", ErrUnsupported)
		}
		return nil, ErrNotPerfData
	}
	o := h.order
	switch hs := o.Uint64(b[8:]); hs {
	case pipeHeaderLen:
		h.pipe = true
		return h, nil
	case fileHeaderLen:
		if n < fileHeaderLen {
			return nil, fmt.Errorf("%w: file header: %d bytes of %d", ErrCorrupt, n, fileHeaderLen)
		}
	default:
		return nil, fmt.Errorf("%w: header size %d (16 or 104 expected)", ErrCorrupt, hs)
	}
	h.attrSize = o.Uint64(b[16:])
	h.attrs = section{o.Uint64(b[24:]), o.Uint64(b[32:])}
	h.data = section{o.Uint64(b[40:]), o.Uint64(b[48:])}
	for i := range h.features {
		h.features[i] = o.Uint64(b[72+8*i:])
	}
	for _, s := range []struct {
		name string
		sec  section
	}{{"attrs", h.attrs}, {"data", h.data}} {
		if s.sec.end() < s.sec.off || s.sec.end() > uint64(size) {
			return nil, fmt.Errorf("%w: %s section at %d, %d bytes, past the file's end (%d bytes)", ErrCorrupt, s.name, s.sec.off, s.sec.size, size)
		}
	}
	if h.data.size == 0 {
		return nil, fmt.Errorf("%w: no data: the recording did not finish (perf record writes the header last)", ErrCorrupt)
	}
	if h.attrSize < minAttrSize+16 || h.attrSize > maxAttrSize {
		return nil, fmt.Errorf("%w: attr size %d", ErrCorrupt, h.attrSize)
	}
	if h.attrs.size%h.attrSize != 0 || h.attrs.size/h.attrSize > maxAttrs {
		return nil, fmt.Errorf("%w: attrs section of %d bytes for attrs of %d", ErrCorrupt, h.attrs.size, h.attrSize)
	}
	if h.attrs.off < h.data.end() && h.data.off < h.attrs.end() && h.attrs.size > 0 {
		return nil, fmt.Errorf("%w: the attrs and data sections overlap", ErrCorrupt)
	}
	return h, nil
}

// readAt reads size bytes at off, an error when they are not all in the
// file.
func readAt(r io.ReaderAt, off, size uint64, fileSize int64, what string) ([]byte, error) {
	if off+size < off || off+size > uint64(fileSize) {
		return nil, fmt.Errorf("%w: %s at %d, %d bytes, past the file's end (%d bytes)", ErrCorrupt, what, off, size, fileSize)
	}
	b := make([]byte, size)
	if _, err := r.ReadAt(b, int64(off)); err != nil && !(errors.Is(err, io.EOF) && size == 0) {
		return nil, fmt.Errorf("reading %s: %w", what, err)
	}
	return b, nil
}

// readAttrs reads the attrs section and each attr's ID array.
func readAttrs(r io.ReaderAt, h *header, fileSize int64) ([]*attr, error) {
	b, err := readAt(r, h.attrs.off, h.attrs.size, fileSize, "attrs section")
	if err != nil {
		return nil, err
	}
	var attrs []*attr
	total := 0
	for off := uint64(0); off < h.attrs.size; off += h.attrSize {
		e := b[off : off+h.attrSize]
		a, ok := parseAttr(e[:h.attrSize-16], h.order)
		if !ok {
			return nil, fmt.Errorf("%w: attr %d: size %d in an entry of %d bytes", ErrCorrupt, len(attrs), h.order.Uint32(e[4:]), h.attrSize-16)
		}
		ids := section{h.order.Uint64(e[h.attrSize-16:]), h.order.Uint64(e[h.attrSize-8:])}
		if ids.size%8 != 0 || ids.size/8 > maxIDs || total+int(ids.size/8) > maxIDs {
			return nil, fmt.Errorf("%w: attr %d: %d bytes of IDs", ErrCorrupt, len(attrs), ids.size)
		}
		ib, err := readAt(r, ids.off, ids.size, fileSize, fmt.Sprintf("attr %d's IDs", len(attrs)))
		if err != nil {
			return nil, err
		}
		for i := 0; i < len(ib); i += 8 {
			a.ids = append(a.ids, h.order.Uint64(ib[i:]))
		}
		total += len(a.ids)
		a.index = len(attrs)
		attrs = append(attrs, &a)
	}
	return attrs, nil
}

// featureSections reads the feature table that follows the data section:
// an {offset, size} per bit set in the bitmap, in increasing bit order.
func featureSections(r io.ReaderAt, h *header, fileSize int64) (map[int]section, error) {
	n := 0
	for _, w := range h.features {
		for ; w != 0; w &= w - 1 {
			n++
		}
	}
	tb, err := readAt(r, h.data.end(), uint64(n)*16, fileSize, "feature table")
	if err != nil {
		return nil, err
	}
	out := map[int]section{}
	k := 0
	for bit := 0; bit < 256; bit++ {
		if h.features[bit/64]&(1<<(bit%64)) == 0 {
			continue
		}
		out[bit] = section{h.order.Uint64(tb[16*k:]), h.order.Uint64(tb[16*k+8:])}
		k++
	}
	return out, nil
}
