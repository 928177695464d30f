package ftracefmt

import (
	"bytes"
	"strconv"
	"strings"
)

// C printf conversions, printed as glibc and libtraceevent print them.

// spec is one printf conversion.
type spec struct {
	minus, zero, plus, space, hash bool
	width, prec                    int // -1: not given
	size                           int // bytes of the argument: 1, 2, 4, 8
	conv                           byte
	ext                            byte // %p's extension letter (s, S, F, f, B...)
}

// parseSpec reads a conversion after its '%'; n is the bytes consumed.
func parseSpec(f string) (sp spec, n int) {
	sp.width, sp.prec, sp.size = -1, -1, 4
	for ; n < len(f); n++ {
		switch f[n] {
		case '-':
			sp.minus = true
		case '0':
			sp.zero = true
		case '+':
			sp.plus = true
		case ' ':
			sp.space = true
		case '#':
			sp.hash = true
		default:
			goto width
		}
	}
width:
	for ; n < len(f) && f[n] >= '0' && f[n] <= '9'; n++ {
		sp.width = max(sp.width, 0)*10 + int(f[n]-'0')
		sp.width = min(sp.width, 1024)
	}
	if n < len(f) && f[n] == '.' {
		n++
		sp.prec = 0
		for ; n < len(f) && f[n] >= '0' && f[n] <= '9'; n++ {
			sp.prec = min(sp.prec*10+int(f[n]-'0'), 1024)
		}
	}
	for ; n < len(f); n++ {
		switch f[n] {
		case 'h':
			sp.size = max(sp.size/2, 1)
			if sp.size == 4 {
				sp.size = 2
			}
		case 'l', 'L', 'z', 'j', 't', 'q':
			sp.size = 8
		default:
			goto conv
		}
	}
conv:
	if n < len(f) {
		sp.conv = f[n]
		n++
		if sp.conv == 'p' && n < len(f) && strings.IndexByte("sSfFBxK", f[n]) >= 0 {
			sp.ext = f[n]
			n++
		}
	}
	return sp, n
}

// appendConv prints one value.
func (p *Printer) appendConv(dst []byte, sp spec, v value) []byte {
	var body []byte
	switch sp.conv {
	case 's':
		if v.isStr && sp.width < 0 && sp.prec < 0 {
			return append(dst, v.s...)
		}
		if v.isStr {
			body = v.s
		} else {
			body = strconv.AppendInt(nil, v.i, 10)
		}
		if sp.prec >= 0 && len(body) > sp.prec {
			body = body[:sp.prec]
		}
		return pad(dst, body, sp)
	case 'c':
		return pad(dst, []byte{byte(v.i)}, sp)
	case 'p':
		switch sp.ext {
		case 's', 'S', 'f', 'F', 'B':
			if name, addr, ok := p.lookup(uint64(v.i)); ok {
				body = append(body, name...)
				if sp.ext == 'S' || sp.ext == 'F' || sp.ext == 'B' {
					body = strconv.AppendUint(append(body, "+0x"...), uint64(v.i)-addr, 16)
				}
				return pad(dst, body, sp)
			}
		}
		if v.i == 0 {
			return pad(dst, []byte("(nil)"), sp) // glibc's %p
		}
		body = strconv.AppendUint([]byte("0x"), uint64(v.i), 16)
		return pad(dst, body, sp)
	}
	if v.isStr {
		return pad(dst, v.s, sp)
	}
	x := truncate(v.i, sp.size, sp.conv == 'd' || sp.conv == 'i')
	digits := p.num[:0]
	var sign string
	switch sp.conv {
	case 'd', 'i':
		switch {
		case x < 0:
			sign = "-"
			digits = strconv.AppendUint(digits, uint64(-x), 10)
		case sp.plus:
			sign = "+"
			digits = strconv.AppendInt(digits, x, 10)
		default:
			digits = strconv.AppendInt(digits, x, 10)
		}
	case 'u':
		digits = strconv.AppendUint(digits, uint64(x), 10)
	case 'x', 'X':
		digits = strconv.AppendUint(digits, uint64(x), 16)
		if sp.conv == 'X' {
			digits = bytes.ToUpper(digits)
		}
		if sp.hash && x != 0 {
			sign = "0" + string(sp.conv)
		}
	case 'o':
		digits = strconv.AppendUint(digits, uint64(x), 8)
	default:
		return dst
	}
	zeros := max(sp.prec-len(digits), 0)
	if sp.zero && !sp.minus && sp.prec < 0 {
		zeros = max(sp.width-len(sign)-len(digits), 0)
	}
	spaces := max(sp.width-len(sign)-zeros-len(digits), 0)
	if !sp.minus {
		dst = appendRepeat(dst, ' ', spaces)
	}
	dst = append(dst, sign...)
	dst = appendRepeat(dst, '0', zeros)
	dst = append(dst, digits...)
	if sp.minus {
		dst = appendRepeat(dst, ' ', spaces)
	}
	return dst
}

func appendRepeat(dst []byte, c byte, n int) []byte {
	for ; n > 0; n-- {
		dst = append(dst, c)
	}
	return dst
}

// pad appends body right-aligned in the spec's width (left with '-').
func pad(dst, body []byte, sp spec) []byte {
	n := sp.width - len(body)
	if !sp.minus {
		for ; n > 0; n-- {
			dst = append(dst, ' ')
		}
	}
	dst = append(dst, body...)
	for ; n > 0; n-- {
		dst = append(dst, ' ')
	}
	return dst
}
