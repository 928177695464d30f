package ctf

import (
	"encoding/binary"
	"math"
)

// bitbuf writes CTF fields bit by bit, for test traces: little-endian
// fields fill bytes from their low bits, big-endian ones from their high
// bits, exactly what readBits reads.
type bitbuf struct {
	b   []byte
	pos int64 // bits
}

func (w *bitbuf) grow(bits int64) {
	need := int((w.pos + bits + 7) / 8)
	for len(w.b) < need {
		w.b = append(w.b, 0)
	}
}

func (w *bitbuf) align(a int) {
	p := (w.pos + int64(a) - 1) &^ (int64(a) - 1)
	w.grow(p - w.pos)
	w.pos = p
}

// put writes the low size bits of v.
func (w *bitbuf) put(v uint64, size int, be bool) {
	w.grow(int64(size))
	for i := 0; i < size; i++ {
		var bit uint64
		if be {
			bit = v >> uint(size-1-i) & 1
		} else {
			bit = v >> uint(i) & 1
		}
		p := w.pos + int64(i)
		if bit == 0 {
			continue
		}
		if be {
			w.b[p/8] |= 1 << (7 - uint(p%8))
		} else {
			w.b[p/8] |= 1 << uint(p%8)
		}
	}
	w.pos += int64(size)
}

// u writes an aligned integer.
func (w *bitbuf) u(v uint64, size, align int, be bool) *bitbuf {
	w.align(align)
	w.put(v, size, be)
	return w
}

func (w *bitbuf) u8(v uint64) *bitbuf   { return w.u(v, 8, 8, false) }
func (w *bitbuf) u16(v uint64) *bitbuf  { return w.u(v, 16, 8, false) }
func (w *bitbuf) u32(v uint64) *bitbuf  { return w.u(v, 32, 8, false) }
func (w *bitbuf) u64(v uint64) *bitbuf  { return w.u(v, 64, 8, false) }
func (w *bitbuf) i32(v int64) *bitbuf   { return w.u(uint64(v), 32, 8, false) }
func (w *bitbuf) f32(v float32) *bitbuf { return w.u(uint64(math.Float32bits(v)), 32, 8, false) }
func (w *bitbuf) raw(p []byte) *bitbuf {
	w.align(8)
	w.grow(int64(len(p)) * 8)
	copy(w.b[w.pos/8:], p)
	w.pos += int64(len(p)) * 8
	return w
}
func (w *bitbuf) str(s string) *bitbuf     { return w.raw(append([]byte(s), 0)) }
func (w *bitbuf) bytesLen() int            { return int((w.pos + 7) / 8) }
func (w *bitbuf) patch64(at int, v uint64) { binary.LittleEndian.PutUint64(w.b[at:], v) }
