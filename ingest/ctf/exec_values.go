package ctf

import (
	"encoding/binary"
	"math/bits"
)

// The decoder's helpers for values: the fields with a meaning (clock,
// stream id...), enumeration labels, bit reads, strings.

// special handles the flagged integers: clock values, event ids, enums.
func (d *dec) special(o *op, v uint64) {
	if o.flags&fClock != 0 {
		d.updateClock(v, o.size)
	}
	if o.flags&fEventID != 0 {
		d.evID, d.haveID = v, true
	}
	if o.field >= 0 {
		f := &d.fields[o.field]
		f.Int = int64(v)
		if o.flags&fEnum != 0 {
			f.Bytes = enumLabel(o.node, v)
		}
	}
}

// updateClock sets the clock from an N-bit value, assuming at most one
// wrap of the N low bits since the previous value (CTF 1.8.3 section 8),
// exactly as babeltrace2 does.
func (d *dec) updateClock(v uint64, size uint8) {
	if size == 64 {
		d.clock = v
		return
	}
	mask := uint64(1)<<size - 1
	if v < d.clock&mask {
		d.clock += mask + 1
	}
	d.clock = d.clock&^mask | v
}

// enumLabel returns the first label (in declaration order) whose ranges
// hold v, or nil.
func enumLabel(n *node, v uint64) []byte {
	for i, m := range n.typ.Mappings {
		for _, r := range m.Ranges {
			if r.Contains(v, n.signed) {
				return n.labels[i]
			}
		}
	}
	return nil
}

// readBits reads size bits (1 to 64) at bit offset off of data, in CTF's
// bit order: little-endian fields fill bytes from their low bits,
// big-endian ones from their high bits. The caller checked that the bits
// are in data.
func readBits(data []byte, off int64, size uint, be bool) uint64 {
	i, sh := off>>3, uint(off&7)
	var x, next uint64
	if i+9 <= int64(len(data)) {
		if be {
			x = binary.BigEndian.Uint64(data[i:])
		} else {
			x = binary.LittleEndian.Uint64(data[i:])
		}
		next = uint64(data[i+8])
	} else {
		var tmp [9]byte
		copy(tmp[:], data[i:])
		if be {
			x = binary.BigEndian.Uint64(tmp[:])
		} else {
			x = binary.LittleEndian.Uint64(tmp[:])
		}
		next = uint64(tmp[8])
	}
	if be {
		v := x << sh
		if sh > 0 {
			v |= next >> (8 - sh)
		}
		return v >> (64 - size)
	}
	v := x >> sh
	if sh > 0 {
		v |= next << (64 - sh)
	}
	if size == 64 {
		return v
	}
	return v & (1<<size - 1)
}

// cutNUL returns b up to its first NUL byte. It tests 8 bytes at a time:
// (v - 0x01...) &^ v & 0x80... has its lowest set bit in the first zero
// byte (borrows only disturb the bytes after it).
func cutNUL(b []byte) []byte {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		v := binary.LittleEndian.Uint64(b[i:])
		if z := (v - 0x0101010101010101) &^ v & 0x8080808080808080; z != 0 {
			k := i + bits.TrailingZeros64(z)/8
			return b[:k:k]
		}
	}
	for ; i < len(b); i++ {
		if b[i] == 0 {
			return b[:i:i]
		}
	}
	return b
}
