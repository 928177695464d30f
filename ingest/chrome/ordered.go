package chrome

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/internal/tracefile"
)

// readWindow is how much of the trace one read fetches around an event:
// events in time order are mostly near each other in the file.
const readWindow = 64 << 10

// eventSpan is where one event's JSON object sits in the trace.
type eventSpan struct{ off, n int64 }

// orderedState is the reading state of a source opened from a persisted
// order (see order.go).
type orderedState struct {
	sec     io.ReaderAt
	hdr     orderHeader
	trace   *os.File
	damaged func(error) error
	rank    int64 // next event
	page    int64 // page held in spans, -1 for none
	spans   []eventSpan
	pageBuf []byte
	win     []byte // trace bytes from winOff
	winOff  int64
	raw     rawEvent
	key     []byte
}

// OrderedOptions tunes [OpenOrdered].
type OrderedOptions struct {
	// Damaged, if set, is applied to every error wrapping
	// [ErrOrderDamaged] before it is returned (the index marks itself for
	// rebuilding).
	Damaged func(error) error
}

// OpenOrdered returns a source of the Chrome trace at path that reads its
// events by the persisted order in sec (size bytes, written by
// [OrderWriter]): no first pass, no sort. It delivers the events of the
// sorting source that recorded the order, in the same order, and seeks to
// that source's checkpoints. Warnings are not repeated (the index keeps
// the first pass's).
func OpenOrdered(path string, sec io.ReaderAt, size int64, opts OrderedOptions) (*Source, error) {
	o := &orderedState{sec: sec, damaged: opts.Damaged, page: -1}
	s, err := openOrdered(path, o, size)
	if err != nil {
		return nil, o.fail(fmt.Errorf("%s: %w", path, err))
	}
	return s, nil
}

func openOrdered(path string, o *orderedState, size int64) (*Source, error) {
	head := make([]byte, orderHeaderSize)
	if size < orderHeaderSize {
		return nil, orderCorrupt("%d bytes, shorter than the header", size)
	}
	if _, err := o.sec.ReadAt(head, 0); err != nil {
		return nil, fmt.Errorf("persisted order: %w", err)
	}
	h, err := decodeOrderHeader(head, size)
	if err != nil {
		return nil, err
	}
	o.hdr = h
	cb := make([]byte, h.catBytes)
	if _, err := o.sec.ReadAt(cb, orderHeaderSize); err != nil {
		return nil, fmt.Errorf("persisted order: %w", err)
	}
	if core.CRC32C(cb) != h.catCRC {
		return nil, orderCorrupt("catalog checksum mismatch")
	}
	cat, err := decodeCatalog(cb)
	if err != nil {
		return nil, err
	}
	if err := o.openTrace(path); err != nil {
		return nil, err
	}
	return &Source{path: path, size: int64(h.traceBytes), cat: cat, total: int64(h.events),
		start: h.start, end: h.end, layout: h.layout, seeked: true, ordered: o}, nil
}

// openTrace opens the trace and checks its size against the order's.
func (o *orderedState) openTrace(path string) error {
	f, err := tracefile.Open(path)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	if st.Size() != int64(o.hdr.traceBytes) {
		f.Close()
		return orderCorrupt("the trace has %d bytes, the order was recorded on %d (the trace changed?)", st.Size(), o.hdr.traceBytes)
	}
	o.trace = f
	return nil
}

func (o *orderedState) fail(err error) error {
	if o.damaged != nil && errors.Is(err, ErrOrderDamaged) {
		return o.damaged(err)
	}
	return err
}

func (o *orderedState) close() error {
	if o.trace == nil {
		return nil
	}
	err := o.trace.Close()
	o.trace = nil
	return err
}

// cloneOrdered returns an independent reader of the same persisted order
// (the catalog is shared read-only; the trace is opened again).
func (s *Source) cloneOrdered() (core.Source, error) {
	o := s.ordered
	if o.trace == nil {
		return nil, errors.New("chrome: clone of a closed source")
	}
	c := &orderedState{sec: o.sec, hdr: o.hdr, damaged: o.damaged, page: -1}
	if err := c.openTrace(s.path); err != nil {
		return nil, c.fail(err)
	}
	return &Source{path: s.path, size: s.size, cat: s.cat, total: s.total, start: s.start,
		end: s.end, layout: s.layout, seeked: true, ordered: c}, nil
}

