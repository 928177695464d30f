package history

import (
	"fmt"
	"unicode/utf8"
)

// section is one named blob stored after the attribute tree.
type section struct {
	name      string
	off, size uint64 // absolute in the file
	crc       uint32 // CRC32C of the bytes
}

const maxSectionName = 255

func checkSectionName(name string) error {
	if name == "" || len(name) > maxSectionName || !utf8.ValidString(name) {
		return fmt.Errorf("history: section name %q: want 1 to %d bytes of UTF-8", name, maxSectionName)
	}
	return nil
}

func encodeSections(ss []section) []byte {
	b := le.AppendUint32(nil, uint32(len(ss)))
	for _, s := range ss {
		b = le.AppendUint16(b, uint16(len(s.name)))
		b = append(b, s.name...)
		b = le.AppendUint64(b, s.off)
		b = le.AppendUint64(b, s.size)
		b = le.AppendUint32(b, s.crc)
	}
	return b
}

// decodeSections reads the section table; every section must lie inside
// [lo, hi) of the file.
func decodeSections(b []byte, count uint32, lo, hi uint64) ([]section, error) {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: section table: %s", ErrCorrupt, fmt.Sprintf(format, a...))
	}
	if len(b) < 4 || le.Uint32(b) != count {
		return nil, bad("count does not match the header's %d", count)
	}
	if uint64(count)*22 > uint64(len(b)) {
		return nil, bad("%d sections in %d bytes", count, len(b))
	}
	ss := make([]section, 0, count)
	pos := 4
	for i := range int(count) {
		if len(b)-pos < 2 {
			return nil, bad("section %d: short", i)
		}
		l := int(le.Uint16(b[pos:]))
		pos += 2
		if len(b)-pos < l+20 {
			return nil, bad("section %d: short", i)
		}
		s := section{name: string(b[pos : pos+l])}
		pos += l
		s.off, s.size, s.crc = le.Uint64(b[pos:]), le.Uint64(b[pos+8:]), le.Uint32(b[pos+16:])
		pos += 20
		if err := checkSectionName(s.name); err != nil {
			return nil, bad("section %d: %v", i, err)
		}
		if s.off < lo || s.off > hi || s.size > hi-s.off {
			return nil, bad("section %q at [%d, +%d) outside [%d, %d)", s.name, s.off, s.size, lo, hi)
		}
		for _, o := range ss {
			if o.name == s.name {
				return nil, bad("section %q twice", s.name)
			}
		}
		ss = append(ss, s)
	}
	if pos != len(b) {
		return nil, bad("%d bytes left over", len(b)-pos)
	}
	return ss, nil
}
