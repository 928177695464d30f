package core

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the type of a state [Value].
type Kind uint8

// Value kinds. The numbers are persisted (history's interval records) and
// must not change.
const (
	KindNull    Kind = 0
	KindInt32   Kind = 1
	KindInt64   Kind = 2
	KindFloat64 Kind = 3
	KindString  Kind = 4
)

// MaxStringLen bounds the byte length of a string [Value]: long enough for
// any thread name, function name or path a trace carries, short enough that
// one value never dominates a tree node.
const MaxStringLen = 1024

// ErrBadValue is returned when a value cannot be stored (invalid UTF-8,
// string too long).
var ErrBadValue = errors.New("bad state value")

// String returns the kind's name.
func (k Kind) String() string {
	switch k {
	case KindNull:
		return "null"
	case KindInt32:
		return "int32"
	case KindInt64:
		return "int64"
	case KindFloat64:
		return "float64"
	case KindString:
		return "string"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Value is an immutable state value: null, int32, int64, float64 or a
// UTF-8 string of at most [MaxStringLen] bytes. The zero Value is null.
// Values are compared with ==.
type Value struct {
	kind Kind
	num  uint64 // int32/int64 as two's complement, float64 as IEEE bits
	str  string
}

// Null returns the null value (the state of an attribute before any change).
func Null() Value { return Value{} }

// Int32 returns an int32 value.
func Int32(v int32) Value { return Value{kind: KindInt32, num: uint64(int64(v))} }

// Int64 returns an int64 value.
func Int64(v int64) Value { return Value{kind: KindInt64, num: uint64(v)} }

// Float64 returns a float64 value. NaN is stored with its bits, so two NaN
// values with the same bits compare equal.
func Float64(v float64) Value { return Value{kind: KindFloat64, num: math.Float64bits(v)} }

// String returns a string value. Use [CheckValue] (or let the history
// builder do it) before storing strings from untrusted input.
func String(v string) Value { return Value{kind: KindString, str: v} }

// Kind returns the value's type.
func (v Value) Kind() Kind { return v.kind }

// IsNull reports whether v is null.
func (v Value) IsNull() bool { return v.kind == KindNull }

// Int returns the integer held by an int32 or int64 value (0 otherwise).
func (v Value) Int() int64 {
	if v.kind == KindInt32 || v.kind == KindInt64 {
		return int64(v.num)
	}
	return 0
}

// Float returns the float held by a float64 value, or the integer of an
// int32/int64 value converted to float64 (0 otherwise).
func (v Value) Float() float64 {
	switch v.kind {
	case KindFloat64:
		return math.Float64frombits(v.num)
	case KindInt32, KindInt64:
		return float64(int64(v.num))
	}
	return 0
}

// Str returns the string held by a string value ("" otherwise).
func (v Value) Str() string {
	if v.kind == KindString {
		return v.str
	}
	return ""
}

// String formats the value for people: "null", the number, or the string
// unquoted.
func (v Value) String() string {
	switch v.kind {
	case KindInt32, KindInt64:
		return strconv.FormatInt(int64(v.num), 10)
	case KindFloat64:
		return strconv.FormatFloat(math.Float64frombits(v.num), 'g', -1, 64)
	case KindString:
		return v.str
	}
	return "null"
}

// CheckValue reports whether v can be stored: strings must be valid UTF-8
// of at most [MaxStringLen] bytes.
func CheckValue(v Value) error {
	if v.kind > KindString {
		return fmt.Errorf("%w: unknown kind %d", ErrBadValue, v.kind)
	}
	if v.kind != KindString {
		return nil
	}
	if len(v.str) > MaxStringLen {
		return fmt.Errorf("%w: string of %d bytes, limit %d", ErrBadValue, len(v.str), MaxStringLen)
	}
	if !utf8.ValidString(v.str) {
		return fmt.Errorf("%w: string is not valid UTF-8", ErrBadValue)
	}
	return nil
}

// SafeString makes s storable as a string value: invalid UTF-8 replaced,
// cut at a rune boundary to at most [MaxStringLen] bytes. Readers of
// untrusted traces pass names through it.
func SafeString(s string) string {
	if len(s) <= MaxStringLen && utf8.ValidString(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) > MaxStringLen {
		cut := MaxStringLen
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return s
}
