package tsdl

import (
	"bytes"
	"strings"
)

// tokKind classifies a token.
type tokKind uint8

const (
	tokEOF    tokKind = iota
	tokIdent          // identifiers and keywords
	tokInt            // integer constant (value in tok.num)
	tokString         // string literal (unescaped in tok.text)
	tokChar           // character constant (value in tok.num)
	tokPunct          // punctuator (in tok.text)
)

// token is one lexical element.
type token struct {
	kind tokKind
	text string // identifier, punctuator, or unescaped string
	num  uint64 // integer or character value
	line int
}

// String describes the token for error messages.
func (t token) String() string {
	switch t.kind {
	case tokEOF:
		return "end of metadata"
	case tokString:
		return `"` + t.text + `"`
	case tokInt, tokChar:
		return "number"
	}
	return "'" + t.text + "'"
}

// maxTokens bounds the work of the parser on hostile input. Real metadata
// (an LTTng kernel trace with every syscall) has about 200 000 tokens.
const maxTokens = 1 << 24

type lexer struct {
	src    []byte
	pos    int
	line   int
	intern map[string]string // identifiers repeat: allocate each once
}

// singlePuncts are the one-character punctuators, in the order of the
// string the lexer indexes ("[](){}.*+-<>:;=,"); "...", ":=" and "->" are
// matched first.
var singlePuncts = []string{"[", "]", "(", ")", "{", "}", ".", "*", "+", "-", "<", ">", ":", ";", "=", ","}

func (l *lexer) next() (token, error) {
	if err := l.skipSpace(); err != nil {
		return token{}, err
	}
	if l.pos >= len(l.src) {
		return token{kind: tokEOF, line: l.line}, nil
	}
	c := l.src[l.pos]
	start := l.pos
	switch {
	case isIdentStart(c):
		// L"..." and L'...' are wide literals.
		if c == 'L' && l.pos+1 < len(l.src) && (l.src[l.pos+1] == '"' || l.src[l.pos+1] == '\'') {
			l.pos++
			return l.next()
		}
		for l.pos < len(l.src) && isIdentChar(l.src[l.pos]) {
			l.pos++
		}
		b := l.src[start:l.pos]
		text, ok := l.intern[string(b)]
		if !ok {
			text = string(b)
			l.intern[text] = text
		}
		return token{kind: tokIdent, text: text, line: l.line}, nil
	case c >= '0' && c <= '9':
		return l.number()
	case c == '"':
		s, err := l.quoted('"')
		return token{kind: tokString, text: s, line: l.line}, err
	case c == '\'':
		line := l.line
		s, err := l.quoted('\'')
		if err != nil {
			return token{}, err
		}
		if len(s) == 0 {
			return token{}, errorf(line, "empty character constant")
		}
		var v uint64
		for i := 0; i < len(s) && i < 8; i++ {
			v = v<<8 | uint64(s[i])
		}
		return token{kind: tokChar, num: v, text: s, line: line}, nil
	}
	next := byte(0)
	if l.pos+1 < len(l.src) {
		next = l.src[l.pos+1]
	}
	p := ""
	switch {
	case c == '.' && next == '.' && l.pos+2 < len(l.src) && l.src[l.pos+2] == '.':
		p = "..."
	case c == ':' && next == '=':
		p = ":="
	case c == '-' && next == '>':
		p = "->"
	default:
		if i := strings.IndexByte("[](){}.*+-<>:;=,", c); i >= 0 {
			p = singlePuncts[i]
		}
	}
	if p == "" {
		return token{}, errorf(l.line, "unexpected character %q", rune(c))
	}
	l.pos += len(p)
	return token{kind: tokPunct, text: p, line: l.line}, nil
}

func (l *lexer) skipSpace() error {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == '\n':
			l.line++
			l.pos++
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == 0:
			// NUL bytes pad packetized metadata; they separate tokens.
			l.pos++
		case c == '/' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '*':
			start := l.line
			end := bytes.Index(l.src[l.pos+2:], []byte("*/"))
			if end < 0 {
				// babeltrace2 accepts a comment left open at the end.
				l.line += bytes.Count(l.src[l.pos:], []byte("\n"))
				l.pos = len(l.src)
				_ = start
				return nil
			}
			body := l.src[l.pos+2 : l.pos+2+end]
			l.line += bytes.Count(body, []byte("\n"))
			l.pos += 2 + end + 2
		case c == '/' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '/':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		default:
			return nil
		}
	}
	return nil
}

