package profile

import (
	"encoding/binary"
	"fmt"

	"github.com/tracetui/tracetui/core"
)

const (
	magic      = "TTPROF\x00\x00"
	version    = Version
	headerSize = 80
	entrySize  = 40
)

// header is the decoded fixed part of the section.
type header struct {
	samples     uint64
	blockBytes  uint64
	blocks      uint32
	threads     uint32
	paths       uint32
	names       uint32
	nameBytes   uint64
	first, last core.Time
}

// blockEntry is a block's line in the directory.
type blockEntry struct {
	off         uint64
	first, last core.Time
	runs, n     uint32
	crc         uint32 // of the block's bytes
}

func (e blockEntry) append(b []byte) []byte {
	b = binary.LittleEndian.AppendUint64(b, e.off)
	b = binary.LittleEndian.AppendUint64(b, uint64(e.first))
	b = binary.LittleEndian.AppendUint64(b, uint64(e.last))
	b = binary.LittleEndian.AppendUint32(b, e.runs)
	b = binary.LittleEndian.AppendUint32(b, e.n)
	b = binary.LittleEndian.AppendUint32(b, e.crc)
	return binary.LittleEndian.AppendUint32(b, 0)
}

func decodeEntry(b []byte) blockEntry {
	return blockEntry{off: binary.LittleEndian.Uint64(b), first: core.Time(binary.LittleEndian.Uint64(b[8:])),
		last: core.Time(binary.LittleEndian.Uint64(b[16:])), runs: binary.LittleEndian.Uint32(b[24:]), n: binary.LittleEndian.Uint32(b[28:]),
		crc: binary.LittleEndian.Uint32(b[32:])}
}

// encode returns the header's bytes, its checksum covering tables too.
func (h *header) encode(tables []byte) []byte {
	b := make([]byte, headerSize)
	copy(b, magic)
	binary.LittleEndian.PutUint32(b[8:], version)
	binary.LittleEndian.PutUint64(b[16:], h.samples)
	binary.LittleEndian.PutUint64(b[24:], h.blockBytes)
	binary.LittleEndian.PutUint32(b[32:], h.blocks)
	binary.LittleEndian.PutUint32(b[36:], h.threads)
	binary.LittleEndian.PutUint32(b[40:], h.paths)
	binary.LittleEndian.PutUint32(b[44:], h.names)
	binary.LittleEndian.PutUint64(b[48:], h.nameBytes)
	binary.LittleEndian.PutUint64(b[56:], uint64(h.first))
	binary.LittleEndian.PutUint64(b[64:], uint64(h.last))
	binary.LittleEndian.PutUint32(b[12:], checksum(b, tables))
	return b
}

// checksum is the CRC-32C of the header, its checksum field zero, and of
// the tables.
func checksum(hdr, tables []byte) uint32 {
	var b [headerSize]byte
	copy(b[:], hdr)
	clear(b[12:16])
	return core.UpdateCRC32C(core.CRC32C(b[:]), tables)
}

// tablesSize returns the size of the tables after the blocks.
func (h *header) tablesSize() uint64 {
	return uint64(h.blocks)*entrySize + uint64(h.threads)*8 + uint64(h.paths)*8 + uint64(h.names)*4 + h.nameBytes
}

// decodeHeader checks b (headerSize bytes) against the section's size
// and returns its header; the checksum is checked once the tables are
// read.
func decodeHeader(b []byte, size int64) (header, error) {
	var h header
	if len(b) < headerSize || string(b[:8]) != magic {
		return h, fmt.Errorf("%w: bad magic", ErrCorrupt)
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != version {
		return h, fmt.Errorf("%w: version %d, this build reads %d", ErrVersion, v, version)
	}
	h.samples = binary.LittleEndian.Uint64(b[16:])
	h.blockBytes = binary.LittleEndian.Uint64(b[24:])
	h.blocks = binary.LittleEndian.Uint32(b[32:])
	h.threads = binary.LittleEndian.Uint32(b[36:])
	h.paths = binary.LittleEndian.Uint32(b[40:])
	h.names = binary.LittleEndian.Uint32(b[44:])
	h.nameBytes = binary.LittleEndian.Uint64(b[48:])
	h.first = core.Time(binary.LittleEndian.Uint64(b[56:]))
	h.last = core.Time(binary.LittleEndian.Uint64(b[64:]))
	// Each term is bounded by size before the sum, so hostile counts
	// cannot overflow it.
	if size < headerSize || h.blockBytes > uint64(size) || h.nameBytes > uint64(size) ||
		headerSize+h.blockBytes+h.tablesSize() != uint64(size) {
		return h, fmt.Errorf("%w: sizes do not add up to %d bytes", ErrCorrupt, size)
	}
	if h.samples > uint64(h.blocks)*BlockLen || (h.samples > 0) != (h.blocks > 0) || (h.samples > 0 && h.last < h.first) {
		return h, fmt.Errorf("%w: %d samples in %d blocks from %d to %d", ErrCorrupt, h.samples, h.blocks, h.first, h.last)
	}
	return h, nil
}
