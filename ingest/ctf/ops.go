package ctf

import (
	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// opcode is one instruction of a decoding program.
type opcode uint8

const (
	opAlign opcode = iota // pos = alignUp(pos, align)
	opInt                 // any integer: size bits at any alignment and byte order
	opU8                  // byte-aligned 8-bit integer
	opU16L                // byte-aligned little-endian 16-bit integer
	opU32L
	opU64L
	opU16B // byte-aligned big-endian 16-bit integer
	opU32B
	opU64B
	opFloat32
	opFloat64
	opString  // NUL-terminated string
	opText    // char array of n bytes, exposed as a string up to its first NUL
	opTextSeq // char sequence, length in slot ref
	opSkip    // align, then skip n bits (fixed layout, nothing needed inside)
	opSeqSkip // align, then skip slots[ref] elements of n bits
	opArray   // loop n times over the body up to jump
	opSeq     // loop slots[ref] times over the body up to jump
	opLoopEnd // end of a loop body (jump: its start)
	opVariant // jump to the option selected by slots[ref] (node.choices, targets)
	opJump    // to jump
	opBlock   // fused run of byte-aligned fixed-size fields (fuse.go)
	opWide    // integer of n > 64 bits, exposed as hexadecimal text (wide.go)
	opVarInt  // LEB128 integer (CTF 2), signed when sext > 0
)

// op flags.
const (
	fBE        = 1 << iota // big-endian (opInt, floats)
	fClock                 // update the stream clock with the value
	fEventID               // the value is the event class id
	fEnum                  // expose as an enum (label lookup)
	fRaw                   // char array exposed whole, NULs included (uuid)
	fSignedTag             // variants: the tag is signed
	fOptional              // variants: an optional, no option selected means nothing to decode
	fBitRev                // opInt: CTF 2 non-default bit order, the value's bits reversed
)

// op is one decoding instruction.
type op struct {
	code    opcode
	flags   uint8
	sext    uint8  // integers: shift that sign-extends (0 when unsigned)
	size    uint8  // bits (integers)
	align   uint32 // bits, applied before reading
	slot    int32  // where to store the integer value, -1: nowhere
	field   int32  // index in core.Event.Fields, -1: not exposed
	ref     int32  // slot of a sequence length or variant tag
	jump    int32  // loop end / start, variant end
	n       uint64 // array length, bytes of a char array, bits to skip
	minBits uint64 // loops: minimum size of one element, for length checks
	node    *node  // variants (choices), enums (labels)
	targets []int32
	choices []choice // variants
	block   []blockField
}

// program is the flat op list of one scope.
type program []op

// emitter generates programs from node trees. It tracks the alignment
// the position is known to have, to drop alignments that are no-ops.
type emitter struct {
	ops   program
	known int64 // the position is a multiple of known bits
}

// foldsAlign reports whether an op applies its own alignment first.
func foldsAlign(c opcode) bool {
	switch c {
	case opInt, opU8, opU16L, opU32L, opU64L, opU16B, opU32B, opU64B, opFloat32, opFloat64, opString, opText, opTextSeq, opSkip, opSeqSkip, opWide:
		return true
	}
	return false
}

// shift fixes the jumps after removing the op at index at (no jump
// targets it: the struct's first member follows it directly).
func (e *emitter) shift(at int32) {
	fix := func(j *int32) {
		if *j > at {
			*j--
		}
	}
	for i := range e.ops {
		o := &e.ops[i]
		switch o.code {
		case opJump, opArray, opSeq, opLoopEnd:
			fix(&o.jump)
		case opVariant:
			for k := range o.targets {
				fix(&o.targets[k])
			}
			if o.flags&fOptional != 0 {
				fix(&o.jump)
			}
		}
	}
}

// lowBit is the largest power of two dividing n (n > 0).
func lowBit(n int64) int64 { return n & -n }

// aligned returns the alignment to apply before a field aligned on a
// (1 when the position is known to be aligned) and records it.
func (e *emitter) aligned(a int64) uint32 {
	if a <= e.known {
		return 1
	}
	e.known = a
	return uint32(a)
}

// advance records a read of n bits.
func (e *emitter) advance(n int64) {
	if n > 0 {
		e.known = min(e.known, lowBit(n))
	}
}

// compileOps returns the program decoding a scope's tree (nil tree: empty).
func compileOps(n *node) program {
	if n == nil {
		return nil
	}
	e := &emitter{known: 1}
	e.emit(n)
	return fuse(e.ops)
}

func (e *emitter) add(o op) int32 {
	e.ops = append(e.ops, o)
	return int32(len(e.ops) - 1)
}

func (e *emitter) emit(n *node) {
	switch n.kind {
	case tsdl.KindInt, tsdl.KindEnum:
		o := intOp(n)
		o.align = e.aligned(int64(n.align))
		e.add(o)
		e.advance(int64(n.size))
	case tsdl.KindFloat:
		o := op{code: opFloat32, align: e.aligned(int64(n.align)), slot: -1, field: n.field, size: uint8(n.size)}
		if n.size == 64 {
			o.code = opFloat64
		}
		if n.bigEndian {
			o.flags |= fBE
		}
		e.add(o)
		e.advance(int64(n.size))
	case tsdl.KindWideInt:
		o := op{code: opWide, align: e.aligned(int64(n.align)), slot: -1, field: n.field, n: uint64(n.size)}
		if n.bigEndian {
			o.flags |= fBE
		}
		e.add(o)
		e.advance(int64(n.size))
	case tsdl.KindString:
		o := op{code: opString, align: e.aligned(8), slot: -1, field: n.field}
		if u := n.typ.Encoding.Unit(); u > 1 {
			o.size, o.node = uint8(u), n // text_ctf2.go
		}
		e.add(o)
		e.known = 8
	case tsdl.KindStruct:
		if a := e.aligned(int64(n.align)); a > 1 {
			at := e.add(op{code: opAlign, align: a, slot: -1, field: -1})
			for _, ch := range n.children {
				e.emit(ch)
			}
			// Fold the structure's alignment into its first read when
			// nothing jumps between them.
			if len(e.ops) > int(at)+1 && foldsAlign(e.ops[at+1].code) {
				next := &e.ops[at+1]
				next.align = max(next.align, a)
				e.ops = append(e.ops[:at], e.ops[at+1:]...)
				e.shift(at)
			}
			break
		}
		for _, ch := range n.children {
			e.emit(ch)
		}
	case tsdl.KindVariant:
		vo := op{code: opVariant, slot: -1, field: -1, ref: n.tagNode.slot, node: n, choices: n.choices}
		if n.tagNode.signed {
			vo.flags |= fSignedTag
		}
		at := e.add(vo)
		targets := make([]int32, len(n.children))
		var ends []int32
		start, after := e.known, int64(1<<16)
		// Options are laid out last to first, so the first one (the
		// common case: LTTng's compact header) needs no jump.
		for i := len(n.children) - 1; i >= 0; i-- {
			e.known = start
			targets[i] = int32(len(e.ops))
			e.emit(n.children[i])
			after = min(after, e.known)
			if i > 0 {
				ends = append(ends, e.add(op{code: opJump, slot: -1, field: -1}))
			}
		}
		for _, j := range ends {
			e.ops[j].jump = int32(len(e.ops))
		}
		e.ops[at].targets = targets
		e.known = after
	case tsdl.KindArray, tsdl.KindSequence:
		e.emitArray(n)
	case tsdl.KindVarInt, tsdl.KindOptional:
		e.emitCTF2(n)
	}
}

func (e *emitter) emitArray(n *node) {
	el := n.elem
	isSeq := n.kind == tsdl.KindSequence
	switch {
	case n.text && !isSeq:
		o := op{code: opText, align: e.aligned(8), slot: -1, field: n.field, n: n.length}
		if n.meaning == meanUUID {
			o.flags |= fRaw
		}
		if u := el.typ.Encoding.Unit(); u > 1 {
			o.size, o.node = uint8(u), el // text_ctf2.go
		}
		e.add(o)
		e.known = 8
		return
	case n.text:
		o := op{code: opTextSeq, align: e.aligned(8), slot: -1, field: n.field, ref: n.lenNode.slot}
		if u := el.typ.Encoding.Unit(); u > 1 {
			o.size, o.node = uint8(u), el // text_ctf2.go
		}
		e.add(o)
		e.known = 8
		return
	case !isSeq && n.fixed >= 0 && !hasEffects(n):
		if a := e.aligned(int64(n.align)); n.fixed > 0 || a > 1 {
			e.add(op{code: opSkip, align: a, slot: -1, field: -1, n: uint64(n.fixed)})
		}
		e.advance(n.fixed)
		return
	case isSeq && el.fixed >= 0 && el.fixed%int64(el.align) == 0 && !hasEffects(el):
		e.add(op{code: opSeqSkip, align: e.aligned(int64(el.align)), slot: -1, field: -1, ref: n.lenNode.slot, n: uint64(el.fixed)})
		e.advance(el.fixed)
		return
	}
	if a := e.aligned(int64(n.align)); a > 1 {
		e.add(op{code: opAlign, align: a, slot: -1, field: -1})
	}
	o := op{code: opArray, slot: -1, field: -1, n: n.length, minBits: minBits(el)}
	if isSeq {
		o.code, o.ref = opSeq, n.lenNode.slot
	}
	at := e.add(o)
	e.known = 1 // a later iteration may start anywhere
	e.emit(el)
	end := e.add(op{code: opLoopEnd, slot: -1, field: -1, jump: at + 1})
	e.ops[at].jump = end + 1
	e.known = 1
}

// intOp returns the op reading an integer or enum node.
func intOp(n *node) op {
	o := op{code: opInt, size: uint8(n.size), align: uint32(n.align), slot: n.slot, field: n.field, node: n}
	if n.signed {
		o.sext = uint8(64 - n.size)
	}
	if n.bigEndian {
		o.flags |= fBE
	}
	if n.clock != nil && !n.signed {
		o.flags |= fClock
	}
	if n.meaning == meanEventID {
		o.flags |= fEventID
	}
	if n.kind == tsdl.KindEnum && n.field >= 0 {
		o.flags |= fEnum
	}
	if n.typ.ReverseBits {
		o.flags |= fBitRev
		return o // no fast path: opInt reverses
	}
	if n.align >= 8 {
		switch {
		case n.size == 8:
			o.code = opU8
		case n.size == 16 && !n.bigEndian:
			o.code = opU16L
		case n.size == 32 && !n.bigEndian:
			o.code = opU32L
		case n.size == 64 && !n.bigEndian:
			o.code = opU64L
		case n.size == 16:
			o.code = opU16B
		case n.size == 32:
			o.code = opU32B
		case n.size == 64:
			o.code = opU64B
		}
	}
	return o
}

// hasEffects reports whether decoding n does more than move the position:
// it holds an integer that updates the clock, carries a meaning, or is
// the length or tag of another field.
func hasEffects(n *node) bool {
	switch n.kind {
	case tsdl.KindInt, tsdl.KindEnum, tsdl.KindVarInt:
		return n.clock != nil || n.meaning != meanNone || n.referenced
	case tsdl.KindStruct, tsdl.KindVariant, tsdl.KindOptional:
		for _, ch := range n.children {
			if hasEffects(ch) {
				return true
			}
		}
	case tsdl.KindArray, tsdl.KindSequence:
		return hasEffects(n.elem)
	}
	return false
}

// minBits is the smallest size a field can take, alignment aside.
func minBits(n *node) uint64 {
	switch n.kind {
	case tsdl.KindInt, tsdl.KindEnum, tsdl.KindFloat, tsdl.KindWideInt:
		return uint64(n.size)
	case tsdl.KindString, tsdl.KindVarInt:
		return 8
	case tsdl.KindStruct:
		var s uint64
		for _, ch := range n.children {
			s += minBits(ch)
			if s > 1<<40 {
				return 1 << 40
			}
		}
		return s
	case tsdl.KindVariant:
		m := uint64(1 << 40)
		for _, ch := range n.children {
			m = min(m, minBits(ch))
		}
		return m
	case tsdl.KindArray:
		el := minBits(n.elem)
		if el == 0 {
			return 0
		}
		if n.length > (1<<40)/el {
			return 1 << 40
		}
		return el * n.length
	}
	return 0
}
