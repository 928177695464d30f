package perfdata

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// cursor reads fields from a byte slice with bounds checks; the first
// failure sticks in err and every later read returns zero values, so a
// parser reads a whole structure and checks err once.
type cursor struct {
	b     []byte
	off   int
	order binary.ByteOrder
	err   error
	what  string // what is being read, for errors
}

func (c *cursor) fail(format string, a ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("%w: %s at byte %d: %s", ErrCorrupt, c.what, c.off, fmt.Sprintf(format, a...))
	}
}

// left is the number of bytes not read yet.
func (c *cursor) left() int { return len(c.b) - c.off }

func (c *cursor) take(n uint64) []byte {
	if c.err != nil {
		return nil
	}
	if n > uint64(c.left()) {
		c.fail("%d bytes needed, %d left", n, c.left())
		return nil
	}
	s := c.b[c.off : c.off+int(n)]
	c.off += int(n)
	return s
}

func (c *cursor) u8() uint8 {
	if b := c.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (c *cursor) u16() uint16 {
	if b := c.take(2); b != nil {
		return c.order.Uint16(b)
	}
	return 0
}

func (c *cursor) u32() uint32 {
	if b := c.take(4); b != nil {
		return c.order.Uint32(b)
	}
	return 0
}

func (c *cursor) u64() uint64 {
	if b := c.take(8); b != nil {
		return c.order.Uint64(b)
	}
	return 0
}

// count reads a u32 or u64 count of items of at least minSize bytes each
// and fails when the bytes left cannot hold them (so no count read from
// the file sizes an allocation beyond the file).
func (c *cursor) count(n uint64, minSize int) int {
	if c.err != nil {
		return 0
	}
	if minSize < 1 {
		minSize = 1
	}
	if n > uint64(c.left()/minSize) {
		c.fail("%d items of %d bytes in %d bytes", n, minSize, c.left())
		return 0
	}
	return int(n)
}

// headerString reads a perf_header_string: a u32 length (padding
// included), then that many bytes holding a NUL-terminated string.
func (c *cursor) headerString() string {
	b := c.take(uint64(c.u32()))
	return cstr(b)
}

// cstr returns b up to its first NUL.
func cstr(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// cbytes returns b up to its first NUL, without copying.
func cbytes(b []byte) []byte {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return b[:i]
	}
	return b
}
