package tsdl

import (
	"strings"
)

// Attribute values: names, integers, alignments, booleans, byte orders,
// bases, encodings and UUIDs, each checked.

// nameValue reads a name given as an identifier or a string.
func nameValue(e *decl, what string) (string, error) {
	switch {
	case e.rhs.kind == exprString:
		return e.rhs.str, nil
	case e.rhs.kind == exprPath && len(e.rhs.path) == 1:
		return e.rhs.path[0], nil
	}
	return "", errorf(e.line, "%s must be a name or a string", what)
}

// Attribute value helpers.

func unsigned(e expr, what string) (uint64, error) {
	if e.kind != exprNum || e.neg {
		return 0, errorf(e.line, "%s must be a non-negative integer", what)
	}
	return e.num, nil
}

func signedValue(e expr) (int64, error) {
	if e.kind != exprNum {
		return 0, errorf(e.line, "expected an integer")
	}
	if e.neg {
		if e.num > 1<<63 {
			return 0, errorf(e.line, "integer out of range")
		}
		return int64(-e.num), nil
	}
	if e.num > 1<<63-1 {
		return 0, errorf(e.line, "integer out of range")
	}
	return int64(e.num), nil
}

func alignment(e expr) (int, error) {
	v, err := unsigned(e, "alignment")
	if err != nil {
		return 0, err
	}
	if v == 0 || v&(v-1) != 0 || v > 1<<16 {
		return 0, errorf(e.line, "alignment %d is not a power of two up to 65536", v)
	}
	return int(v), nil
}

func boolean(e expr, what string) (bool, error) {
	switch {
	case e.kind == exprNum && !e.neg && e.num <= 1:
		return e.num == 1, nil
	case e.kind == exprPath && len(e.path) == 1:
		switch e.path[0] {
		case "true", "TRUE":
			return true, nil
		case "false", "FALSE":
			return false, nil
		}
	}
	return false, errorf(e.line, "%s must be true or false", what)
}

// byteOrder reads be, le or network (and native when allowed, which the
// caller resolves).
func byteOrder(e expr, allowNative bool) (bigEndian bool, err error) {
	if e.kind == exprPath && len(e.path) == 1 {
		switch e.path[0] {
		case "be", "network":
			return true, nil
		case "le":
			return false, nil
		}
	}
	return false, errorf(e.line, "byte_order must be be, le or network")
}

func (b *builder) typeByteOrder(e expr) (bool, error) {
	if e.kind == exprPath && len(e.path) == 1 && e.path[0] == "native" {
		return b.tr.BigEndian, nil
	}
	be, err := byteOrder(e, true)
	if err != nil {
		return false, errorf(e.line, "byte_order must be native, network, be or le")
	}
	return be, nil
}

func base(e expr) (int, error) {
	if e.kind == exprNum && !e.neg {
		switch e.num {
		case 2, 8, 10, 16:
			return int(e.num), nil
		}
	}
	if e.kind == exprPath && len(e.path) == 1 {
		switch e.path[0] {
		case "decimal", "dec", "d", "i", "u":
			return 10, nil
		case "hexadecimal", "hex", "x", "X", "p":
			return 16, nil
		case "octal", "oct", "o":
			return 8, nil
		case "binary", "b":
			return 2, nil
		}
	}
	return 0, errorf(e.line, "unknown integer base")
}

func encoding(e expr) (Encoding, error) {
	if e.kind == exprPath && len(e.path) == 1 {
		switch strings.ToUpper(e.path[0]) {
		case "NONE":
			return EncodingNone, nil
		case "UTF8":
			return EncodingUTF8, nil
		case "ASCII":
			return EncodingASCII, nil
		}
	}
	if e.kind == exprString {
		// Section 4.1.5: the encoding is an identifier, not a string.
		return 0, errorf(e.line, "encoding %q is a string literal: write it as an identifier (none, UTF8 or ASCII)", e.str)
	}
	return 0, errorf(e.line, "encoding must be none, UTF8 or ASCII")
}

// uuid reads a "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" string.
func uuid(e expr) ([16]byte, error) {
	var u [16]byte
	if e.kind != exprString {
		return u, errorf(e.line, "uuid must be a string")
	}
	s := e.str
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return u, errorf(e.line, "malformed uuid %q", s)
	}
	j := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '-' && (i == 8 || i == 13 || i == 18 || i == 23) {
			continue
		}
		hi, ok1 := digitValue(s[i])
		lo, ok2 := digitValue(s[i+1])
		if !ok1 || !ok2 || hi > 15 || lo > 15 {
			return u, errorf(e.line, "malformed uuid %q", s)
		}
		u[j] = byte(hi<<4 | lo)
		j++
		i++
	}
	return u, nil
}
