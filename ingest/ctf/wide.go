package ctf

// Integers wider than 64 bits (CTF 1.8.3 allows any size; LTTng never
// writes them). They cannot be a length, a tag, a clock value or an
// enumeration container (the compiler refuses these), so the decoder only
// needs their text: "0x" and the upper-case hexadecimal digits of their
// bits, leading zeros dropped, as babeltrace2 prints a base-16 integer.
// A signed one prints its two's-complement bits, as babeltrace2 prints a
// negative base-16 integer. babeltrace2 2.0.4 itself refuses such traces.

// wideChunk is the least capacity the decoder allocates for wide integer
// text at a time.
const wideChunk = 4096

// wideText returns the text of the size-bit integer at bit offset off of
// d.data. The text is appended to d.wide and never overwritten: fields of
// the packet context are copied into every event of the packet, so a
// buffer reused per event would change them. A full buffer is replaced,
// not grown, for the same reason.
func (d *dec) wideText(off int64, size int, be bool) []byte {
	need := 2 + (size+3)/4
	if cap(d.wide)-len(d.wide) < need {
		d.wide = make([]byte, 0, max(wideChunk, need))
	}
	start := len(d.wide)
	d.wide = appendWideHex(d.wide, d.data, off, size, be)
	return d.wide[start:len(d.wide):len(d.wide)]
}

// appendWideHex appends the size-bit integer at bit offset off of data in
// hexadecimal. Each digit is the 4-bit integer read at its place: bit j of
// a little-endian integer is bit off+j of data, bit j of a big-endian one
// is bit off+size-1-j (bits counted from each byte's low end for the
// first, high end for the second, as readBits does). The caller checked
// that the bits are in data.
func appendWideHex(dst, data []byte, off int64, size int, be bool) []byte {
	dst = append(dst, "0x"...)
	start := len(dst)
	for k := (size+3)/4 - 1; k >= 0; k-- {
		lo := 4 * k // the digit's lowest bit in the value
		w := min(4, size-lo)
		var v uint64
		if be {
			v = readBits(data, off+int64(size-lo-w), uint(w), true)
		} else {
			v = readBits(data, off+int64(lo), uint(w), false)
		}
		if v == 0 && len(dst) == start && k > 0 {
			continue
		}
		dst = append(dst, "0123456789ABCDEF"[v])
	}
	return dst
}
