package perfdata

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// Record types (PERF_RECORD_*).
const (
	recMMAP             = 1
	recLost             = 2
	recComm             = 3
	recExit             = 4
	recThrottle         = 5
	recUnthrottle       = 6
	recFork             = 7
	recRead             = 8
	recSample           = 9
	recMMAP2            = 10
	recAux              = 11
	recItraceStart      = 12
	recLostSamples      = 13
	recSwitch           = 14
	recSwitchCPUWide    = 15
	recNamespaces       = 16
	recKsymbol          = 17
	recBPFEvent         = 18
	recCgroup           = 19
	recTextPoke         = 20
	recAuxOutputHWID    = 21
	recCallchainDefer   = 22
	recUserStart        = 64
	recHeaderAttr       = 64
	recHeaderEventType  = 65
	recHeaderTracing    = 66
	recHeaderBuildID    = 67
	recFinishedRound    = 68
	recIDIndex          = 69
	recAuxtraceInfo     = 70
	recAuxtrace         = 71
	recAuxtraceError    = 72
	recThreadMap        = 73
	recCPUMap           = 74
	recStatConfig       = 75
	recStat             = 76
	recStatRound        = 77
	recEventUpdate      = 78
	recTimeConv         = 79
	recHeaderFeature    = 80
	recCompressed       = 81
	recFinishedInit     = 82
	recCompressed2      = 83
	recSimpleperfFirst  = 32768
	maxDecompressed     = 1 << 30 // a whole file's decompressed records
	maxZstdWindow       = 64 << 20
	maxCompressedRecord = 16 << 20 // one compressed record's output
)

// pos is where a record is: the file offset of the record in the data,
// and for a record decompressed from COMPRESSED records, its rank among
// those decompressed at that offset (-1 for a record read as is).
type pos struct {
	off   int64
	inner int32
}

func (p pos) less(q pos) bool {
	return p.off < q.off || p.off == q.off && p.inner < q.inner
}

// record is one record of the data: its header fields and bytes (header
// included), valid until the stream's next call.
type record struct {
	typ  uint32
	misc uint16
	data []byte
	at   pos
}

// stream reads the records of the data section (or of a pipe-mode file
// after its 16-byte header) in file order, decompressing COMPRESSED
// records into the records they hold.
type stream struct {
	r          io.ReaderAt
	order      binary.ByteOrder
	start, end int64 // the data's bounds
	off        int64 // next record's offset
	win        []byte
	winOff     int64

	// Decompression: one zstd stream through all COMPRESSED records
	// (perf flushes it, without ending the frame, at each of its writes).
	dec        *zstd.Decoder
	feed       feeder
	out        []byte // decompressed bytes not yet returned as records
	outPos     int
	inner      pos   // where the records in out come from
	decoded    int64 // total decompressed bytes
	pendingErr error

	// skipTracing is the size of the tracing data that follows a pipe
	// mode's HEADER_TRACING_DATA record, read by the caller.
	extra []byte
}

func newStream(r io.ReaderAt, order binary.ByteOrder, start, end int64) *stream {
	return &stream{r: r, order: order, start: start, end: end, off: start}
}

