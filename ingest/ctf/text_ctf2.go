package ctf

import (
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// CTF 2 strings in UTF-16 and UTF-32: the terminator is an all-zero code
// unit (2 or 4 bytes from the string's start), and the text is converted
// to UTF-8 for the fields and the printer, as babeltrace2 2.1 prints it
// (invalid code units become U+FFFD).

// unitNUL returns the byte index of the first all-zero code unit of b,
// or -1.
func unitNUL(b []byte, unit int) int {
	for i := 0; i+unit <= len(b); i += unit {
		zero := true
		for _, c := range b[i : i+unit] {
			if c != 0 {
				zero = false
				break
			}
		}
		if zero {
			return i
		}
	}
	return -1
}

// appendUTF8 appends the text of b, in encoding enc, as UTF-8 (a
// trailing partial code unit is dropped).
func appendUTF8(dst, b []byte, enc tsdl.Encoding) []byte {
	switch enc {
	case tsdl.EncodingUTF16BE, tsdl.EncodingUTF16LE:
		var order binary.ByteOrder = binary.LittleEndian
		if enc == tsdl.EncodingUTF16BE {
			order = binary.BigEndian
		}
		for i := 0; i+2 <= len(b); i += 2 {
			r := rune(order.Uint16(b[i:]))
			if utf16.IsSurrogate(r) {
				r2 := utf8.RuneError
				if i+4 <= len(b) {
					r2 = utf16.DecodeRune(r, rune(order.Uint16(b[i+2:])))
				}
				if r2 != utf8.RuneError {
					i += 2
				}
				r = r2
			}
			dst = utf8.AppendRune(dst, r)
		}
		return dst
	case tsdl.EncodingUTF32BE, tsdl.EncodingUTF32LE:
		var order binary.ByteOrder = binary.LittleEndian
		if enc == tsdl.EncodingUTF32BE {
			order = binary.BigEndian
		}
		for i := 0; i+4 <= len(b); i += 4 {
			r := rune(order.Uint32(b[i:]))
			if !utf8.ValidRune(r) {
				r = utf8.RuneError
			}
			dst = utf8.AppendRune(dst, r)
		}
		return dst
	}
	return append(dst, b...)
}

// keepUTF8 returns the UTF-8 text of b (in enc), kept in d.wide, which is
// never overwritten (see wideText).
func (d *dec) keepUTF8(b []byte, enc tsdl.Encoding) []byte {
	need := 2 * len(b) // UTF-16 unit: 3 bytes at most for 2; UTF-32: 4 for 4
	if cap(d.wide)-len(d.wide) < need {
		d.wide = make([]byte, 0, max(wideChunk, need))
	}
	start := len(d.wide)
	d.wide = appendUTF8(d.wide, b, enc)
	return d.wide[start:len(d.wide):len(d.wide)]
}

// unitString decodes a NUL-terminated string of unit-byte code units at
// pos: its bytes (without the terminator) and the position after it.
func (d *dec) unitString(o *op, pos int64) (int64, error) {
	unit := int64(o.size)
	i, end := (pos-d.base)>>3, (d.limit-d.base)>>3
	if i > end {
		return pos, d.short(pos, 8*unit)
	}
	k := unitNUL(d.data[i:end], int(unit))
	if k < 0 {
		if d.limit < d.content {
			return pos, errRefill
		}
		return pos, d.fail(pos, "string at bit %d is not terminated before the end of the packet content", pos)
	}
	if o.field >= 0 {
		d.fields[o.field].Bytes = d.keepUTF8(d.data[i:i+int64(k)], o.node.typ.Encoding)
	}
	return pos + (int64(k)+unit)*8, nil
}
