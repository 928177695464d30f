package ctf

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// The formatter prints an event the way babeltrace2's text.pretty sink
// does by default (babeltrace2 2.0, --clock-seconds --no-delta): the
// printed scopes (packet context, stream event context, event context,
// payload) separated by ", ", each a structure "{ name = value, ... }".
// It re-reads the event's bytes, still in the stream's buffers, walking
// the node trees; the decoding path never formats.

// packetContextHidden are the packet context members babeltrace2 never
// prints.
var packetContextHidden = map[string]bool{
	"timestamp_begin": true, "timestamp_end": true, "events_discarded": true,
	"content_size": true, "packet_size": true, "packet_seq_num": true,
}

// AppendContents appends what babeltrace2 prints after "<event name>: "
// for ev, which must be the event last returned by Next.
func (r *Reader) AppendContents(dst []byte, ev *core.Event) []byte {
	if ev == nil || ev.Stream < 0 || int(ev.Stream) >= len(r.streams) {
		return dst
	}
	s := r.streams[ev.Stream]
	if &s.ev != ev || s.ep == nil {
		return dst
	}
	sp, ep := s.sp, s.ep
	first := true
	scope := func(n *node, p *printer) {
		if n == nil || !n.inIR {
			return
		}
		if !first {
			dst = append(dst, ", "...)
		}
		first = false
		dst = p.structure(dst, n, true)
	}
	p := printer{slots: s.d.slots, spare: maxRepeatText}
	p.data, p.base, p.pos, p.limit = s.hdrBuf, 0, s.pktCtxPos, int64(len(s.hdrBuf))*8
	scope(sp.pktCtx, &p)
	p.data, p.base, p.limit = s.d.data, s.d.base, s.d.limit
	p.pos = s.scopePos[0]
	scope(sp.streamCtx, &p)
	p.pos = s.scopePos[1]
	scope(ep.ctx, &p)
	p.pos = s.scopePos[2]
	scope(ep.payload, &p)
	return dst
}

// printer re-reads fields from a buffer and formats them.
type printer struct {
	data  []byte
	base  int64 // bit offset of data[0]
	limit int64
	pos   int64
	slots []uint64
	spare int // bytes of repeated element text left to print (see array)
}

// maxRepeatText bounds the text an event may print for array elements
// that take no space (see printer.array): a few bytes of trace may declare
// billions of them.
const maxRepeatText = 1 << 20

// bits reads an n-bit value at the aligned current position, or returns
// false past the end (which a decoded event never reaches).
func (p *printer) bits(n *node) (uint64, bool) {
	p.pos = alignUp(p.pos, int64(n.align))
	if p.pos+int64(n.size) > p.limit || p.pos < p.base {
		return 0, false
	}
	var v uint64
	off := p.pos - p.base
	if off&7 == 0 {
		b := p.data[off>>3:]
		switch {
		case n.size == 8:
			v = uint64(b[0])
		case n.size == 32 && !n.bigEndian:
			v = uint64(binary.LittleEndian.Uint32(b))
		case n.size == 64 && !n.bigEndian:
			v = binary.LittleEndian.Uint64(b)
		default:
			v = readBits(p.data, off, uint(n.size), n.bigEndian)
		}
	} else {
		v = readBits(p.data, off, uint(n.size), n.bigEndian)
	}
	p.pos += int64(n.size)
	if n.typ.ReverseBits {
		v = bits.Reverse64(v) >> (64 - n.size)
	}
	if n.signed {
		sh := 64 - uint(n.size)
		v = uint64(int64(v<<sh) >> sh)
	}
	return v, true
}

