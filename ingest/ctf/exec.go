package ctf

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/tracetui/tracetui/core"
)

// errRefill tells the stream that a read went past the bytes loaded while
// the packet content goes further: it loads more and decodes the event
// again.
var errRefill = errors.New("ctf: window exhausted")

// maxLoopDepth bounds the nesting of arrays and sequences in a plan (the
// compiler refuses deeper ones).
const maxLoopDepth = 64

// dec is the decoding state of one stream: the loaded bytes of the
// current packet, the position, and the values read so far.
type dec struct {
	data    []byte // loaded bytes of the packet
	base    int64  // packet bit offset of data[0], a multiple of 8
	limit   int64  // end of the readable bits: min(loaded, content)
	content int64  // end of the packet content, in bits
	pos     int64  // current bit offset in the packet

	slots  []uint64     // integer values, by slot
	fields []core.Field // exposed fields of the event being decoded
	clock  uint64       // stream clock value, in cycles
	evID   uint64       // event class id read in the header
	haveID bool

	loops [maxLoopDepth]loopFrame

	wide []byte // text of the wide integers decoded, never overwritten (wide.go)
}

type loopFrame struct {
	left  uint64
	pos   int64 // where the current iteration started
	start int32
}

// decodeError is a problem in the stream's bytes; the stream adds the
// file and packet.
type decodeError struct {
	pos int64 // bit offset in the packet
	msg string
}

func (e *decodeError) Error() string { return e.msg }

func (d *dec) fail(pos int64, format string, a ...any) error {
	return &decodeError{pos: pos, msg: fmt.Sprintf(format, a...)}
}

// short reports a read of bits bits at pos that does not fit.
func (d *dec) short(pos, bits int64) error {
	if d.limit < d.content {
		return errRefill
	}
	return d.fail(pos, "a %d-bit field at bit %d goes past the end of the packet content (%d bits)", bits, pos, d.content)
}

// run executes a program from the current position. Integer ops compute
// their value and fall through to the common store at the end of the
// loop; the other ops continue.
func (d *dec) run(p program) error {
	pos, data, base, limit := d.pos, d.data, d.base, d.limit
	sp := 0
	for pc := 0; pc < len(p); pc++ {
		o := &p[pc]
		var v uint64
		switch o.code {
		case opU8:
			pos = alignUp(pos, int64(o.align))
			if pos+8 > limit {
				return d.stop(pos, d.short(pos, 8))
			}
			v = uint64(data[(pos-base)>>3])
			pos += 8
		case opU16L:
			pos = alignUp(pos, int64(o.align))
			if pos+16 > limit {
				return d.stop(pos, d.short(pos, 16))
			}
			v = uint64(binary.LittleEndian.Uint16(data[(pos-base)>>3:]))
			pos += 16
		case opU32L:
			pos = alignUp(pos, int64(o.align))
			if pos+32 > limit {
				return d.stop(pos, d.short(pos, 32))
			}
			v = uint64(binary.LittleEndian.Uint32(data[(pos-base)>>3:]))
			pos += 32
		case opU64L:
			pos = alignUp(pos, int64(o.align))
			if pos+64 > limit {
				return d.stop(pos, d.short(pos, 64))
			}
			v = binary.LittleEndian.Uint64(data[(pos-base)>>3:])
			pos += 64
		case opU16B:
			pos = alignUp(pos, int64(o.align))
			if pos+16 > limit {
				return d.stop(pos, d.short(pos, 16))
			}
			v = uint64(binary.BigEndian.Uint16(data[(pos-base)>>3:]))
			pos += 16
		case opU32B:
			pos = alignUp(pos, int64(o.align))
			if pos+32 > limit {
				return d.stop(pos, d.short(pos, 32))
			}
			v = uint64(binary.BigEndian.Uint32(data[(pos-base)>>3:]))
			pos += 32
		case opU64B:
			pos = alignUp(pos, int64(o.align))
			if pos+64 > limit {
				return d.stop(pos, d.short(pos, 64))
			}
			v = binary.BigEndian.Uint64(data[(pos-base)>>3:])
			pos += 64
		case opInt:
			pos = alignUp(pos, int64(o.align))
			size := int64(o.size)
			if pos+size > limit {
				return d.stop(pos, d.short(pos, size))
			}
			v = readBits(data, pos-base, uint(o.size), o.flags&fBE != 0)
			if o.flags&fBitRev != 0 {
				v = bits.Reverse64(v) >> (64 - size)
			}
			pos += size
		case opBlock:
			if pos+int64(o.n) > limit {
				return d.stop(pos, d.short(pos, int64(o.n)))
			}
			i := (pos - base) >> 3
			d.block(o.block, data[i:i+int64(o.n/8)])
			pos += int64(o.n)
			continue
		case opJump:
			pc = int(o.jump) - 1
			continue
		case opAlign:
			pos = alignUp(pos, int64(o.align))
			continue
		case opVariant:
			t := d.slots[o.ref]
			opt := -1
			if o.flags&fSignedTag == 0 {
				for _, c := range o.choices {
					if c.lo <= t && t <= c.hi {
						opt = c.opt
						break
					}
				}
			} else {
				for _, c := range o.choices {
					if int64(c.lo) <= int64(t) && int64(t) <= int64(c.hi) {
						opt = c.opt
						break
					}
				}
			}
			if opt < 0 {
				if o.flags&fOptional != 0 {
					pc = int(o.jump) - 1
					continue
				}
				if o.flags&fSignedTag != 0 {
					return d.stop(pos, d.fail(pos, "variant tag value %d at bit %d selects no option", int64(t), pos))
				}
				return d.stop(pos, d.fail(pos, "variant tag value %d at bit %d selects no option", t, pos))
			}
			pc = int(o.targets[opt]) - 1
			continue
		default:
			var err error
			if pos, pc, sp, err = d.other(p, pc, sp, pos); err != nil {
				return err
			}
			continue
		}
		v = uint64(int64(v<<o.sext) >> o.sext)
		d.slots[o.slot] = v
		switch o.flags &^ (fBE | fBitRev) {
		case 0:
			if o.field >= 0 {
				d.fields[o.field].Int = int64(v)
			}
		case fClock:
			d.updateClock(v, o.size)
		case fEventID:
			d.evID, d.haveID = v, true
		default:
			d.special(o, v)
		}
	}
	d.pos = pos
	return nil
}

