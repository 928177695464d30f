package ctf

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"sort"

	"github.com/tracetui/tracetui/core"
)

// A checkpoint records, for every stream, where its next undelivered
// event starts: packet index, bit offset in the packet, and the clock
// value before it (all the N-bit timestamp reconstruction needs). The
// merge is deterministic (time, then stream index), so resuming every
// stream there reproduces the merged sequence exactly.
//
// Encoding (unsigned varints unless noted):
//
//	byte    version (1)
//	uint64  fingerprint of the trace layout (little-endian, 8 bytes)
//	n       number of streams
//	per stream: state (0 from start, 1 at end, 2 at a position),
//	            then for state 2: packet, bit offset, clock value
const checkpointVersion = 1

// ErrBadCheckpoint is wrapped by Seek errors about malformed checkpoints.
var ErrBadCheckpoint = errors.New("ctf: bad checkpoint")

const (
	cpStart = 0
	cpEnd   = 1
	cpAt    = 2
)

// fingerprint identifies the trace layout a checkpoint belongs to.
func (r *Reader) fingerprint() uint64 {
	h := fnv.New64a()
	var b [8]byte
	for _, s := range r.streams {
		binary.LittleEndian.PutUint64(b[:], uint64(s.size))
		h.Write(b[:])
		binary.LittleEndian.PutUint64(b[:], uint64(len(s.packets)))
		h.Write(b[:])
	}
	return h.Sum64()
}

// Checkpoint appends the position just after the event last returned by
// Next.
func (r *Reader) Checkpoint(dst []byte) []byte {
	dst = append(dst, checkpointVersion)
	dst = binary.LittleEndian.AppendUint64(dst, r.fingerprint())
	dst = binary.AppendUvarint(dst, uint64(len(r.streams)))
	for i, s := range r.streams {
		switch {
		case r.started && int32(i) == r.last:
			dst = append(dst, cpAt)
			dst = binary.AppendUvarint(dst, uint64(s.cur))
			dst = binary.AppendUvarint(dst, uint64(s.d.pos))
			dst = binary.AppendUvarint(dst, s.d.clock)
		case s.eof:
			dst = append(dst, cpEnd)
		case (r.started || s.ready) && s.cur >= 0:
			dst = append(dst, cpAt)
			dst = binary.AppendUvarint(dst, uint64(s.cur))
			dst = binary.AppendUvarint(dst, uint64(s.evStart))
			dst = binary.AppendUvarint(dst, s.clockBefore)
		default:
			dst = append(dst, cpStart)
		}
	}
	return dst
}

type streamPos struct {
	state  byte
	packet int
	pos    int64
	clock  uint64
}

func (r *Reader) parseCheckpoint(cp []byte) ([]streamPos, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: %s", ErrBadCheckpoint, fmt.Sprintf(format, a...))
	}
	if len(cp) < 9 || cp[0] != checkpointVersion {
		return nil, bad("unknown version or too short")
	}
	if binary.LittleEndian.Uint64(cp[1:]) != r.fingerprint() {
		return nil, bad("taken on another trace")
	}
	cp = cp[9:]
	uv := func() (uint64, error) {
		v, n := binary.Uvarint(cp)
		if n <= 0 {
			return 0, bad("truncated")
		}
		cp = cp[n:]
		return v, nil
	}
	n, err := uv()
	if err != nil {
		return nil, err
	}
	if n != uint64(len(r.streams)) {
		return nil, bad("%d streams, the trace has %d", n, len(r.streams))
	}
	out := make([]streamPos, n)
	for i := range out {
		if len(cp) == 0 {
			return nil, bad("truncated")
		}
		st := cp[0]
		cp = cp[1:]
		out[i].state = st
		switch st {
		case cpStart, cpEnd:
			continue
		case cpAt:
		default:
			return nil, bad("stream %d: unknown state %d", i, st)
		}
		pk, err := uv()
		if err != nil {
			return nil, err
		}
		pos, err := uv()
		if err != nil {
			return nil, err
		}
		clk, err := uv()
		if err != nil {
			return nil, err
		}
		s := r.streams[i]
		if pk >= uint64(len(s.packets)) {
			return nil, bad("stream %d: packet %d out of range", i, pk)
		}
		p := s.packets[pk]
		if pos < uint64(p.hdrEnd) || pos > uint64(p.content) {
			return nil, bad("stream %d: position %d outside packet %d's events", i, pos, pk)
		}
		out[i] = streamPos{state: st, packet: int(pk), pos: int64(pos), clock: clk}
	}
	if len(cp) != 0 {
		return nil, bad("trailing bytes")
	}
	return out, nil
}

// Seek resumes at a position saved by Checkpoint.
func (r *Reader) Seek(cp []byte) error {
	pos, err := r.parseCheckpoint(cp)
	if err != nil {
		return err
	}
	r.reset()
	for i, s := range r.streams {
		sp := pos[i]
		switch sp.state {
		case cpEnd:
			s.eof = true
		case cpStart:
		case cpAt:
			if err := s.loadPacket(sp.packet); err != nil {
				r.err = err
				return err
			}
			s.d.pos, s.d.clock = sp.pos, sp.clock
			if err := s.head(); err != nil {
				r.err = err
				return err
			}
		}
	}
	return nil
}

// reset rewinds every stream to its start.
func (r *Reader) reset() {
	r.err, r.started, r.last, r.heap = nil, false, -1, r.heap[:0]
	for _, s := range r.streams {
		s.eof, s.ready, s.cur, s.counting = false, false, -1, false
		s.d.clock = 0 // as before the first packet
		s.haveLast = false
	}
}

// head decodes the stream's next event as its head, not yet merged.
func (s *stream) head() error {
	s.counting = false
	if err := s.next(); err != nil {
		return err
	}
	s.ready = true
	return nil
}

// SeekTime positions the reader so that Next returns the first event at
// or after t, using the packet index to skip packets that end before t.
func (r *Reader) SeekTime(t core.Time) error {
	r.reset()
	for _, s := range r.streams {
		if err := s.seekTime(t); err != nil {
			r.err = err
			return err
		}
	}
	return nil
}

func (s *stream) seekTime(t core.Time) error {
	sp := s.sp
	start := 0
	if sp.clock != nil && sp.tsBegin != nil && sp.tsEnd != nil {
		// The first packet ending at or after t; every packet sets the
		// clock with its timestamp_begin, so decoding can start there.
		start = sort.Search(len(s.packets), func(i int) bool {
			e, ok := sp.conv.ns(s.packets[i].end)
			return !ok || e >= t
		})
		if start == len(s.packets) {
			s.eof = true
			return nil
		}
	}
	if err := s.loadPacket(start); err != nil {
		return err
	}
	for {
		if err := s.head(); err != nil {
			return err
		}
		if s.eof || s.ev.Time >= t {
			return nil
		}
	}
}