func (l *lexer) number() (token, error) {
	start, line := l.pos, l.line
	base := uint64(10)
	digits := l.pos
	if l.src[l.pos] == '0' && l.pos+1 < len(l.src) && (l.src[l.pos+1] == 'x' || l.src[l.pos+1] == 'X') {
		base = 16
		l.pos += 2
		digits = l.pos
	} else if l.src[l.pos] == '0' {
		base = 8
	}
	var v uint64
	overflow := false
	for l.pos < len(l.src) {
		d, ok := digitValue(l.src[l.pos])
		if !ok || d >= base {
			break
		}
		if v > (^uint64(0)-d)/base {
			overflow = true
		}
		v = v*base + d
		l.pos++
	}
	if l.pos == digits && base == 16 {
		return token{}, errorf(line, "hexadecimal constant without digits")
	}
	for l.pos < len(l.src) && strings.IndexByte("uUlL", l.src[l.pos]) >= 0 {
		l.pos++
	}
	if l.pos < len(l.src) && (isIdentChar(l.src[l.pos])) {
		return token{}, errorf(line, "invalid number %q", string(l.src[start:l.pos+1]))
	}
	if overflow {
		return token{}, errorf(line, "integer constant %s does not fit 64 bits", string(l.src[start:l.pos]))
	}
	return token{kind: tokInt, num: v, text: string(l.src[start:l.pos]), line: line}, nil
}

// quoted reads a string or character literal delimited by q, resolving
// C escape sequences.
func (l *lexer) quoted(q byte) (string, error) {
	line := l.line
	l.pos++ // opening quote
	var b strings.Builder
	for {
		if l.pos >= len(l.src) {
			return "", errorf(line, "unterminated literal")
		}
		c := l.src[l.pos]
		switch {
		case c == q:
			l.pos++
			return b.String(), nil
		case c == '\n':
			return "", errorf(line, "newline in literal")
		case c != '\\':
			b.WriteByte(c)
			l.pos++
			continue
		}
		// Escape sequence.
		l.pos++
		if l.pos >= len(l.src) {
			return "", errorf(line, "unterminated literal")
		}
		e := l.src[l.pos]
		l.pos++
		switch e {
		case '\'', '"', '?', '\\':
			b.WriteByte(e)
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'n':
			b.WriteByte(10)
		case 'r':
			b.WriteByte(13)
		case 't':
			b.WriteByte(9)
		case 'v':
			b.WriteByte(11)
		case 'x':
			var v uint64
			n := 0
			for l.pos < len(l.src) {
				d, ok := digitValue(l.src[l.pos])
				if !ok || d >= 16 {
					break
				}
				v = v*16 + d
				l.pos++
				n++
				if n > 2 {
					return "", errorf(line, "hexadecimal escape out of range")
				}
			}
			if n == 0 {
				return "", errorf(line, `\x without hexadecimal digits`)
			}
			b.WriteByte(byte(v))
		case 'u', 'U':
			n := 4
			if e == 'U' {
				n = 8
			}
			var v uint64
			for i := 0; i < n; i++ {
				if l.pos >= len(l.src) {
					return "", errorf(line, "short universal character name")
				}
				d, ok := digitValue(l.src[l.pos])
				if !ok || d >= 16 {
					return "", errorf(line, "short universal character name")
				}
				v = v*16 + d
				l.pos++
			}
			if v > 0x10FFFF {
				return "", errorf(line, "universal character name out of range")
			}
			b.WriteRune(rune(v))
		default:
			if e >= '0' && e <= '7' {
				v := uint64(e - '0')
				for i := 0; i < 2 && l.pos < len(l.src) && l.src[l.pos] >= '0' && l.src[l.pos] <= '7'; i++ {
					v = v*8 + uint64(l.src[l.pos]-'0')
					l.pos++
				}
				if v > 255 {
					return "", errorf(line, "octal escape out of range")
				}
				b.WriteByte(byte(v))
				continue
			}
			return "", errorf(line, "unknown escape sequence \\%c", e)
		}
	}
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentChar(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

func digitValue(c byte) (uint64, bool) {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0'), true
	case c >= 'a' && c <= 'f':
		return uint64(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return uint64(c-'A') + 10, true
	}
	return 0, false
}
