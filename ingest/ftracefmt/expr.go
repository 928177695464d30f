package ftracefmt

import (
	"fmt"
	"strconv"
	"strings"
)

// The print formats of the kernel's format files are a printf string and
// C expressions over the record's fields (REC->x), with the helpers
// __get_str, __print_symbolic, __print_flags... This file parses the
// expressions; eval.go evaluates and printf.go prints them, as libtraceevent
// does for `trace-cmd report`.

// token is one lexical token of a print format.
type token struct {
	kind byte // 's' string literal, 'n' number, 'i' identifier, 'p' punctuation
	text string
}

// tokenize splits a print format into tokens.
func tokenize(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case c == '"':
			j := i + 1
			var b strings.Builder
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' && j+1 < len(s) {
					j++
					switch s[j] {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					default:
						b.WriteByte(s[j])
					}
					continue
				}
				b.WriteByte(s[j])
			}
			if j >= len(s) {
				return nil, fmt.Errorf("unterminated string")
			}
			out = append(out, token{'s', b.String()})
			i = j + 1
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (isIdentByte(s[j])) {
				j++
			}
			out = append(out, token{'n', s[i:j]})
			i = j
		case isIdentByte(c):
			j := i
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			out = append(out, token{'i', s[i:j]})
			i = j
		default:
			n := 1
			if i+1 < len(s) {
				switch s[i : i+2] {
				case "->", "<<", ">>", "==", "!=", "<=", ">=", "&&", "||":
					n = 2
				}
			}
			out = append(out, token{'p', s[i : i+n]})
			i += n
		}
	}
	return out, nil
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// expr is a parsed expression.
type expr struct {
	op    string // "num", "str", "field", "getstr", "sym", "flags", "cast", "cond", "unary", "bin", "unknown"
	num   int64
	str   string
	lit   []byte // a string literal's bytes
	field *Field
	index *expr // REC->x[i]
	args  []*expr
	pairs []symPair
	size  int // cast: bytes (0: no truncation)
	sign  bool
}

// symPair is one { value, "label" } of __print_symbolic/__print_flags.
type symPair struct {
	val   int64
	label string
	ok    bool // val evaluated (not an unknown name)
}

// parser reads expressions from tokens.
type parser struct {
	toks  []token
	pos   int
	ev    *Format
	depth int
	err   error
}

func (p *parser) peek() token {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return token{}
}

func (p *parser) next() token {
	t := p.peek()
	if p.pos < len(p.toks) {
		p.pos++
	}
	return t
}

func (p *parser) expect(text string) {
	if t := p.next(); t.text != text && p.err == nil {
		p.err = fmt.Errorf("%q expected, %q found", text, t.text)
	}
}

var binPrec = map[string]int{
	"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
	"<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
}

// parseExpr parses a conditional expression.
func (p *parser) parseExpr() *expr {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 200 {
		p.err = fmt.Errorf("expression nested too deep")
		return &expr{op: "unknown"}
	}
	c := p.parseBinary(1)
	if p.peek().text == "?" {
		p.next()
		a := p.parseExpr()
		p.expect(":")
		b := p.parseExpr()
		return &expr{op: "cond", args: []*expr{c, a, b}}
	}
	return c
}

func (p *parser) parseBinary(min int) *expr {
	x := p.parseUnary()
	for p.err == nil {
		t := p.peek()
		prec, ok := binPrec[t.text]
		if t.kind != 'p' || !ok || prec < min {
			return x
		}
		p.next()
		y := p.parseBinary(prec + 1)
		x = &expr{op: "bin", str: t.text, args: []*expr{x, y}}
	}
	return x
}

var typeWords = map[string]bool{"unsigned": true, "signed": true, "int": true, "long": true, "char": true, "short": true,
	"void": true, "struct": true, "const": true, "bool": true, "u8": true, "u16": true, "u32": true, "u64": true,
	"s8": true, "s16": true, "s32": true, "s64": true, "size_t": true, "pid_t": true, "gfp_t": true, "__u64": true, "__u32": true}

// castAhead reports whether the tokens after '(' are a type and ')'.
func (p *parser) castAhead() bool {
	i := p.pos + 1
	n := 0
	for ; i < len(p.toks); i++ {
		t := p.toks[i]
		if t.text == ")" {
			return n > 0
		}
		if t.text == "*" || t.kind == 'i' && (typeWords[t.text] || n > 0 && p.toks[i-1].text == "struct") {
			n++
			continue
		}
		return false
	}
	return false
}

func (p *parser) parseUnary() *expr {
	t := p.peek()
	if p.err != nil || t.kind == 0 {
		if p.err == nil {
			p.err = fmt.Errorf("expression expected")
		}
		return &expr{op: "unknown"}
	}
	if t.kind == 'p' {
		switch t.text {
		case "(":
			if p.castAhead() {
				p.next()
				var words []string
				for p.peek().text != ")" {
					words = append(words, p.next().text)
				}
				p.next()
				size, sign := castType(words)
				return &expr{op: "cast", size: size, sign: sign, args: []*expr{p.parseUnary()}}
			}
			p.next()
			x := p.parseExpr()
			p.expect(")")
			return p.postfix(x)
		case "-", "!", "~", "+":
			p.next()
			return &expr{op: "unary", str: t.text, args: []*expr{p.parseUnary()}}
		}
	}
	return p.postfix(p.parsePrimary())
}

