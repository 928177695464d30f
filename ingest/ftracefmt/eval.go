package ftracefmt

import (
	"bytes"
	"encoding/binary"
	"strconv"
)

// printFormat is a parsed "print fmt:" line.
type printFormat struct {
	segs []segment
	args []*expr
}

// parsePrintFormat parses an event's print format; nil when it does not
// parse (the event is then printed field by field).
func parsePrintFormat(ev *Format) *printFormat {
	toks, err := tokenize(ev.PrintFmt)
	if err != nil || len(toks) == 0 || toks[0].kind != 's' {
		return nil
	}
	p := &parser{toks: toks, ev: ev}
	pf := &printFormat{segs: compileFormat(p.parsePrimary().str)}
	for p.err == nil && p.peek().text == "," {
		p.next()
		pf.args = append(pf.args, p.parseExpr())
	}
	if p.err != nil || p.pos != len(toks) {
		return nil
	}
	return pf
}

// Record is an event's raw bytes (from common_type on), what fields are
// read from and expressions evaluated over.
type Record struct {
	Order binary.ByteOrder // the recording machine's byte order
	Data  []byte
}

// value is an evaluated expression: an integer or a string.
type value struct {
	i     int64
	s     []byte
	isStr bool
}

// fieldInt reads an integer field (sign-extended when signed); element i
// of an array.
func (r *Record) Int(fd *Field, i int64) (int64, bool) {
	size := fd.Size
	off := int64(fd.Offset)
	if fd.Array || fd.DataLoc {
		size = fd.ElemSize
		if fd.DataLoc {
			b := r.Dynamic(fd)
			if i < 0 || (i+1)*int64(size) > int64(len(b)) {
				return 0, false
			}
			return readInt(r.Order, b[i*int64(size):], size, fd.Signed), true
		}
		if i < 0 || (i+1)*int64(size) > int64(fd.Size) {
			return 0, false
		}
		off += i * int64(size)
	}
	if off < 0 || off+int64(size) > int64(len(r.Data)) {
		return 0, false
	}
	return readInt(r.Order, r.Data[off:], size, fd.Signed), true
}

// readInt reads a size-byte integer.
func readInt(o binary.ByteOrder, b []byte, size int, signed bool) int64 {
	switch size {
	case 1:
		if signed {
			return int64(int8(b[0]))
		}
		return int64(b[0])
	case 2:
		v := o.Uint16(b)
		if signed {
			return int64(int16(v))
		}
		return int64(v)
	case 4:
		v := o.Uint32(b)
		if signed {
			return int64(int32(v))
		}
		return int64(v)
	case 8:
		return int64(o.Uint64(b))
	}
	return 0
}

// dynamic returns the bytes of a __data_loc or __rel_loc field.
func (r *Record) Dynamic(fd *Field) []byte {
	if fd.Offset+4 > len(r.Data) || fd.Size < 4 {
		return nil
	}
	loc := r.Order.Uint32(r.Data[fd.Offset:])
	off, n := int(loc&0xffff), int(loc>>16)
	if fd.RelLoc {
		off += fd.Offset + fd.Size
	}
	if off+n > len(r.Data) {
		return nil
	}
	return r.Data[off : off+n]
}

// text returns a char array or __data_loc string, up to its NUL.
func (r *Record) Text(fd *Field) []byte {
	var b []byte
	if fd.DataLoc {
		b = r.Dynamic(fd)
	} else if fd.Offset+fd.Size <= len(r.Data) {
		b = r.Data[fd.Offset : fd.Offset+fd.Size]
	}
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return b
}

// eval evaluates x over the record; false when it cannot (an unknown name).
func (p *Printer) eval(x *expr, r *Record) (value, bool) {
	switch x.op {
	case "str":
		return value{s: x.lit, isStr: true}, true
	case "field":
		if x.field.Str && x.index == nil {
			if r == nil {
				return value{}, false
			}
			return value{s: r.Text(x.field), isStr: true}, true
		}
	case "getstr":
		if r == nil {
			return value{}, false
		}
		return value{s: r.Text(x.field), isStr: true}, true
	case "sym":
		v, ok := evalInt(x.args[0], r)
		if !ok {
			return value{}, false
		}
		for _, p := range x.pairs {
			if p.ok && p.val == v {
				return value{s: []byte(p.label), isStr: true}, true
			}
		}
		return value{s: strconv.AppendUint([]byte("0x"), uint64(v), 16), isStr: true}, true
	case "flags":
		v, ok := evalInt(x.args[0], r)
		if !ok {
			return value{}, false
		}
		start := len(p.scratch)
		p.scratch = appendFlags(p.scratch, v, x.str, x.pairs)
		return value{s: p.scratch[start:len(p.scratch):len(p.scratch)], isStr: true}, true
	case "cond":
		c, ok := evalInt(x.args[0], r)
		if !ok {
			return value{}, false
		}
		if c != 0 {
			return p.eval(x.args[1], r)
		}
		return p.eval(x.args[2], r)
	}
	v, ok := evalInt(x, r)
	return value{i: v}, ok
}

