package ctf

import "github.com/tracetui/tracetui/ingest/ctf/tsdl"

// The ops of CTF 2's LEB128 integers and optionals (exec.go runs them:
// opVarInt, and opVariant with fOptional).

// emitCTF2 emits the ops of the CTF 2 kinds TSDL has no counterpart for.
func (e *emitter) emitCTF2(n *node) {
	switch n.kind {
	case tsdl.KindVarInt:
		o := op{code: opVarInt, align: e.aligned(8), slot: n.slot, field: n.field, node: n}
		if n.signed {
			o.sext = 1
		}
		if n.clock != nil && !n.signed {
			o.flags |= fClock
		}
		if n.meaning == meanEventID {
			o.flags |= fEventID
		}
		e.add(o)
		e.known = 8
	case tsdl.KindOptional:
		vo := op{code: opVariant, flags: fOptional, slot: -1, field: -1, ref: n.tagNode.slot, node: n, choices: n.choices}
		if n.tagNode.signed {
			vo.flags |= fSignedTag
		}
		at := e.add(vo)
		start := e.known
		e.ops[at].targets = []int32{int32(len(e.ops))}
		e.emit(n.children[0])
		e.ops[at].jump = int32(len(e.ops))
		e.known = min(start, e.known)
	}
}

// varInt decodes a LEB128 integer at byte offset i of data (limit: end
// of the readable bytes); it returns the value, the bytes read and false
// when it runs past limit; an error when it holds more than 64 bits.
func varInt(data []byte, i, limit int64, signed bool) (v uint64, n int64, ok bool, err error) {
	var shift uint
	for {
		if i+n >= limit {
			return 0, n, false, nil
		}
		b := data[i+n]
		n++
		g := uint64(b & 0x7F)
		if shift == 63 {
			// The tenth byte holds bit 63 only (signed: its sign
			// extension, all ones or all zeros) and ends the value.
			switch {
			case b&0x80 != 0:
				return 0, n, true, errVarIntWide
			case signed && g == 0x7F:
				v |= 1 << 63
			case signed && g != 0, !signed && g > 1:
				return 0, n, true, errVarIntWide
			default:
				v |= g << 63
			}
			return v, n, true, nil
		}
		v |= g << shift
		shift += 7
		if b&0x80 == 0 {
			break
		}
	}
	if signed && shift < 64 && v&(1<<(shift-1)) != 0 {
		v |= ^uint64(0) << shift
	}
	return v, n, true, nil
}

var errVarIntWide = errorString("a variable-length integer holds more than 64 bits (tracetui decodes 64 at most)")

type errorString string

func (e errorString) Error() string { return string(e) }
