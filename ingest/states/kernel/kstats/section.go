package kstats

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"

	"github.com/tracetui/tracetui/core"
)

// SectionName is the index section that holds the whole trace's report.
const SectionName = "whole-trace-stats"

// Version changes whenever the stored report would differ for the same
// trace (what Compute derives, the encoding): it is part of the index's
// fingerprint, so an index of another version is rebuilt.
const Version = 4 // 4: a wait for a CPU beside another is a wake-up's end or a preemption (RanNextTo)

// StoredTop is the length of the N-worst lists stored: a query for at
// most that many reads them from the index.
const StoredTop = 100

// MaxSection bounds the section a reader accepts (a report of millions
// of threads is tens of MB).
const MaxSection = 1 << 30

// ErrCorrupt: the section is not a report this version wrote.
var ErrCorrupt = errors.New("whole-trace statistics section damaged")

// magic starts the section; then the version, the top and the CRC-32C of
// both and of the body, each a little-endian uint32; then the body: the
// report in varints (codec.go), compressed with zstd.
var magic = []byte("ttkstats")

// Encode returns the section's bytes for rep, whose lists hold top
// occurrences at most.
func Encode(rep *Report, top int) ([]byte, error) {
	e := &enc{b: make([]byte, 0, 64<<10)}
	e.report(rep)
	return encodeBody(e.b, top)
}

// encodeBody returns the section of an encoded report (codec.go).
func encodeBody(raw []byte, top int) ([]byte, error) {
	// A window of 1 MB, not the default 8: the encoder's history is
	// most of what it allocates, and the sections compress as well.
	zw, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithWindowSize(1<<20))
	if err != nil {
		return nil, fmt.Errorf("encoding the whole-trace statistics: %w", err)
	}
	head := len(magic) + 12
	out := make([]byte, head, head+len(raw)/2) // the body is compressed after the head
	copy(out, magic)
	out = zw.EncodeAll(raw, out)
	zw.Close()
	binary.LittleEndian.PutUint32(out[len(magic):], Version)
	binary.LittleEndian.PutUint32(out[len(magic)+4:], uint32(top))
	binary.LittleEndian.PutUint32(out[len(magic)+8:], checksum(out[len(magic):len(magic)+8], out[head:]))
	return out, nil
}

// Decode reads a section of size bytes from r: the report and the length
// of its N-worst lists. Anything but a whole, intact section of this
// version is ErrCorrupt (the caller computes the report instead).
func Decode(r io.ReaderAt, size int64) (*Report, int, error) {
	head := int64(len(magic) + 12)
	if size < head || size > MaxSection {
		return nil, 0, fmt.Errorf("%w: %d bytes", ErrCorrupt, size)
	}
	b := make([]byte, size)
	if _, err := r.ReadAt(b, 0); err != nil {
		return nil, 0, fmt.Errorf("reading the whole-trace statistics: %w", err)
	}
	if !bytes.Equal(b[:len(magic)], magic) {
		return nil, 0, fmt.Errorf("%w: no magic", ErrCorrupt)
	}
	le := binary.LittleEndian
	ver, top, sum := le.Uint32(b[len(magic):]), le.Uint32(b[len(magic)+4:]), le.Uint32(b[len(magic)+8:])
	body := b[head:]
	if ver != Version || top > 1<<20 || checksum(b[len(magic):len(magic)+8], body) != sum {
		return nil, 0, fmt.Errorf("%w: version %d, top %d, checksum", ErrCorrupt, ver, top)
	}
	zr, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(MaxSection))
	if err != nil {
		return nil, 0, fmt.Errorf("reading the whole-trace statistics: %w", err)
	}
	defer zr.Close()
	raw, err := zr.DecodeAll(body, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	d := &dec{b: raw}
	rep := d.report()
	if d.err != nil {
		return nil, 0, fmt.Errorf("%w: %w", ErrCorrupt, d.err)
	}
	return rep, int(top), nil
}

// checksum is the CRC-32C of the version and top fields and the body.
func checksum(head, body []byte) uint32 {
	h := core.NewCRC32C()
	h.Write(head)
	h.Write(body)
	return h.Sum32()
}