// other executes the ops that are not integer reads; it returns the new
// position, program counter and loop stack depth.
func (d *dec) other(p program, pc, sp int, pos int64) (int64, int, int, error) {
	data, base, limit := d.data, d.base, d.limit
	o := &p[pc]
	switch o.code {
	case opFloat32, opFloat64:
		pos = alignUp(pos, int64(o.align))
		size := int64(o.size)
		if pos+size > limit {
			return pos, pc, sp, d.stop(pos, d.short(pos, size))
		}
		v := readBits(data, pos-base, uint(o.size), o.flags&fBE != 0)
		pos += size
		if o.field >= 0 {
			f := math.Float64frombits(v)
			if o.code == opFloat32 {
				f = float64(math.Float32frombits(uint32(v)))
			}
			d.fields[o.field].Float = f
		}
	case opString:
		pos = alignUp(pos, int64(o.align))
		if o.size > 1 {
			var err error
			if pos, err = d.unitString(o, pos); err != nil {
				return pos, pc, sp, d.stop(pos, err)
			}
			break
		}
		i, end := (pos-base)>>3, (limit-base)>>3
		if i > end {
			return pos, pc, sp, d.stop(pos, d.short(pos, 8))
		}
		k := bytes.IndexByte(data[i:end], 0)
		if k < 0 {
			if limit < d.content {
				return pos, pc, sp, d.stop(pos, errRefill)
			}
			return pos, pc, sp, d.stop(pos, d.fail(pos, "string at bit %d is not terminated before the end of the packet content", pos))
		}
		if o.field >= 0 {
			d.fields[o.field].Bytes = data[i : i+int64(k) : i+int64(k)]
		}
		pos += int64(k+1) * 8
	case opText, opTextSeq:
		pos = alignUp(pos, int64(o.align))
		n := o.n
		if o.code == opTextSeq {
			n = d.slots[o.ref]
		}
		if pos > limit || n > uint64(limit-pos)/8 {
			if limit < d.content {
				return pos, pc, sp, d.stop(pos, errRefill)
			}
			return pos, pc, sp, d.stop(pos, d.fail(pos, "a %d-byte character array at bit %d goes past the end of the packet content (%d bits)", n, pos, d.content))
		}
		if o.field >= 0 {
			i := (pos - base) >> 3
			b := data[i : i+int64(n) : i+int64(n)]
			if o.size > 1 {
				if k := unitNUL(b, int(o.size)); k >= 0 {
					b = b[:k]
				}
				b = d.keepUTF8(b, o.node.typ.Encoding)
			} else if o.flags&fRaw == 0 {
				b = cutNUL(b)
			}
			d.fields[o.field].Bytes = b
		}
		pos += int64(n) * 8
	case opSkip:
		pos = alignUp(pos, int64(o.align))
		if pos > limit || o.n > uint64(limit-pos) {
			return pos, pc, sp, d.stop(pos, d.short(pos, int64(min(o.n, 1<<62))))
		}
		pos += int64(o.n)
	case opSeqSkip:
		pos = alignUp(pos, int64(o.align))
		count := d.slots[o.ref]
		if o.n > 0 && count > 0 {
			if pos > limit || count > uint64(limit-pos)/o.n {
				if limit < d.content {
					return pos, pc, sp, d.stop(pos, errRefill)
				}
				return pos, pc, sp, d.stop(pos, d.fail(pos, "a sequence of %d elements of %d bits at bit %d goes past the end of the packet content (%d bits)", count, o.n, pos, d.content))
			}
			pos += int64(count * o.n)
		}
	case opArray, opSeq:
		count := o.n
		if o.code == opSeq {
			count = d.slots[o.ref]
		}
		if count == 0 {
			return pos, int(o.jump) - 1, sp, nil
		}
		// Elements that may take no space cannot have their count checked
		// against the packet; the loop ends at the first that reads
		// nothing (opLoopEnd), so it runs once per element read at most.
		if o.minBits > 0 && (pos > d.content || count > uint64(d.content-pos)/o.minBits) {
			return pos, pc, sp, d.stop(pos, d.fail(pos, "an array or sequence of %d elements at bit %d goes past the end of the packet content (%d bits)", count, pos, d.content))
		}
		if sp == len(d.loops) {
			return pos, pc, sp, d.stop(pos, d.fail(pos, "arrays nested too deep"))
		}
		d.loops[sp] = loopFrame{left: count, pos: pos, start: int32(pc + 1)}
		sp++
	case opWide:
		pos = alignUp(pos, int64(o.align))
		if pos > limit || o.n > uint64(limit-pos) {
			return pos, pc, sp, d.stop(pos, d.short(pos, int64(o.n)))
		}
		if o.field >= 0 {
			d.fields[o.field].Bytes = d.wideText(pos-base, int(o.n), o.flags&fBE != 0)
		}
		pos += int64(o.n)
	case opVarInt:
		pos = alignUp(pos, 8)
		if pos > limit {
			return pos, pc, sp, d.stop(pos, d.short(pos, 8))
		}
		v, n, ok, err := varInt(data, (pos-base)>>3, (limit-base)>>3, o.sext != 0)
		if err != nil {
			return pos, pc, sp, d.stop(pos, d.fail(pos, "at bit %d: %v", pos, err))
		}
		if !ok {
			if limit < d.content {
				return pos, pc, sp, d.stop(pos, errRefill)
			}
			return pos, pc, sp, d.stop(pos, d.fail(pos, "a variable-length integer at bit %d goes past the end of the packet content (%d bits)", pos, d.content))
		}
		pos += n * 8
		d.slots[o.slot] = v
		if o.flags&fClock != 0 {
			d.updateClock(v, uint8(min(7*n, 64)))
		}
		if o.flags&fEventID != 0 {
			d.evID, d.haveID = v, true
		}
		if o.field >= 0 {
			d.fields[o.field].Int = int64(v)
		}
	case opLoopEnd:
		top := &d.loops[sp-1]
		top.left--
		// An iteration that read nothing changed no value: the ones left
		// would do the same (issue 32: 2^20 empty elements in each of 2^20
		// took 2^40 iterations).
		if top.left > 0 && pos != top.pos {
			top.pos = pos
			pc = int(top.start) - 1
		} else {
			sp--
		}
	}
	return pos, pc, sp, nil
}

