package chrome

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/tracetui/tracetui/core"
)

// The persisted order: the index stores, per event in delivery order, where
// its JSON object sits in the trace, with the catalog, so that a later
// session reads events directly ([OpenOrdered]) instead of parsing and
// sorting the whole trace again. Plain (not gzip) traces only: a gzip
// stream has no random access.
//
// # Format
//
// One byte string, stored by the caller (a section of the index file).
// Integers are little-endian; CRCs are CRC-32C (Castagnoli).
//
//	offset  size  field
//	0       8     magic "TTCHORD\x00"
//	8       4     format version (1)
//	12      4     P: events per page (1..65536)
//	16      8     event count N
//	24      8     trace size in bytes (the JSON file)
//	32      8     time of the first event (ns)
//	40      8     last instant covered (ns)
//	48      8     catalog bytes C
//	56      8     page count G = ceil(N / P)
//	64      4     sort layout hash (the CRC key of the sorting source's
//	              checkpoints, which the event index holds)
//	68      4     CRC of the catalog
//	72      4     CRC of bytes 0..71
//	76      4     reserved, zero
//	80      C     catalog (see catalogcodec.go)
//	80+C    8*G   directory: the end of page g, from the page area's start
//	              (non-decreasing; page g starts where page g-1 ends, page 0 at 0)
//	80+C+8G       page area: page g holds events g*P .. min(N, (g+1)*P)-1,
//	              each as zigzag varint (offset - offset of the previous
//	              event in the page, 0 before the first) and uvarint length
//	              of its JSON object; then the page's CRC (4 bytes)
//
// The section's size must be 80+C+8G plus the last directory entry. A
// reader checks the header and catalog CRCs on open, each page's CRC when
// it loads it, and each event where the trace has it: an object that does
// not parse there, or names an unknown class or thread, is an error
// wrapping [ErrOrderDamaged] that names the offset.

const (
	orderMagic      = "TTCHORD\x00"
	orderVersion    = 1
	orderHeaderSize = 80
	orderPage       = 256
	maxOrderPage    = 1 << 16
	// maxEntryBytes bounds one page entry (two varints); a page holds
	// at most P of them and its CRC.
	maxEntryBytes = 2 * binary.MaxVarintLen64
)

// OrderVersion is the version of the persisted order's format: part of
// the index fingerprint, so indexes of another version are rebuilt.
const OrderVersion = orderVersion

// ErrOrderDamaged is wrapped by every error about a persisted order that
// does not match its trace (damaged, or the trace changed): the caller
// rebuilds the index.
var ErrOrderDamaged = errors.New("chrome: persisted event order damaged")

// orderHeader is the decoded fixed part of a persisted order.
type orderHeader struct {
	perPage              uint32
	events, traceBytes   uint64
	start, end           int64
	catBytes, pages      uint64
	layout, catCRC       uint32
	dirOff, pagesOff     int64 // section offsets of the directory and page area
	pageBytes, totalSize int64
}

func (h *orderHeader) encode() []byte {
	b := make([]byte, orderHeaderSize)
	copy(b, orderMagic)
	le := binary.LittleEndian
	le.PutUint32(b[8:], orderVersion)
	le.PutUint32(b[12:], h.perPage)
	le.PutUint64(b[16:], h.events)
	le.PutUint64(b[24:], h.traceBytes)
	le.PutUint64(b[32:], uint64(h.start))
	le.PutUint64(b[40:], uint64(h.end))
	le.PutUint64(b[48:], h.catBytes)
	le.PutUint64(b[56:], h.pages)
	le.PutUint32(b[64:], h.layout)
	le.PutUint32(b[68:], h.catCRC)
	le.PutUint32(b[72:], core.CRC32C(b[:72]))
	return b
}

func orderCorrupt(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrOrderDamaged, fmt.Sprintf(format, a...))
}

