package tsdl

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The binary form of a parsed [Trace], which an index keeps so that its
// readers skip the text: parsing an LTTng kernel trace's metadata (6 000
// lines, 541 event classes) took 18 to 27 ms of the browser's first frame,
// most of it in fresh memory for the syntax tree. Decoding its binary
// form allocates the model only.
//
// Layout (integers are unsigned varints unless said otherwise; a string
// is its length then its bytes; a type reference is 0 for none, else one
// plus the index of an earlier type in the type table):
//
//	"TSDB" version(1 byte)
//	major minor flags(1 byte: 1 UUID, 2 big endian) uuid(16 bytes)
//	clocks: count, each: name uuid(16) flags(1: UUID, 2 absolute)
//	        description freq precision offset_s(varint) offset(varint) line
//	env:    count, each: name is_string(1) then a string or a varint
//	types:  count, each: kind(1) line size align flags(1: 1 signed,
//	        2 big endian) base(1) encoding(1) clock(0 none, else 1+index)
//	        mappings: count, each: label, count, each: lo hi
//	        exp_dig mant_dig fields: count, each: name type-ref
//	        tag elem(type-ref) len length_path
//	packet header (type-ref)
//	streams: count, each: id packet_context event_header event_context
//	         (type-refs) line events: count, each: name id stream_id
//	         log_level(varint) has_log_level(1) emf_uri context payload
//	         (type-refs) line
//
// A type refers only to earlier ones: the table is acyclic by
// construction, and a type shared by several fields (a typedef) stays one
// node. Decoding checks every count and length against the bytes left and
// every type against the rules the text's parser applies, so bytes from a
// damaged index give an error, never a model the compiler would not get
// from text.

const (
	binaryMagic   = "TSDB"
	binaryVersion = 1
	// maxBinaryDepth bounds the nesting of the types encoded or decoded
	// (the compiler recurses over them); deeper metadata keeps its text.
	maxBinaryDepth = 4096
)

// ErrBinary reports bytes that are not the binary form of a model.
var ErrBinary = errors.New("tsdl: not a binary metadata model")

// AppendBinary appends the binary form of t to dst. It fails when t holds
// a type nested deeper than the binary form allows, or a clock that is
// not one of t's.
func (t *Trace) AppendBinary(dst []byte) ([]byte, error) {
	e := &encoder{buf: append(dst, binaryMagic...), ids: map[*Type]int{}, clocks: map[*Clock]int{}, ctf2: t.IsCTF2()}
	e.buf = append(e.buf, binaryVersion)
	e.uint(uint64(t.Major))
	e.uint(uint64(t.Minor))
	e.buf = append(e.buf, flagBits(t.HasUUID, t.BigEndian))
	e.buf = append(e.buf, t.UUID[:]...)
	e.uint(uint64(len(t.Clocks)))
	for i, c := range t.Clocks {
		e.clocks[c] = i
		e.str(c.Name)
		e.buf = append(e.buf, c.UUID[:]...)
		e.buf = append(e.buf, flagBits(c.HasUUID, c.Absolute))
		e.str(c.Description)
		e.uint(c.Freq)
		e.uint(c.Precision)
		e.buf = binary.AppendVarint(e.buf, c.OffsetS)
		e.buf = binary.AppendVarint(e.buf, c.Offset)
		e.uint(uint64(c.Line))
	}
	e.uint(uint64(len(t.Env)))
	for _, en := range t.Env {
		e.str(en.Name)
		if en.IsStr {
			e.buf = append(e.buf, 1)
			e.str(en.Str)
		} else {
			e.buf = append(e.buf, 0)
			e.buf = binary.AppendVarint(e.buf, en.Int)
		}
	}
	// The type table first: every type reachable, children before parents.
	roots := []*Type{t.PacketHeader}
	for _, s := range t.Streams {
		roots = append(roots, s.PacketContext, s.EventHeader, s.EventContext)
		for _, ev := range s.Events {
			roots = append(roots, ev.Context, ev.Payload)
		}
	}
	for _, r := range roots {
		if err := e.collect(r, 0); err != nil {
			return dst, err
		}
	}
	e.uint(uint64(len(e.order)))
	for _, ty := range e.order {
		if err := e.typ(ty); err != nil {
			return dst, err
		}
	}
	e.ref(t.PacketHeader)
	e.uint(uint64(len(t.Streams)))
	for _, s := range t.Streams {
		e.uint(s.ID)
		e.ref(s.PacketContext)
		e.ref(s.EventHeader)
		e.ref(s.EventContext)
		e.uint(uint64(s.Line))
		e.uint(uint64(len(s.Events)))
		for _, ev := range s.Events {
			e.str(ev.Name)
			e.uint(ev.ID)
			e.uint(ev.StreamID)
			e.buf = binary.AppendVarint(e.buf, ev.LogLevel)
			e.bool(ev.HasLogLevel)
			e.str(ev.EMFURI)
			e.ref(ev.Context)
			e.ref(ev.Payload)
			e.uint(uint64(ev.Line))
			if e.ctf2 {
				e.str(ev.Attributes)
			}
		}
	}
	if e.ctf2 {
		e.str(t.Attributes)
		e.bool(t.HasUID)
		e.str(t.UID)
	}
	return e.buf, nil
}