// field formats (when emit) or skips the field n.
func (p *printer) field(dst []byte, n *node, emit bool) []byte {
	switch n.kind {
	case tsdl.KindInt:
		v, ok := p.bits(n)
		if n.slot >= 0 {
			p.slots[n.slot] = v
		}
		if emit && ok {
			if n.typ.Flavor != tsdl.FlavorNone {
				dst = appendFlavored(dst, n, v)
			} else {
				dst = appendInt(dst, n, v)
			}
		}
	case tsdl.KindVarInt, tsdl.KindOptional:
		dst = p.ctf2Field(dst, n, emit)
	case tsdl.KindEnum:
		v, ok := p.bits(n)
		if n.slot >= 0 {
			p.slots[n.slot] = v
		}
		if emit && ok {
			dst = appendEnum(dst, n, v)
		}
	case tsdl.KindFloat:
		v, ok := p.bits(n)
		if emit && ok {
			f := math.Float64frombits(v)
			if n.size == 32 {
				f = float64(math.Float32frombits(uint32(v)))
			}
			dst = appendCFloat(dst, f)
		}
	case tsdl.KindWideInt:
		p.pos = alignUp(p.pos, int64(n.align))
		if p.pos < p.base || p.pos > p.limit || int64(n.size) > p.limit-p.pos {
			return dst
		}
		if emit {
			dst = appendWideHex(dst, p.data, p.pos-p.base, n.size, n.bigEndian)
		}
		p.pos += int64(n.size)
	case tsdl.KindString:
		p.pos = alignUp(p.pos, 8)
		i, end := (p.pos-p.base)>>3, (p.limit-p.base)>>3
		if i < 0 || i > end {
			return dst
		}
		if u := n.typ.Encoding.Unit(); u > 1 {
			k := unitNUL(p.data[i:end], u)
			if k < 0 {
				k = int(end-i) / u * u
			}
			if emit {
				dst = appendEscaped(dst, appendUTF8(nil, p.data[i:i+int64(k)], n.typ.Encoding))
			}
			p.pos += int64(k+u) * 8
			return dst
		}
		k := bytes.IndexByte(p.data[i:end], 0)
		if k < 0 {
			k = int(end - i)
		}
		if emit {
			dst = appendEscaped(dst, p.data[i:i+int64(k)])
		}
		p.pos += int64(k+1) * 8
	case tsdl.KindStruct:
		dst = p.structure(dst, n, emit)
	case tsdl.KindVariant:
		v := p.slots[n.tagNode.slot]
		opt := -1
		for _, c := range n.choices {
			if (n.tagNode.signed && int64(c.lo) <= int64(v) && int64(v) <= int64(c.hi)) || (!n.tagNode.signed && c.lo <= v && v <= c.hi) {
				opt = c.opt
				break
			}
		}
		if opt < 0 {
			return dst
		}
		if emit {
			dst = append(dst, "{ "...)
		}
		dst = p.field(dst, n.children[opt], emit)
		if emit {
			dst = append(dst, " }"...)
		}
	case tsdl.KindArray, tsdl.KindSequence:
		dst = p.array(dst, n, emit)
	}
	return dst
}

// structure formats "{ a = 1, b = 2 }" ("{ }" when nothing is printed).
func (p *printer) structure(dst []byte, n *node, emit bool) []byte {
	p.pos = alignUp(p.pos, int64(n.align))
	if emit {
		dst = append(dst, '{')
	}
	printed := false
	for _, ch := range n.children {
		show := emit && ch.shown
		if show {
			if printed {
				dst = append(dst, ',')
			}
			dst = append(dst, ch.label...) // " name = "
			printed = true
		}
		dst = p.field(dst, ch, show)
	}
	if emit {
		dst = append(dst, " }"...)
	}
	return dst
}

// array formats "[ [0] = 1, [1] = 2 ]", or a string for char arrays.
func (p *printer) array(dst []byte, n *node, emit bool) []byte {
	count := n.length
	if n.kind == tsdl.KindSequence {
		count = p.slots[n.lenNode.slot]
	}
	p.pos = alignUp(p.pos, int64(n.align))
	if n.typ.Flavor == tsdl.FlavorBlob {
		return p.blob(dst, count, emit)
	}
	if n.text {
		i := (p.pos - p.base) >> 3
		avail := (p.limit - p.base) >> 3
		if i < 0 || i > avail || count > uint64(avail-i) {
			return dst
		}
		b := p.data[i : i+int64(count)]
		if u := n.elem.typ.Encoding.Unit(); u > 1 {
			if k := unitNUL(b, u); k >= 0 {
				b = b[:k]
			}
			b = appendUTF8(nil, b, n.elem.typ.Encoding)
		} else if k := bytes.IndexByte(b, 0); k >= 0 {
			b = b[:k]
		}
		if emit {
			dst = appendEscaped(dst, b)
		}
		p.pos += int64(count) * 8
		return dst
	}
	if !emit && n.fixed >= 0 && !hasEffects(n) {
		p.pos += n.fixed
		return dst
	}
	if emit {
		dst = append(dst, '[')
	}
	for i := uint64(0); i < count; i++ {
		if p.pos > p.limit {
			break
		}
		if emit {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, " ["...)
			dst = strconv.AppendUint(dst, i, 10)
			dst = append(dst, "] = "...)
		}
		at, start := p.pos, len(dst)
		dst = p.field(dst, n.elem, emit)
		if p.pos == at && i+1 < count {
			// The element read nothing, so it changed no value: every
			// element after it prints the same text without reading.
			if emit {
				dst = p.repeat(dst, start, i+1, count)
			}
			break
		}
	}
	if emit {
		dst = append(dst, " ]"...)
	}
	return dst
}