// decodeOrderHeader checks b against the section size.
func decodeOrderHeader(b []byte, size int64) (orderHeader, error) {
	var h orderHeader
	le := binary.LittleEndian
	if len(b) < orderHeaderSize || string(b[:8]) != orderMagic {
		return h, orderCorrupt("bad magic")
	}
	if core.CRC32C(b[:72]) != le.Uint32(b[72:]) {
		return h, orderCorrupt("header checksum mismatch")
	}
	if v := le.Uint32(b[8:]); v != orderVersion {
		return h, orderCorrupt("version %d, this build reads %d", v, orderVersion)
	}
	h.perPage, h.events, h.traceBytes = le.Uint32(b[12:]), le.Uint64(b[16:]), le.Uint64(b[24:])
	h.start, h.end = int64(le.Uint64(b[32:])), int64(le.Uint64(b[40:]))
	h.catBytes, h.pages = le.Uint64(b[48:]), le.Uint64(b[56:])
	h.layout, h.catCRC = le.Uint32(b[64:]), le.Uint32(b[68:])
	if h.perPage == 0 || h.perPage > maxOrderPage {
		return h, orderCorrupt("%d events per page", h.perPage)
	}
	if h.events > 1<<48 || h.pages != (h.events+uint64(h.perPage)-1)/uint64(h.perPage) {
		return h, orderCorrupt("%d pages for %d events", h.pages, h.events)
	}
	if size < orderHeaderSize || h.catBytes > uint64(size) || h.pages > uint64(size)/8 ||
		orderHeaderSize+h.catBytes+8*h.pages > uint64(size) {
		return h, orderCorrupt("sizes exceed the %d bytes of the section", size)
	}
	h.dirOff = orderHeaderSize + int64(h.catBytes)
	h.pagesOff = h.dirOff + 8*int64(h.pages)
	h.pageBytes, h.totalSize = size-h.pagesOff, size
	return h, nil
}

// OrderWriter records the delivery order of a sorting [Source] during its
// first full pass (the indexing pass) and writes the persisted order.
type OrderWriter struct {
	s     *Source
	pages *os.File
	w     *bufio.Writer
	dir   []byte // directory, 8 bytes per page
	page  []byte
	inPg  uint32
	prev  int64
	n     int64 // events recorded
	bytes int64 // page area bytes written
	err   error
}

// RecordOrder makes the source record the position of every event it
// delivers from now on (it must be positioned before the first event),
// spooling pages to a temporary file in dir named prefix + random. It
// returns nil for a gzip trace, whose order cannot be persisted usefully.
func (s *Source) RecordOrder(dir, prefix string) (*OrderWriter, error) {
	if s.gzip {
		return nil, nil
	}
	if s.delivered != 0 || s.seeked {
		return nil, errors.New("chrome: RecordOrder after reading started")
	}
	f, err := os.CreateTemp(dir, prefix+"*")
	if err != nil {
		return nil, fmt.Errorf("persisted order: %w", err)
	}
	ow := &OrderWriter{s: s, pages: f, w: bufio.NewWriterSize(f, 256<<10)}
	s.recorder = ow
	return ow, nil
}

// add records the next delivered event's span.
func (ow *OrderWriter) add(off, n int64) {
	ow.page = binary.AppendVarint(ow.page, off-ow.prev)
	ow.page = binary.AppendUvarint(ow.page, uint64(n))
	ow.prev = off
	ow.n++
	if ow.inPg++; ow.inPg == orderPage {
		ow.endPage()
	}
}

func (ow *OrderWriter) endPage() {
	ow.page = binary.LittleEndian.AppendUint32(ow.page, core.CRC32C(ow.page))
	if _, err := ow.w.Write(ow.page); err != nil && ow.err == nil {
		ow.err = err
	}
	ow.bytes += int64(len(ow.page))
	ow.dir = binary.LittleEndian.AppendUint64(ow.dir, uint64(ow.bytes))
	ow.page, ow.inPg, ow.prev = ow.page[:0], 0, 0
}

// Finish completes the persisted order once the source delivered every
// event, and returns its size and a reader of its bytes, valid until Close.
func (ow *OrderWriter) Finish() (int64, io.Reader, error) {
	s := ow.s
	if s.recorder != ow || s.seeked || ow.n != s.total {
		return 0, nil, fmt.Errorf("chrome: persisted order recorded %d of %d events (the source was moved)", ow.n, s.total)
	}
	if ow.inPg > 0 {
		ow.endPage()
	}
	if ow.err == nil {
		ow.err = ow.w.Flush()
	}
	if ow.err == nil {
		_, ow.err = ow.pages.Seek(0, io.SeekStart)
	}
	if ow.err != nil {
		return 0, nil, fmt.Errorf("persisted order: %w", ow.err)
	}
	cat := s.cat.encode()
	h := orderHeader{perPage: orderPage, events: uint64(s.total), traceBytes: uint64(s.size),
		start: s.start, end: s.end, catBytes: uint64(len(cat)), pages: uint64(len(ow.dir) / 8),
		layout: s.layout, catCRC: core.CRC32C(cat)}
	head := h.encode()
	size := int64(len(head)+len(cat)+len(ow.dir)) + ow.bytes
	return size, io.MultiReader(bytes.NewReader(head), bytes.NewReader(cat), bytes.NewReader(ow.dir), io.LimitReader(ow.pages, ow.bytes)), nil
}

// Close stops recording and removes the temporary file.
func (ow *OrderWriter) Close() error {
	if ow == nil {
		return nil
	}
	if ow.s.recorder == ow {
		ow.s.recorder = nil
	}
	ow.pages.Close()
	return os.Remove(ow.pages.Name())
}