// nextOrdered delivers the next event by its stored position, checking
// that the trace has an event of the catalog there.
func (s *Source) nextOrdered() (*core.Event, error) {
	o := s.ordered
	if o.trace == nil {
		return nil, errors.New("chrome: read of a closed source")
	}
	if o.rank >= s.total {
		return nil, io.EOF
	}
	per := int64(o.hdr.perPage)
	if g := o.rank / per; g != o.page {
		if err := o.loadPage(g); err != nil {
			return nil, o.fail(fmt.Errorf("%s: %w", s.path, err))
		}
	}
	sp := o.spans[o.rank%per]
	b, err := o.read(sp)
	if err != nil {
		return nil, o.fail(fmt.Errorf("%s: %w", s.path, err))
	}
	n, err := parseEvent(b, &o.raw)
	if err != nil || n != len(b) || b[0] != '{' {
		return nil, o.fail(fmt.Errorf("%s: %w: offset %d: the event the index places there does not parse (the trace changed?)", s.path, ErrOrderDamaged, sp.off))
	}
	class, thread, overflow, ok, key := s.cat.lookup(&o.raw, o.key)
	o.key = key
	if !ok {
		return nil, o.fail(fmt.Errorf("%s: %w: offset %d: event of a name or thread the index does not know", s.path, ErrOrderDamaged, sp.off))
	}
	o.raw.offset, o.raw.length = sp.off, n
	s.cur = appendBody(s.cur[:0], &o.raw, class, thread, overflow)
	if err := decodeBody(s.cur, &s.rec); err != nil {
		return nil, fmt.Errorf("%s: %w", s.path, err)
	}
	s.curTS = o.raw.ts
	if o.raw.ph == 'M' {
		s.curTS = metadataTimeRaw
	}
	o.rank++
	s.delivered = o.rank
	s.fill()
	return &s.ev, nil
}

// loadPage reads, checks and decodes page g.
func (o *orderedState) loadPage(g int64) error {
	var d [16]byte
	var start, end uint64
	if g == 0 {
		if _, err := o.sec.ReadAt(d[8:], o.hdr.dirOff); err != nil {
			return fmt.Errorf("persisted order: %w", err)
		}
	} else if _, err := o.sec.ReadAt(d[:], o.hdr.dirOff+8*(g-1)); err != nil {
		return fmt.Errorf("persisted order: %w", err)
	} else {
		start = binary.LittleEndian.Uint64(d[:])
	}
	end = binary.LittleEndian.Uint64(d[8:])
	per := int64(o.hdr.perPage)
	count := min(per, int64(o.hdr.events)-g*per)
	if start > end || end > uint64(o.hdr.pageBytes) || end-start < 4 || end-start > uint64(count)*maxEntryBytes+4 {
		return orderCorrupt("page %d spans [%d, %d) of %d bytes", g, start, end, o.hdr.pageBytes)
	}
	o.pageBuf = slices.Grow(o.pageBuf[:0], int(end-start))[:end-start]
	if _, err := o.sec.ReadAt(o.pageBuf, o.hdr.pagesOff+int64(start)); err != nil {
		return fmt.Errorf("persisted order: %w", err)
	}
	body := o.pageBuf[:len(o.pageBuf)-4]
	if core.CRC32C(body) != binary.LittleEndian.Uint32(o.pageBuf[len(body):]) {
		return orderCorrupt("page %d checksum mismatch", g)
	}
	spans, err := decodePage(body, count, int64(o.hdr.traceBytes), o.spans[:0])
	if err != nil {
		return fmt.Errorf("page %d: %w", g, err)
	}
	o.spans, o.page = spans, g
	return nil
}

// decodePage decodes count entries of a page body, each inside a trace of
// traceBytes bytes.
func decodePage(b []byte, count, traceBytes int64, dst []eventSpan) ([]eventSpan, error) {
	off := int64(0)
	for i := int64(0); i < count; i++ {
		delta, n := binary.Varint(b)
		if n <= 0 {
			return dst, orderCorrupt("bad offset")
		}
		b = b[n:]
		l, m := binary.Uvarint(b)
		if m <= 0 || l < 2 || l > maxEventBytes {
			return dst, orderCorrupt("bad length")
		}
		b = b[m:]
		off += delta
		if off < 0 || off > traceBytes-int64(l) {
			return dst, orderCorrupt("event [%d, +%d) outside the trace's %d bytes", off, l, traceBytes)
		}
		dst = append(dst, eventSpan{off, int64(l)})
	}
	if len(b) != 0 {
		return dst, orderCorrupt("trailing bytes")
	}
	return dst, nil
}

// read returns the trace bytes of sp, through the read window.
func (o *orderedState) read(sp eventSpan) ([]byte, error) {
	if sp.off >= o.winOff && sp.off+sp.n <= o.winOff+int64(len(o.win)) {
		return o.win[sp.off-o.winOff : sp.off+sp.n-o.winOff], nil
	}
	want := int(min(max(sp.n, readWindow), int64(o.hdr.traceBytes)-sp.off))
	if cap(o.win) < want {
		o.win = make([]byte, want)
	}
	o.win = o.win[:want]
	m, err := o.trace.ReadAt(o.win, sp.off)
	o.win, o.winOff = o.win[:m], sp.off
	if int64(m) < sp.n {
		if err == nil || errors.Is(err, io.EOF) {
			return nil, orderCorrupt("offset %d: the trace ends before the event the index places there", sp.off)
		}
		return nil, fmt.Errorf("reading the trace at offset %d: %w", sp.off, err)
	}
	return o.win[:sp.n], nil
}
