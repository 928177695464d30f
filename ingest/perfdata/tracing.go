package perfdata

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/tracetui/tracetui/ingest/ftracefmt"
)

// tracingMagic starts the tracing-data blob, as it starts a trace.dat.
const tracingMagic = "\x17\x08\x44tracing"

const maxFormats = 1 << 16

// tracing is what the tracing-data blob holds: the tracepoints' format
// files, their byte order, and the kallsyms and saved cmdlines texts.
type tracing struct {
	order    binary.ByteOrder
	longSize int
	formats  map[int]*ftracefmt.Format // by ID (= the tracepoint attr's config)
	kallsyms []byte
	cmdlines []byte
}

// parseTracing reads the blob: magic, a NUL-terminated version ("0.5",
// "0.6"), u8 endianness (1 big), u8 long size, u32 page size, the
// header_page and header_event files (a 12- and 13-byte tag, u64 size,
// text), the ftrace format files (u32 count, per file u64 size + text),
// the event systems (u32 count; per system a NUL-terminated name, u32
// count, files), u32 size + kallsyms text, u32 size + printk formats, and
// from version 0.6 on u64 size + saved cmdlines.
func parseTracing(b []byte) (*tracing, error) {
	if !bytes.HasPrefix(b, []byte(tracingMagic)) {
		return nil, fmt.Errorf("%w: tracing data without its magic", ErrCorrupt)
	}
	c := &cursor{b: b, off: len(tracingMagic), order: binary.LittleEndian, what: "tracing data"}
	end := bytes.IndexByte(b[c.off:min(len(b), c.off+16)], 0)
	if end < 0 {
		return nil, fmt.Errorf("%w: tracing data: version string not terminated", ErrCorrupt)
	}
	version := string(b[c.off : c.off+end])
	c.off += end + 1
	t := &tracing{order: binary.LittleEndian, formats: map[int]*ftracefmt.Format{}}
	if c.u8() == 1 {
		t.order = binary.BigEndian
	}
	c.order = t.order
	t.longSize = int(c.u8())
	if ps := c.u32(); c.err == nil && (ps == 0 || ps&(ps-1) != 0) {
		c.fail("page size %d", ps)
	}
	if string(c.take(12)) != "header_page\x00" && c.err == nil {
		c.fail("no header_page")
	}
	c.take(c.u64())
	if string(c.take(13)) != "header_event\x00" && c.err == nil {
		c.fail("no header_event")
	}
	c.take(c.u64())
	t.formatFiles(c, "ftrace")
	n := c.count(uint64(c.u32()), 5)
	for i := 0; i < n && c.err == nil; i++ {
		rest := c.b[c.off:]
		k := bytes.IndexByte(rest, 0)
		if k < 0 {
			c.fail("system name not terminated")
			break
		}
		c.off += k + 1
		t.formatFiles(c, string(rest[:k]))
	}
	t.kallsyms = c.take(uint64(c.u32()))
	c.take(uint64(c.u32())) // printk formats
	if version >= "0.6" && c.left() >= 8 {
		t.cmdlines = c.take(c.u64())
	}
	if c.err != nil {
		return nil, c.err
	}
	return t, nil
}

// formatFiles reads a count and that many (u64 size, format text) pairs.
func (t *tracing) formatFiles(c *cursor, system string) {
	n := c.count(uint64(c.u32()), 8)
	for i := 0; i < n && c.err == nil; i++ {
		text := c.take(c.u64())
		if c.err != nil {
			return
		}
		if len(t.formats) >= maxFormats {
			c.fail("more than %d event formats", maxFormats)
			return
		}
		if f := ftracefmt.Parse(text, system); f != nil {
			t.formats[f.ID] = f
		}
	}
}
