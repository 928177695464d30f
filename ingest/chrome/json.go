package chrome

import (
	"errors"
	"math"
	"strconv"
	"unicode/utf8"
)

// Hand-written JSON primitives over byte slices. They never allocate on the
// fast path (strings without escapes) and never recurse, so hostile nesting
// cannot exhaust the stack. Each returns errShort when the value runs past
// the end of the slice, so the streaming reader can refill and retry.

var (
	errShort  = errors.New("unexpected end of input")
	errSyntax = errors.New("invalid JSON")
)

// isSpace reports JSON whitespace.
func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

// skipSpace returns the index of the first non-space byte at or after i.
func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// scanString returns the end (just past the closing quote) of the string
// starting at b[i] == '"', and whether it holds escapes.
func scanString(b []byte, i int) (end int, escaped bool, err error) {
	i++
	for i < len(b) {
		switch c := b[i]; {
		case c == '"':
			return i + 1, escaped, nil
		case c == '\\':
			escaped = true
			i += 2
		case c < 0x20:
			return 0, false, errSyntax
		default:
			i++
		}
	}
	return 0, false, errShort
}

// skipValue returns the end of the JSON value starting at b[i] (which is
// not a space). Nested objects and arrays are skipped with a depth
// counter, not recursion.
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errShort
	}
	switch c := b[i]; {
	case c == '"':
		end, _, err := scanString(b, i)
		return end, err
	case c == '{' || c == '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '{', '[':
				depth++
				i++
			case '}', ']':
				depth--
				i++
				if depth == 0 {
					return i, nil
				}
			case '"':
				end, _, err := scanString(b, i)
				if err != nil {
					return 0, err
				}
				i = end
			default:
				i++
			}
		}
		return 0, errShort
	case c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n':
		j := i
		for j < len(b) && !isDelim(b[j]) {
			j++
		}
		if j == len(b) {
			return 0, errShort
		}
		return j, nil
	}
	return 0, errSyntax
}

// isDelim reports a byte that ends a number or literal.
func isDelim(c byte) bool { return c == ',' || c == '}' || c == ']' || isSpace(c) }

// unquote appends the decoded contents of the JSON string s (with its
// quotes) to dst. Invalid escapes are kept as written.
func unquote(dst, s []byte) []byte {
	s = s[1 : len(s)-1]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			dst = append(dst, c)
			continue
		}
		i++
		switch s[i] {
		case '"', '\\', '/':
			dst = append(dst, s[i])
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, n := decodeU(s[i+1:])
			if n == 0 {
				dst = append(dst, '\\', 'u')
				continue
			}
			i += n
			dst = utf8.AppendRune(dst, r)
		default:
			dst = append(dst, '\\', s[i])
		}
	}
	return dst
}

// decodeU decodes the 4 hex digits after \u (and a following \uDCxx low
// surrogate), returning the rune and the bytes consumed after the 'u'.
func decodeU(s []byte) (rune, int) {
	r, ok := hex4(s)
	if !ok {
		return 0, 0
	}
	if r >= 0xD800 && r < 0xDC00 && len(s) >= 10 && s[4] == '\\' && s[5] == 'u' {
		if lo, ok := hex4(s[6:]); ok && lo >= 0xDC00 && lo < 0xE000 {
			return (r-0xD800)<<10 | (lo - 0xDC00) + 0x10000, 10
		}
	}
	if r >= 0xD800 && r < 0xE000 {
		return utf8.RuneError, 4
	}
	return r, 4
}

func hex4(s []byte) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// maxMicros bounds timestamps so that converting to nanoseconds cannot
// overflow: about 292 years.
const maxMicros = math.MaxInt64 / 1000

// parseMicros converts a JSON number of microseconds (with an optional
// fraction, exponent or sign) to nanoseconds, exactly for plain decimals.
func parseMicros(b []byte) (int64, bool) {
	neg := false
	i := 0
	if i < len(b) && b[i] == '-' {
		neg = true
		i++
	}
	start := i
	var us int64
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		if us > maxMicros/10 {
			return 0, false
		}
		us = us*10 + int64(b[i]-'0')
		i++
	}
	if i == start {
		return 0, false
	}
	var frac int64
	scale := int64(100)
	round := false
	if i < len(b) && b[i] == '.' {
		i++
		fstart := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			if scale > 0 {
				frac += int64(b[i]-'0') * scale
				scale /= 10
			} else if scale == 0 && b[i] >= '5' {
				round, scale = true, -1 // only the first dropped digit rounds
			} else {
				scale = -1
			}
			i++
		}
		if i == fstart {
			return 0, false
		}
	}
	if i < len(b) {
		if b[i] != 'e' && b[i] != 'E' {
			return 0, false
		}
		f, err := strconv.ParseFloat(string(b), 64)
		if err != nil || math.IsNaN(f) || math.Abs(f) >= maxMicros {
			return 0, false
		}
		return int64(math.Round(f * 1000)), true
	}
	if us > maxMicros {
		return 0, false
	}
	ns := us*1000 + frac
	if round {
		ns++
	}
	if neg {
		ns = -ns
	}
	return ns, true
}