// castType returns the size and signedness of a cast's type words.
func castType(words []string) (int, bool) {
	w := strings.Join(words, " ")
	switch {
	case strings.Contains(w, "*"):
		return 8, false
	case strings.Contains(w, "long"), strings.Contains(w, "64"), w == "size_t":
		return 8, !strings.Contains(w, "unsigned") && !strings.Contains(w, "u64") && w != "size_t"
	case strings.Contains(w, "short"), strings.Contains(w, "16"):
		return 2, !strings.Contains(w, "unsigned") && !strings.Contains(w, "u16")
	case strings.Contains(w, "char"), strings.Contains(w, "8"), w == "bool":
		return 1, !strings.Contains(w, "unsigned") && !strings.Contains(w, "u8") && w != "bool"
	case strings.Contains(w, "int"), strings.Contains(w, "32"), w == "gfp_t", w == "pid_t":
		return 4, !strings.Contains(w, "unsigned") && !strings.Contains(w, "u32") && w != "gfp_t"
	}
	return 0, false
}

func (p *parser) postfix(x *expr) *expr {
	for p.peek().text == "[" && p.err == nil {
		p.next()
		idx := p.parseExpr()
		p.expect("]")
		if x.op == "field" && x.index == nil {
			x.index = idx
		} else {
			x = &expr{op: "unknown"}
		}
	}
	return x
}

func (p *parser) parsePrimary() *expr {
	t := p.next()
	switch t.kind {
	case 's':
		s := t.text
		for p.peek().kind == 's' { // "a" "b" concatenates
			s += p.next().text
		}
		return &expr{op: "str", str: s, lit: []byte(s)}
	case 'n':
		v, err := parseCNumber(t.text)
		if err != nil {
			return &expr{op: "unknown"}
		}
		return &expr{op: "num", num: v}
	case 'i':
		switch t.text {
		case "REC":
			p.expect("->")
			name := p.next().text
			if fd := p.ev.Field(name); fd != nil {
				return &expr{op: "field", field: fd}
			}
			return &expr{op: "unknown", str: name}
		case "__get_str", "__get_dynamic_array", "__get_bitmask", "__get_rel_str":
			p.expect("(")
			name := p.next().text
			p.expect(")")
			if fd := p.ev.Field(name); fd != nil {
				return &expr{op: "getstr", field: fd}
			}
			return &expr{op: "unknown"}
		case "__print_symbolic", "__print_flags":
			return p.parseSymbolic(t.text)
		}
		if p.peek().text == "(" { // another helper: parse its arguments, value unknown
			p.next()
			for p.err == nil && p.peek().text != ")" && p.peek().kind != 0 {
				p.parseExpr()
				if p.peek().text == "," {
					p.next()
				}
			}
			p.expect(")")
		}
		return &expr{op: "unknown", str: t.text}
	case 'p':
		if t.text == "{" {
			p.err = fmt.Errorf("unexpected {")
		}
	}
	if p.err == nil {
		p.err = fmt.Errorf("unexpected %q", t.text)
	}
	return &expr{op: "unknown"}
}

// parseSymbolic parses __print_symbolic(x, {v, "s"}...) and
// __print_flags(x, "delim", {v, "s"}...).
func (p *parser) parseSymbolic(name string) *expr {
	p.expect("(")
	x := &expr{op: "sym", args: []*expr{p.parseExpr()}}
	if name == "__print_flags" {
		x.op = "flags"
		p.expect(",")
		if t := p.next(); t.kind == 's' {
			x.str = t.text
		}
	}
	for p.err == nil && p.peek().text == "," {
		p.next()
		p.expect("{")
		v := p.parseExpr()
		p.expect(",")
		label := p.parseExpr()
		p.expect("}")
		val, ok := constValue(v)
		if label.op == "str" {
			x.pairs = append(x.pairs, symPair{val: val, label: label.str, ok: ok})
		}
	}
	p.expect(")")
	return x
}

// constValue evaluates an expression without a record (symbol values).
func constValue(x *expr) (int64, bool) {
	v, ok := evalInt(x, nil)
	return v, ok
}

// parseCNumber reads a C integer literal (decimal, 0x, octal; U/L suffixes).
func parseCNumber(s string) (int64, error) {
	s = strings.TrimRight(s, "uUlL")
	u, err := strconv.ParseUint(s, 0, 64)
	return int64(u), err
}

// field returns the field named name, common fields included.
func (ev *Format) Field(name string) *Field {
	for i := range ev.Fields {
		if ev.Fields[i].Name == name {
			return &ev.Fields[i]
		}
	}
	for i := range ev.Common {
		if ev.Common[i].Name == name {
			return &ev.Common[i]
		}
	}
	return nil
}