// window returns n bytes at off, reading them into the stream's window.
func (s *stream) window(off int64, n int) ([]byte, error) {
	if off >= s.winOff && off+int64(n) <= s.winOff+int64(len(s.win)) {
		return s.win[off-s.winOff : off-s.winOff+int64(n)], nil
	}
	size := max(n, 256<<10)
	if rest := s.end - off; int64(size) > rest {
		size = int(rest)
	}
	if size < n {
		return nil, io.ErrUnexpectedEOF
	}
	if cap(s.win) < size {
		s.win = make([]byte, size)
	}
	s.win = s.win[:size]
	m, err := s.r.ReadAt(s.win, off)
	s.win = s.win[:m]
	s.winOff = off
	if m < n {
		if err == nil || errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return s.win[:n], nil
}

// corrupt makes the error of a record that cannot be read at off.
func corrupt(off int64, format string, a ...any) error {
	return fmt.Errorf("%w: record at offset %d: %s", ErrCorrupt, off, fmt.Sprintf(format, a...))
}

// next returns the next record, io.EOF after the last.
func (s *stream) next() (record, error) {
	if s.outPos < len(s.out) || s.pendingErr != nil {
		if rec, ok, err := s.nextInner(); ok || err != nil {
			return rec, err
		}
	}
	for {
		if s.off >= s.end {
			return record{}, io.EOF
		}
		at := s.off
		if s.end-at < 8 {
			return record{}, corrupt(at, "%d bytes left, less than a record header", s.end-at)
		}
		h, err := s.window(at, 8)
		if err != nil {
			return record{}, corrupt(at, "%v", err)
		}
		typ := s.order.Uint32(h)
		misc := s.order.Uint16(h[4:])
		size := int64(s.order.Uint16(h[6:]))
		if typ >= recSimpleperfFirst {
			// simpleperf's records: the two u16 are a 32-bit size.
			size = int64(uint32(s.order.Uint16(h[6:]))<<16 | uint32(misc))
			misc = 0
		}
		if size < 8 {
			return record{}, corrupt(at, "size %d, less than its header", size)
		}
		if size > s.end-at {
			return record{}, corrupt(at, "size %d, past the data's end (%d bytes left)", size, s.end-at)
		}
		data, err := s.window(at, int(size))
		if err != nil {
			return record{}, corrupt(at, "%v", err)
		}
		s.off = at + size
		switch typ {
		case recAuxtrace:
			// The AUX data follows the record, outside its size.
			if len(data) >= 16 {
				n := s.order.Uint64(data[8:])
				if n > uint64(s.end-s.off) {
					return record{}, corrupt(at, "AUXTRACE data of %d bytes, past the data's end", n)
				}
				s.off += int64(n)
			}
		case recHeaderTracing:
			if len(data) >= 12 {
				n := uint64(s.order.Uint32(data[8:]))
				if n > uint64(s.end-s.off) {
					return record{}, corrupt(at, "tracing data of %d bytes, past the data's end", n)
				}
				s.extra, err = readAt(s.r, uint64(s.off), n, s.end, "tracing data")
				if err != nil {
					return record{}, err
				}
				s.off += int64(n)
			}
		case recCompressed, recCompressed2:
			payload := data[8:]
			if typ == recCompressed2 {
				if len(payload) < 8 {
					return record{}, corrupt(at, "COMPRESSED2 of %d bytes", size)
				}
				n := s.order.Uint64(payload)
				if n > uint64(len(payload)-8) {
					return record{}, corrupt(at, "COMPRESSED2 data size %d in %d bytes", n, len(payload)-8)
				}
				payload = payload[8 : 8+n]
			}
			if err := s.decompress(at, payload); err != nil {
				return record{}, err
			}
			if rec, ok, err := s.nextInner(); ok || err != nil {
				return rec, err
			}
			continue
		}
		return record{typ: typ, misc: misc, data: data, at: pos{off: at, inner: -1}}, nil
	}
}

// nextInner returns the next whole record of the decompressed bytes;
// false when they hold none (a partial record waits for the next
// COMPRESSED record).
func (s *stream) nextInner() (record, bool, error) {
	if s.pendingErr != nil {
		err := s.pendingErr
		s.pendingErr = nil
		return record{}, false, err
	}
	b := s.out[s.outPos:]
	if len(b) < 8 {
		return record{}, false, nil
	}
	typ := s.order.Uint32(b)
	misc := s.order.Uint16(b[4:])
	size := int(s.order.Uint16(b[6:]))
	if size < 8 {
		return record{}, false, corrupt(s.inner.off, "decompressed record %d: size %d", s.inner.inner, size)
	}
	if size > len(b) {
		return record{}, false, nil
	}
	if typ == recCompressed || typ == recCompressed2 || typ == recAuxtrace || typ == recHeaderTracing {
		return record{}, false, corrupt(s.inner.off, "decompressed record %d: type %d cannot be compressed", s.inner.inner, typ)
	}
	rec := record{typ: typ, misc: misc, data: b[:size], at: s.inner}
	s.outPos += size
	s.inner.inner++
	return rec, true, nil
}

// feeder gives the zstd decoder the payloads of COMPRESSED records; when
// a zstd block continues past a payload it reads the next record, which
// must be COMPRESSED too.
type feeder struct {
	s   *stream
	buf []byte
}

// Read implements io.Reader for the zstd decoder.
func (f *feeder) Read(p []byte) (int, error) {
	if len(f.buf) == 0 {
		if err := f.s.pullCompressed(); err != nil {
			return 0, err
		}
	}
	n := copy(p, f.buf)
	f.buf = f.buf[n:]
	return n, nil
}

// pullCompressed appends the payload of the next record, which must be a
// COMPRESSED one, to the feed (a zstd block spans two records).
func (s *stream) pullCompressed() error {
	at := s.off
	if s.end-at < 16 {
		return io.ErrUnexpectedEOF
	}
	h, err := s.window(at, 8)
	if err != nil {
		return err
	}
	typ := s.order.Uint32(h)
	size := int64(s.order.Uint16(h[6:]))
	if typ != recCompressed && typ != recCompressed2 || size < 16 || size > s.end-at {
		return fmt.Errorf("a zstd block continues past the compressed record before offset %d", at)
	}
	data, err := s.window(at, int(size))
	if err != nil {
		return err
	}
	payload := data[8:]
	if typ == recCompressed2 {
		n := s.order.Uint64(payload)
		if n > uint64(len(payload)-8) {
			return fmt.Errorf("COMPRESSED2 data size %d in %d bytes", n, len(payload)-8)
		}
		payload = payload[8 : 8+n]
	}
	s.feed.buf = append(s.feed.buf[:0], payload...)
	s.off = at + size
	return nil
}

// decompress decodes a COMPRESSED record's payload: every zstd block it
// completes (perf flushes the stream at the end of each of its writes).
func (s *stream) decompress(at int64, payload []byte) error {
	if s.dec == nil {
		s.feed.s = s
		d, err := zstd.NewReader(&s.feed, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxZstdWindow), zstd.WithDecoderLowmem(true))
		if err != nil {
			return err
		}
		s.dec = d
	}
	// Keep the partial record left from the previous payload.
	rest := s.out[s.outPos:]
	s.out = append(s.out[:0], rest...)
	s.outPos = 0
	s.inner = pos{off: at, inner: 0}
	s.feed.buf = append(s.feed.buf[:0], payload...)
	start := len(s.out)
	for len(s.feed.buf) > 0 {
		// Each Read decodes at most one block (it returns what it has
		// rather than decode another), so the feed is read only for
		// blocks the payload starts.
		for {
			if len(s.out)-start > maxCompressedRecord || s.decoded > maxDecompressed {
				return corrupt(at, "COMPRESSED record decompresses to more than %d bytes", maxCompressedRecord)
			}
			if cap(s.out)-len(s.out) < 64<<10 {
				s.out = append(s.out, make([]byte, 64<<10)...)[:len(s.out)]
			}
			buf := s.out[len(s.out):cap(s.out)]
			n, err := s.dec.Read(buf)
			s.out = s.out[:len(s.out)+n]
			s.decoded += int64(n)
			if err != nil {
				if errors.Is(err, io.EOF) && len(s.feed.buf) == 0 {
					break
				}
				return corrupt(at, "zstd: %v", err)
			}
			if n < len(buf) {
				break
			}
		}
	}
	return nil
}

// reset positions the stream at off, a record's offset in the data,
// outside compressed records.
func (s *stream) reset(off int64) {
	s.off = off
	s.out, s.outPos = s.out[:0], 0
	s.pendingErr = nil
	s.extra = nil
	if s.dec != nil {
		s.dec.Close()
		s.dec = nil
	}
	s.decoded = 0
}

func (s *stream) close() {
	if s.dec != nil {
		s.dec.Close()
		s.dec = nil
	}
}