// appendFlags appends the labels of the bits set in v, libtraceevent's
// way: each pair whose bits are all set is printed and its bits cleared;
// what is left is printed in hex.
func appendFlags(out []byte, v int64, delim string, pairs []symPair) []byte {
	start := len(out)
	u := uint64(v)
	for _, p := range pairs {
		if !p.ok {
			continue
		}
		pv := uint64(p.val)
		if pv == 0 && u != 0 || u&pv != pv {
			continue
		}
		if len(out) > start {
			out = append(out, delim...)
		}
		out = append(out, p.label...)
		u &^= pv
		if pv == 0 {
			break
		}
	}
	if u != 0 {
		if len(out) > start {
			out = append(out, delim...)
		}
		out = strconv.AppendUint(append(out, "0x"...), u, 16)
	}
	return out
}

// evalInt evaluates x as an integer.
func evalInt(x *expr, r *Record) (int64, bool) {
	switch x.op {
	case "num":
		return x.num, true
	case "field":
		if r == nil {
			return 0, false
		}
		var i int64
		if x.index != nil {
			var ok bool
			if i, ok = evalInt(x.index, r); !ok {
				return 0, false
			}
		}
		return r.Int(x.field, i)
	case "cast":
		v, ok := evalInt(x.args[0], r)
		if !ok {
			return 0, false
		}
		return truncate(v, x.size, x.sign), true
	case "unary":
		v, ok := evalInt(x.args[0], r)
		switch x.str {
		case "-":
			v = -v
		case "!":
			v = b2i(v == 0)
		case "~":
			v = ^v
		}
		return v, ok
	case "cond":
		c, ok := evalInt(x.args[0], r)
		if !ok {
			return 0, false
		}
		if c != 0 {
			return evalInt(x.args[1], r)
		}
		return evalInt(x.args[2], r)
	case "bin":
		a, ok1 := evalInt(x.args[0], r)
		b, ok2 := evalInt(x.args[1], r)
		if !ok1 || !ok2 {
			return 0, false
		}
		return binop(x.str, a, b)
	case "unknown":
		// A name the file does not define (vmemmap_base, an enum
		// constant): 0 in a record's expressions, as libtraceevent has
		// it; in a symbol table's values, the entry is dropped.
		return 0, r != nil && x.str != ""
	}
	return 0, false
}

func binop(op string, a, b int64) (int64, bool) {
	switch op {
	case "+":
		return a + b, true
	case "-":
		return a - b, true
	case "*":
		return a * b, true
	case "/", "%":
		if b == 0 {
			return 0, false
		}
		if op == "/" {
			return int64(uint64(a) / uint64(b)), true
		}
		return int64(uint64(a) % uint64(b)), true
	case "<<":
		return a << (uint64(b) & 63), true
	case ">>":
		return int64(uint64(a) >> (uint64(b) & 63)), true
	case "&":
		return a & b, true
	case "|":
		return a | b, true
	case "^":
		return a ^ b, true
	case "&&":
		return b2i(a != 0 && b != 0), true
	case "||":
		return b2i(a != 0 || b != 0), true
	case "==":
		return b2i(a == b), true
	case "!=":
		return b2i(a != b), true
	case "<":
		return b2i(a < b), true
	case ">":
		return b2i(a > b), true
	case "<=":
		return b2i(a <= b), true
	case ">=":
		return b2i(a >= b), true
	}
	return 0, false
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// truncate keeps size bytes of v, sign-extending when signed.
func truncate(v int64, size int, signed bool) int64 {
	switch size {
	case 1:
		if signed {
			return int64(int8(v))
		}
		return int64(uint8(v))
	case 2:
		if signed {
			return int64(int16(v))
		}
		return int64(uint16(v))
	case 4:
		if signed {
			return int64(int32(v))
		}
		return int64(uint32(v))
	}
	return v
}

// segment is a piece of a print format: literal text, then (when conv)
// one conversion, parsed once per event class.
type segment struct {
	lit  []byte
	conv bool
	spec spec
}

// compileFormat splits a printf format into segments.
func compileFormat(format string) []segment {
	var segs []segment
	var lit []byte
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			lit = append(lit, c)
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			lit = append(lit, '%')
			i++
			continue
		}
		sp, n := parseSpec(format[i+1:])
		i += n
		segs = append(segs, segment{lit: lit, conv: true, spec: sp})
		lit = nil
	}
	if len(lit) > 0 {
		segs = append(segs, segment{lit: lit})
	}
	return segs
}

// appendPrintf prints args with a compiled C printf format, as
// libtraceevent does (%p in hex with 0x, %ps/%pS as kernel symbols).
func (p *Printer) appendPrintf(dst []byte, segs []segment, args []*expr, r *Record) []byte {
	p.scratch = p.scratch[:0]
	ai := 0
	for i := range segs {
		seg := &segs[i]
		dst = append(dst, seg.lit...)
		if !seg.conv || ai >= len(args) {
			continue
		}
		v, ok := p.eval(args[ai], r)
		ai++
		if !ok {
			dst = append(dst, "[FAILED TO PARSE]"...)
			continue
		}
		dst = p.appendConv(dst, seg.spec, v)
	}
	return dst
}