// repeat appends elements from to count-1 of an array whose elements all
// print as dst[start:], from the event's budget of repeated text; past it, one
// mark, ", ... [from..count-1] alike", stands for the rest. The time and
// the text are bounded by the budget, never by count.
func (p *printer) repeat(dst []byte, start int, from, count uint64) []byte {
	var num [20]byte
	size := len(dst) - start
	for i := from; i < count; i++ {
		idx := strconv.AppendUint(num[:0], i, 10)
		need := size + len(idx) + len(", [] = ")
		if need > p.spare {
			dst = append(dst, ", ... ["...)
			dst = append(dst, idx...)
			dst = append(dst, ".."...)
			dst = strconv.AppendUint(dst, count-1, 10)
			return append(dst, "] alike"...)
		}
		p.spare -= need
		dst = append(dst, ", ["...)
		dst = append(dst, idx...)
		dst = append(dst, "] = "...)
		dst = append(dst, dst[start:start+size]...)
	}
	return dst
}

// appendInt formats an integer in its display base as babeltrace2 does:
// decimal, 0x-prefixed upper-case hexadecimal and 0-prefixed octal of the
// value cut to its size rounded up to a digit, 0b-prefixed binary of all
// its bits.
func appendInt(dst []byte, n *node, v uint64) []byte {
	switch n.base {
	case 16:
		if n.size < 64 {
			if r := uint((n.size + 3) &^ 3); r < 64 {
				v &= 1<<r - 1
			}
		}
		dst = append(dst, "0x"...)
		return appendUpperHex(dst, v)
	case 8:
		if n.signed && n.size < 64 {
			if r := uint(((n.size-1)/3 + 1) * 3); r < 64 {
				v &= 1<<r - 1
			}
		}
		dst = append(dst, '0')
		return strconv.AppendUint(dst, v, 8)
	case 2:
		dst = append(dst, "0b"...)
		for i := n.size - 1; i >= 0; i-- {
			dst = append(dst, byte('0'+(v>>uint(i))&1))
		}
		return dst
	}
	if n.signed {
		return strconv.AppendInt(dst, int64(v), 10)
	}
	return strconv.AppendUint(dst, v, 10)
}

func appendUpperHex(dst []byte, v uint64) []byte {
	var buf [16]byte
	i := len(buf)
	for {
		i--
		buf[i] = "0123456789ABCDEF"[v&15]
		v >>= 4
		if v == 0 {
			break
		}
	}
	return append(dst, buf[i:]...)
}

// appendEnum formats `( "LABEL", ... : container = V )`.
func appendEnum(dst []byte, n *node, v uint64) []byte {
	if n.typ.Byte > 0 { // CTF 2 (only its types have a byte offset)
		return appendMappings(dst, n, v)
	}
	dst = append(dst, "( "...)
	found := 0
	for i, m := range n.typ.Mappings {
		for _, r := range m.Ranges {
			if r.Contains(v, n.signed) {
				if found > 0 {
					dst = append(dst, ", "...)
				}
				dst = appendEscaped(dst, n.labels[i])
				found++
				break
			}
		}
	}
	if found == 0 {
		dst = append(dst, "<unknown>"...)
	}
	dst = append(dst, " : container = "...)
	dst = appendInt(dst, n, v)
	return append(dst, " )"...)
}

// appendEscaped formats a string as babeltrace2 does: in double quotes,
// with \\ \' \" \? and C escapes for control characters, \xNN for the
// others; bytes from 0x80 up are copied.
func appendEscaped(dst []byte, s []byte) []byte {
	dst = append(dst, '"')
	for _, c := range s {
		switch c {
		case '\\':
			dst = append(dst, `\\`...)
		case '\'':
			dst = append(dst, `\'`...)
		case '"':
			dst = append(dst, `\"`...)
		case '?':
			dst = append(dst, `\?`...)
		case 7:
			dst = append(dst, `\a`...)
		case 8:
			dst = append(dst, `\b`...)
		case 27:
			dst = append(dst, `\e`...)
		case 12:
			dst = append(dst, `\f`...)
		case 10:
			dst = append(dst, `\n`...)
		case 13:
			dst = append(dst, `\r`...)
		case 9:
			dst = append(dst, `\t`...)
		case 11:
			dst = append(dst, `\v`...)
		default:
			if c < 0x20 || c == 0x7f {
				dst = append(dst, '\\', 'x', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
			} else {
				dst = append(dst, c)
			}
		}
	}
	return append(dst, '"')
}

// appendCFloat formats like C's printf("%g").
func appendCFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		if math.Signbit(f) {
			return append(dst, "-nan"...)
		}
		return append(dst, "nan"...)
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	}
	return strconv.AppendFloat(dst, f, 'g', 6, 64)
}
