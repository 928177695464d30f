package ctf2

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// A small JSON parser that keeps the byte offset of every value, so that
// each metadata error can say where it is (encoding/json's decoder only
// reports offsets of syntax errors). Numbers keep their text: integers are
// parsed with strconv where used, never through float64.

type valueKind uint8

const (
	jNull valueKind = iota
	jBool
	jNumber
	jString
	jArray
	jObject
)

var kindNames = [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}

// value is one JSON value and where it starts in the metadata.
type value struct {
	kind valueKind
	off  int64
	end  int64 // where it ends (objects)
	b    bool
	text string // number text or string value
	arr  []*value
	obj  []member
	used []bool // object members taken by the reader (unknown ones are refused)
}

type member struct {
	key string
	off int64
	val *value
}

// Limits on untrusted metadata.
const (
	maxDepth        = 256      // nesting of JSON values
	maxFragmentSize = 64 << 20 // bytes per fragment
)

type jparser struct {
	data  []byte
	pos   int
	base  int64 // offset of data[0] in the metadata stream
	depth int
}

// parseJSON parses one complete JSON value (with surrounding white space)
// from data, which starts at byte base of the metadata stream.
func parseJSON(data []byte, base int64) (*value, error) {
	p := &jparser{data: data, base: base}
	p.ws()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.pos != len(p.data) {
		return nil, p.errf("unexpected %q after the JSON value", p.data[p.pos])
	}
	return v, nil
}

func (p *jparser) errf(format string, a ...any) error {
	return errorf(p.base+int64(p.pos), format, a...)
}

func (p *jparser) ws() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jparser) value() (*value, error) {
	if p.pos >= len(p.data) {
		return nil, p.errf("unexpected end of fragment")
	}
	v := &value{off: p.base + int64(p.pos)}
	switch c := p.data[p.pos]; {
	case c == '{' || c == '[':
		p.depth++
		if p.depth > maxDepth {
			return nil, p.errf("JSON nested more than %d deep", maxDepth)
		}
		defer func() { p.depth-- }()
		if c == '{' {
			err := p.object(v)
			v.end = p.base + int64(p.pos)
			return v, err
		}
		return v, p.array(v)
	case c == '"':
		s, err := p.str()
		v.kind, v.text = jString, s
		return v, err
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []string{"true", "false", "null"} {
			if len(p.data)-p.pos >= len(lit) && string(p.data[p.pos:p.pos+len(lit)]) == lit {
				p.pos += len(lit)
				switch lit {
				case "true":
					v.kind, v.b = jBool, true
				case "false":
					v.kind = jBool
				}
				return v, nil
			}
		}
	case c == '-' || (c >= '0' && c <= '9'):
		return v, p.number(v)
	}
	return nil, p.errf("unexpected %q: want a JSON value", p.data[p.pos])
}

func (p *jparser) object(v *value) error {
	v.kind = jObject
	p.pos++
	p.ws()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return nil
	}
	for {
		p.ws()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return p.errf("want a property name")
		}
		off := p.base + int64(p.pos)
		key, err := p.str()
		if err != nil {
			return err
		}
		for _, m := range v.obj {
			if m.key == key {
				return errorf(off, "duplicate property %q", key)
			}
		}
		p.ws()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return p.errf("want ':' after property name %q", key)
		}
		p.pos++
		p.ws()
		val, err := p.value()
		if err != nil {
			return err
		}
		v.obj = append(v.obj, member{key: key, off: off, val: val})
		p.ws()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] == '}' {
			p.pos++
			v.used = make([]bool, len(v.obj))
			return nil
		}
		return p.errf("want ',' or '}' in an object")
	}
}

func (p *jparser) array(v *value) error {
	v.kind = jArray
	p.pos++
	p.ws()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return nil
	}
	for {
		p.ws()
		el, err := p.value()
		if err != nil {
			return err
		}
		v.arr = append(v.arr, el)
		p.ws()
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			p.pos++
			continue
		}
		if p.pos < len(p.data) && p.data[p.pos] == ']' {
			p.pos++
			return nil
		}
		return p.errf("want ',' or ']' in an array")
	}
}

func (p *jparser) str() (string, error) {
	start := p.pos
	p.pos++
	escaped := false
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			raw := p.data[start:p.pos]
			if !escaped {
				if !utf8.Valid(raw) {
					return "", errorf(p.base+int64(start), "string is not valid UTF-8")
				}
				return string(raw[1 : len(raw)-1]), nil
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", errorf(p.base+int64(start), "invalid string: %v", err)
			}
			return s, nil
		case c == '\\':
			escaped = true
			p.pos += 2
		case c < 0x20:
			return "", p.errf("control character in a string")
		default:
			p.pos++
		}
	}
	return "", errorf(p.base+int64(start), "unterminated string")
}

func (p *jparser) number(v *value) error {
	start := p.pos
	if p.data[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if digits() == 0 {
		return p.errf("invalid number")
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return p.errf("invalid number")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return p.errf("invalid number")
		}
	}
	v.kind, v.text = jNumber, string(p.data[start:p.pos])
	return nil
}

// Typed access, each error naming the offending value's offset.

func (v *value) want(k valueKind, what string) error {
	if v.kind != k {
		return errorf(v.off, "%s: expecting %s, not %s", what, kindNames[k], kindNames[v.kind])
	}
	return nil
}

// uint returns an unsigned integer (no fraction, no exponent).
func (v *value) uint(what string) (uint64, error) {
	if v.kind != jNumber {
		return 0, errorf(v.off, "%s: expecting an integer, not %s", what, kindNames[v.kind])
	}
	n, err := strconv.ParseUint(v.text, 10, 64)
	if err != nil {
		if len(v.text) > 0 && v.text[0] == '-' {
			if _, err := strconv.ParseInt(v.text, 10, 64); err == nil {
				return 0, errorf(v.off, "%s: %s is negative: expecting an unsigned integer", what, v.text)
			}
		}
		return 0, errorf(v.off, "%s: %s is not a 64-bit unsigned integer", what, v.text)
	}
	return n, nil
}

// int returns a signed integer.
func (v *value) int(what string) (int64, error) {
	if v.kind != jNumber {
		return 0, errorf(v.off, "%s: expecting an integer, not %s", what, kindNames[v.kind])
	}
	n, err := strconv.ParseInt(v.text, 10, 64)
	if err != nil {
		return 0, errorf(v.off, "%s: %s is not a 64-bit signed integer", what, v.text)
	}
	return n, nil
}

func (v *value) string(what string) (string, error) {
	if err := v.want(jString, what); err != nil {
		return "", err
	}
	return v.text, nil
}

// get returns an object's property, marking it used, or nil.
func (v *value) get(key string) *value {
	for i, m := range v.obj {
		if m.key == key {
			v.used[i] = true
			return m.val
		}
	}
	return nil
}

// need returns a required property.
func (v *value) need(key, what string) (*value, error) {
	if p := v.get(key); p != nil {
		return p, nil
	}
	return nil, errorf(v.off, "%s: missing required property %q", what, key)
}

// done refuses properties no reader took (babeltrace2 does: a misspelt
// property would otherwise silently take its default).
func (v *value) done(what string) error {
	for i, m := range v.obj {
		if !v.used[i] {
			return errorf(m.off, "%s: unknown property %q", what, m.key)
		}
	}
	return nil
}
