package tracedat

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// Checkpoints: where a reader is, as bytes the event index keeps, and the
// seek back to it.

// Checkpoint implements core.Source: per CPU, the position of its pending
// record (page, offset, time before it), and the time last delivered.
func (s *Source) Checkpoint(dst []byte) []byte {
	start := len(dst)
	dst = append(dst, checkpointMagic...)
	dst = binary.AppendUvarint(dst, uint64(len(s.cpus)))
	dst = binary.AppendVarint(dst, s.last)
	for _, c := range s.cpus {
		m := c.mark
		if c == s.cur { // consumed: resume after it
			m = c.state()
		}
		dst = binary.AppendUvarint(dst, uint64(m.page))
		dst = binary.AppendUvarint(dst, uint64(m.pos))
		dst = binary.AppendVarint(dst, m.ts)
		dst = binary.AppendUvarint(dst, boolU(m.started))
	}
	return binary.LittleEndian.AppendUint32(dst, crc32.ChecksumIEEE(dst[start:]))
}

// Seek implements core.Source.
func (s *Source) Seek(cp []byte) error {
	bad := func(what string) error { return fmt.Errorf("%s: %w: %s", s.path, ErrBadCheckpoint, what) }
	if len(cp) < len(checkpointMagic)+4 || string(cp[:len(checkpointMagic)]) != checkpointMagic {
		return bad("not a trace.dat checkpoint")
	}
	body, sum := cp[:len(cp)-4], binary.LittleEndian.Uint32(cp[len(cp)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return bad("checksum mismatch (damaged, or from another trace)")
	}
	r := body[len(checkpointMagic):]
	uv := func() uint64 {
		v, n := binary.Uvarint(r)
		if n <= 0 {
			r = nil
			return 1 << 62
		}
		r = r[n:]
		return v
	}
	sv := func() int64 {
		v, n := binary.Varint(r)
		if n <= 0 {
			r = nil
			return 0
		}
		r = r[n:]
		return v
	}
	if uv() != uint64(len(s.cpus)) {
		return bad("CPU count")
	}
	last := sv()
	marks := make([]mark, len(s.cpus))
	for i, c := range s.cpus {
		m := mark{page: int(min(uv(), 1<<40)), pos: int(min(uv(), 1<<40)), ts: sv(), started: uv() == 1}
		if r == nil || m.page*c.buf.pageSize > c.cpu.length() || m.pos > c.buf.pageSize {
			return bad("position")
		}
		marks[i] = m
	}
	for i, c := range s.cpus {
		c.resume(marks[i], func(w pageWarning) { s.pageWarning(c, w) })
		s.fill(c)
	}
	s.cur, s.last, s.unprimed = nil, last, false
	return nil
}
