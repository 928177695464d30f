package chrome

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// Checkpoints and Seek: a position is every run's offset, tied to the
// trace's sort layout.

// layoutHash identifies this trace's sort layout, so a checkpoint from
// another trace (or other Options) is refused.
func (s *Source) layoutHash() uint32 {
	var b []byte
	b = binary.AppendVarint(b, s.total)
	b = binary.AppendVarint(b, s.size)
	for _, r := range s.runs {
		b = binary.AppendVarint(b, r.end-r.start)
	}
	return crc32.ChecksumIEEE(b)
}

// seekRuns positions every run at the given offsets (relative to each
// run's start; nil: the beginning) and rebuilds the heap.
func (s *Source) seekRuns(offs []int64) error {
	s.heap = s.heap[:0]
	for i, rr := range s.readers {
		off := rr.run.start
		if offs != nil {
			off += offs[i]
		}
		if err := rr.seek(off); err != nil {
			return err
		}
		if rr.ok {
			s.heap = append(s.heap, rr)
		}
	}
	s.heap.init()
	return nil
}

// Checkpoint encoding: magic "cj", version 1, events delivered, number of
// runs, each run's head offset (relative to its start), then a CRC-32 of
// all that and the trace's sort layout. The events delivered are the rank
// in time order, all that a source reading a persisted order needs.
const cpVersion = 1

// Checkpoint implements core.Source.
func (s *Source) Checkpoint(dst []byte) []byte {
	start := len(dst)
	dst = append(dst, 'c', 'j', cpVersion)
	dst = binary.AppendUvarint(dst, uint64(s.delivered))
	// A source reading a persisted order has no runs: its checkpoints
	// (rank only) are refused by a sorting source's Seek, while it accepts
	// theirs, which the event index holds.
	dst = binary.AppendUvarint(dst, uint64(len(s.readers)))
	for _, rr := range s.readers {
		off := rr.run.end
		if rr.ok {
			off = rr.headOff
		}
		dst = binary.AppendUvarint(dst, uint64(off-rr.run.start))
	}
	crc := crc32.Update(s.layout, crc32.IEEETable, dst[start:])
	return binary.LittleEndian.AppendUint32(dst, crc)
}

// ErrBadCheckpoint is wrapped by Seek errors for checkpoints that this
// trace did not produce.
var ErrBadCheckpoint = errors.New("bad checkpoint")

// Seek implements core.Source.
func (s *Source) Seek(cp []byte) error {
	if len(cp) < 7 || cp[0] != 'c' || cp[1] != 'j' || cp[2] != cpVersion {
		return fmt.Errorf("%w: not a Chrome trace checkpoint", ErrBadCheckpoint)
	}
	body := cp[:len(cp)-4]
	if crc32.Update(s.layout, crc32.IEEETable, body) != binary.LittleEndian.Uint32(cp[len(cp)-4:]) {
		return fmt.Errorf("%w: checksum mismatch (damaged, or from another trace)", ErrBadCheckpoint)
	}
	b := body[3:]
	delivered, n := binary.Uvarint(b)
	if n <= 0 || delivered > uint64(s.total) {
		return fmt.Errorf("%w: event count", ErrBadCheckpoint)
	}
	b = b[n:]
	if s.ordered != nil { // the rank is all a persisted order needs
		s.ordered.rank, s.delivered = int64(delivered), int64(delivered)
		return nil
	}
	nr, n := binary.Uvarint(b)
	if n <= 0 || nr != uint64(len(s.readers)) {
		return fmt.Errorf("%w: run count", ErrBadCheckpoint)
	}
	b = b[n:]
	offs := make([]int64, nr)
	for i := range offs {
		o, n := binary.Uvarint(b)
		if n <= 0 || o > uint64(s.readers[i].run.end-s.readers[i].run.start) {
			return fmt.Errorf("%w: run offset", ErrBadCheckpoint)
		}
		offs[i], b = int64(o), b[n:]
	}
	if len(b) != 0 {
		return fmt.Errorf("%w: trailing bytes", ErrBadCheckpoint)
	}
	if err := s.seekRuns(offs); err != nil {
		return fmt.Errorf("%w: %v", ErrBadCheckpoint, err)
	}
	s.delivered, s.seeked, s.done = int64(delivered), true, false
	return nil
}
