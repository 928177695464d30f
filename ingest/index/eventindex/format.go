package eventindex

import (
	"encoding/binary"
	"fmt"

	"github.com/tracetui/tracetui/core"
)

const (
	magic      = "TTEVIDX\x00"
	version    = 1
	headerSize = 64
	entrySize  = 16
)

// header is the decoded fixed part of the index.
type header struct {
	every       uint32
	events      uint64
	entries     uint64
	blobBytes   uint64
	first, last core.Time
}

func (h *header) encode() []byte {
	b := make([]byte, headerSize)
	copy(b, magic)
	binary.LittleEndian.PutUint32(b[8:], version)
	binary.LittleEndian.PutUint32(b[12:], h.every)
	binary.LittleEndian.PutUint64(b[16:], h.events)
	binary.LittleEndian.PutUint64(b[24:], h.entries)
	binary.LittleEndian.PutUint64(b[32:], h.blobBytes)
	binary.LittleEndian.PutUint64(b[40:], uint64(h.first))
	binary.LittleEndian.PutUint64(b[48:], uint64(h.last))
	binary.LittleEndian.PutUint32(b[56:], core.CRC32C(b[:56]))
	return b
}

// decodeHeader checks b (headerSize bytes) against the total size of the
// index and returns its header.
func decodeHeader(b []byte, size int64) (header, error) {
	var h header
	if len(b) < headerSize || string(b[:8]) != magic {
		return h, fmt.Errorf("%w: bad magic", ErrCorrupt)
	}
	if core.CRC32C(b[:56]) != binary.LittleEndian.Uint32(b[56:]) {
		return h, fmt.Errorf("%w: header checksum mismatch", ErrCorrupt)
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != version {
		return h, fmt.Errorf("%w: version %d, this build reads %d", ErrVersion, v, version)
	}
	h.every = binary.LittleEndian.Uint32(b[12:])
	h.events = binary.LittleEndian.Uint64(b[16:])
	h.entries = binary.LittleEndian.Uint64(b[24:])
	h.blobBytes = binary.LittleEndian.Uint64(b[32:])
	h.first = core.Time(binary.LittleEndian.Uint64(b[40:]))
	h.last = core.Time(binary.LittleEndian.Uint64(b[48:]))
	if h.every == 0 {
		return h, fmt.Errorf("%w: zero events per checkpoint", ErrCorrupt)
	}
	if want := (h.events + uint64(h.every) - 1) / uint64(h.every); h.entries != want {
		return h, fmt.Errorf("%w: %d entries for %d events every %d", ErrCorrupt, h.entries, h.events, h.every)
	}
	// Sizes are checked in uint64 after bounding each term by size, so
	// hostile counts cannot overflow the sum.
	if size < headerSize || h.entries > uint64(size)/entrySize || h.blobBytes > uint64(size) ||
		headerSize+h.entries*entrySize+h.blobBytes != uint64(size) {
		return h, fmt.Errorf("%w: sizes do not add up to %d bytes", ErrCorrupt, size)
	}
	if h.events > 0 && h.last < h.first {
		return h, fmt.Errorf("%w: last event before the first", ErrCorrupt)
	}
	return h, nil
}