type encoder struct {
	buf    []byte
	ids    map[*Type]int // index in order
	order  []*Type
	clocks map[*Clock]int
	ctf2   bool // a CTF 2 model: types carry their CTF 2 properties (binary2.go)
}

func (e *encoder) uint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }
func (e *encoder) str(s string)  { e.uint(uint64(len(s))); e.buf = append(e.buf, s...) }

func (e *encoder) bool(b bool) { e.buf = append(e.buf, flagBits(b, false)) }

// flagBits returns a flags byte: 1 for first, 2 for second.
func flagBits(first, second bool) byte {
	var f byte
	if first {
		f |= 1
	}
	if second {
		f |= 2
	}
	return f
}

func (e *encoder) ref(t *Type) {
	if t == nil {
		e.uint(0)
		return
	}
	e.uint(uint64(e.ids[t]) + 1)
}

// collect puts t and what it refers to in the table, children first.
func (e *encoder) collect(t *Type, depth int) error {
	if t == nil {
		return nil
	}
	if _, ok := e.ids[t]; ok {
		return nil
	}
	if depth >= maxBinaryDepth {
		return fmt.Errorf("tsdl: types nested deeper than %d", maxBinaryDepth)
	}
	for _, f := range t.Fields {
		if err := e.collect(f.Type, depth+1); err != nil {
			return err
		}
	}
	if err := e.collect(t.Elem, depth+1); err != nil {
		return err
	}
	e.ids[t] = len(e.order)
	e.order = append(e.order, t)
	return nil
}

func (e *encoder) typ(t *Type) error {
	e.buf = append(e.buf, byte(t.Kind))
	e.uint(uint64(t.Line))
	e.uint(uint64(t.Size))
	e.uint(uint64(t.Align))
	e.buf = append(e.buf, flagBits(t.Signed, t.BigEndian), byte(t.Base), byte(t.Encoding))
	if t.Clock == nil {
		e.uint(0)
	} else if i, ok := e.clocks[t.Clock]; ok {
		e.uint(uint64(i) + 1)
	} else {
		return fmt.Errorf("tsdl: a type maps to clock %q, which the trace does not declare", t.Clock.Name)
	}
	e.uint(uint64(len(t.Mappings)))
	for _, m := range t.Mappings {
		e.str(m.Label)
		e.uint(uint64(len(m.Ranges)))
		for _, r := range m.Ranges {
			e.uint(r.Lo)
			e.uint(r.Hi)
		}
	}
	e.uint(uint64(t.ExpDig))
	e.uint(uint64(t.MantDig))
	e.uint(uint64(len(t.Fields)))
	for _, f := range t.Fields {
		e.str(f.Name)
		e.ref(f.Type)
	}
	e.str(t.Tag)
	e.ref(t.Elem)
	e.uint(t.Len)
	e.str(t.LengthPath)
	if e.ctf2 {
		e.typ2(t)
	}
	return nil
}
