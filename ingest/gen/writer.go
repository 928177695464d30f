package gen

import (
	"bufio"
	"encoding/binary"
	"io"
)

// Binary layout of a data packet (all little-endian):
//
//	offset size field
//	0      4    magic 0xC1FC1FC1
//	4      16   trace uuid
//	20     4    stream_id (0)
//	24     8    stream_instance_id (the CPU)
//	32     8    timestamp_begin
//	40     8    timestamp_end
//	48     8    content_size, bits
//	56     8    packet_size, bits (content rounded up to 4 KiB, as LTTng)
//	64     8    packet_seq_num
//	72     8    events_discarded (0)
//	80     4    cpu_id
//	84          events: a large event header (16-bit id then a 32-bit
//	            timestamp, or id 65535, a 32-bit id and a 64-bit
//	            timestamp when the timestamp's high 32 bits changed since
//	            the previous event, as LTTng does) and the payload.
const (
	packetHeaderSize = 84
	pageSize         = 4096
	extendedID       = 65535
)

// streamWriter writes the packets of one CPU's stream.
type streamWriter struct {
	w       *bufio.Writer
	uuid    [16]byte
	cpu     uint32
	max     int    // largest packet, bytes
	pkt     []byte // packet being filled
	seq     uint64
	last    uint64 // timestamp of the last event (or packet begin)
	open    bool
	pay     enc // payload of the event being built
	events  int64
	written int64
	packets int64
	err     error
}

func newStreamWriter(w io.Writer, uuid [16]byte, cpu uint32, maxPacket int) *streamWriter {
	return &streamWriter{w: bufio.NewWriterSize(w, 1<<20), uuid: uuid, cpu: cpu, max: maxPacket, pkt: make([]byte, 0, maxPacket)}
}

func (s *streamWriter) openPacket(begin uint64) {
	p := s.pkt[:0]
	p = binary.LittleEndian.AppendUint32(p, 0xC1FC1FC1)
	p = append(p, s.uuid[:]...)
	p = binary.LittleEndian.AppendUint32(p, 0)
	p = binary.LittleEndian.AppendUint64(p, uint64(s.cpu))
	p = binary.LittleEndian.AppendUint64(p, begin)
	p = append(p, make([]byte, 8*3)...) // end, content and packet sizes: patched on close
	p = binary.LittleEndian.AppendUint64(p, s.seq)
	p = binary.LittleEndian.AppendUint64(p, 0)
	p = binary.LittleEndian.AppendUint32(p, s.cpu)
	s.pkt, s.last, s.open = p, begin, true
}

// closePacket ends the packet at time end and writes it, padded to a
// multiple of 4 KiB.
func (s *streamWriter) closePacket(end uint64) {
	if !s.open || s.err != nil {
		return
	}
	content := len(s.pkt)
	size := (content + pageSize - 1) / pageSize * pageSize
	binary.LittleEndian.PutUint64(s.pkt[40:], end)
	binary.LittleEndian.PutUint64(s.pkt[48:], uint64(content)*8)
	binary.LittleEndian.PutUint64(s.pkt[56:], uint64(size)*8)
	for len(s.pkt) < size {
		s.pkt = append(s.pkt, 0)
	}
	if _, err := s.w.Write(s.pkt); err != nil {
		s.err = err
	}
	s.written += int64(size)
	s.packets++
	s.seq++
	s.open = false
}

// emit writes an event whose payload is in s.pay.
func (s *streamWriter) emit(id uint16, ts uint64) {
	if !s.open {
		s.openPacket(ts)
	}
	hdr := 6
	if ts>>32 != s.last>>32 {
		hdr = 14
	}
	if len(s.pkt)+hdr+len(s.pay.b) > s.max {
		end := s.last
		s.closePacket(end)
		s.openPacket(end)
		hdr = 6
		if ts>>32 != s.last>>32 {
			hdr = 14
		}
	}
	p := s.pkt
	if hdr == 6 {
		p = binary.LittleEndian.AppendUint16(p, id)
		p = binary.LittleEndian.AppendUint32(p, uint32(ts))
	} else {
		p = binary.LittleEndian.AppendUint16(p, extendedID)
		p = binary.LittleEndian.AppendUint32(p, uint32(id))
		p = binary.LittleEndian.AppendUint64(p, ts)
	}
	s.pkt = append(p, s.pay.b...)
	s.last = ts
	s.events++
	s.pay.b = s.pay.b[:0]
}

// finish writes the last packet and flushes.
func (s *streamWriter) finish(end uint64) error {
	if !s.open {
		s.openPacket(end) // every CPU has at least one packet
	}
	s.closePacket(max(end, s.last))
	if s.err != nil {
		return s.err
	}
	return s.w.Flush()
}

// enc appends little-endian payload fields.
type enc struct{ b []byte }

func (e *enc) i32(v int32)  { e.b = binary.LittleEndian.AppendUint32(e.b, uint32(v)) }
func (e *enc) u32(v uint32) { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
func (e *enc) i64(v int64)  { e.b = binary.LittleEndian.AppendUint64(e.b, uint64(v)) }
func (e *enc) u64(v uint64) { e.b = binary.LittleEndian.AppendUint64(e.b, v) }
func (e *enc) u8(v uint8)   { e.b = append(e.b, v) }

// comm appends a task name as a char[16], NUL-padded.
func (e *enc) comm(s string) {
	var c [16]byte
	copy(c[:15], s)
	e.b = append(e.b, c[:]...)
}

func (e *enc) str(s string) {
	e.b = append(e.b, s...)
	e.b = append(e.b, 0)
}

// packetizeMetadata splits metadata text into LTTng-style metadata
// packets of at most 4 KiB.
func packetizeMetadata(text []byte, uuid [16]byte) []byte {
	const maxPayload = pageSize - 37
	var out []byte
	for len(text) > 0 {
		n := min(len(text), maxPayload)
		chunk := text[:n]
		text = text[n:]
		content := (37 + n) * 8
		size := pageSize * 8
		hdr := binary.LittleEndian.AppendUint32(nil, 0x75D11D57)
		hdr = append(hdr, uuid[:]...)
		hdr = binary.LittleEndian.AppendUint32(hdr, 0) // checksum
		hdr = binary.LittleEndian.AppendUint32(hdr, uint32(content))
		hdr = binary.LittleEndian.AppendUint32(hdr, uint32(size))
		hdr = append(hdr, 0, 0, 0, 1, 8) // compression, encryption, checksum schemes; version 1.8
		out = append(out, hdr...)
		out = append(out, chunk...)
		out = append(out, make([]byte, size/8-37-n)...)
	}
	return out
}