// block decodes the fields of an opBlock from b, which holds them all.
func (d *dec) block(fs []blockField, b []byte) {
	slots, fields := d.slots, d.fields
	for k := range fs {
		f := &fs[k]
		var v uint64
		switch f.kind {
		case bU8:
			v = uint64(b[f.off])
		case bU16L:
			v = uint64(binary.LittleEndian.Uint16(b[f.off:]))
		case bU32L:
			v = uint64(binary.LittleEndian.Uint32(b[f.off:]))
		case bU64L:
			v = binary.LittleEndian.Uint64(b[f.off:])
		case bU16B:
			v = uint64(binary.BigEndian.Uint16(b[f.off:]))
		case bU32B:
			v = uint64(binary.BigEndian.Uint32(b[f.off:]))
		case bU64B:
			v = binary.BigEndian.Uint64(b[f.off:])
		case bText:
			if f.field >= 0 {
				fields[f.field].Bytes = cutNUL(b[f.off : f.off+f.n : f.off+f.n])
			}
			continue
		}
		v = uint64(int64(v<<f.sext) >> f.sext)
		slots[f.slot] = v
		if f.field >= 0 {
			fields[f.field].Int = int64(v)
		}
	}
}

// stop records the position reached and returns err.
func (d *dec) stop(pos int64, err error) error {
	d.pos = pos
	return err
}
