package tsdl

import "bytes"

// maxDepth bounds the nesting of compound types and declarators, so
// hostile metadata cannot exhaust the stack. Real metadata nests 3 or 4
// levels deep.
const maxDepth = 64

// parser is a recursive-descent parser of the TSDL grammar (appendix C of
// the specification), as babeltrace2 accepts it. It pulls tokens from the
// lexer on demand, with two tokens of lookahead.
type parser struct {
	lx     *lexer
	buf    [2]token // lookahead
	nbuf   int
	err    error // lexer error, reported at the next token
	tokens int
	depth  int
	// Leaf types (integer, floating_point, string with attributes)
	// repeat in real metadata: their text is parsed once.
	leaves map[string]*typeSpec
}

// parse returns the root declarations of a metadata text.
func parse(src []byte) ([]decl, error) {
	p := &parser{lx: &lexer{src: src, line: 1, intern: map[string]string{}}, leaves: map[string]*typeSpec{}}
	var decls []decl
	for p.peek().kind != tokEOF {
		d, err := p.rootDecl()
		if err != nil {
			if p.err != nil {
				return nil, p.err // the lexer's error caused it
			}
			return nil, err
		}
		decls = append(decls, d)
	}
	if p.err != nil {
		return nil, p.err
	}
	return decls, nil
}

// fill makes sure n tokens are buffered. A lexer error becomes an EOF
// token and is returned by parse (or by the parser's own error, which
// then names the unexpected end).
func (p *parser) fill(n int) {
	for p.nbuf < n {
		var t token
		if p.err == nil {
			var err error
			t, err = p.lx.next()
			p.tokens++
			if err == nil && p.tokens > maxTokens {
				err = errorf(t.line, "metadata has more than %d tokens", maxTokens)
			}
			if err != nil {
				p.err = err
				t = token{kind: tokEOF, line: p.lx.line}
			}
		} else {
			t = token{kind: tokEOF, line: p.lx.line}
		}
		p.buf[p.nbuf] = t
		p.nbuf++
	}
}

func (p *parser) peek() token {
	p.fill(1)
	return p.buf[0]
}

func (p *parser) peekAt(n int) token {
	p.fill(n + 1)
	return p.buf[n]
}

func (p *parser) advance() token {
	p.fill(1)
	t := p.buf[0]
	if t.kind != tokEOF {
		p.buf[0] = p.buf[1]
		p.nbuf--
	}
	return t
}

func (p *parser) is(punct string) bool {
	p.fill(1)
	t := &p.buf[0]
	return t.kind == tokPunct && t.text[0] == punct[0] && t.text == punct
}

func (p *parser) isWord(w string) bool {
	t := p.peek()
	return t.kind == tokIdent && t.text == w
}

func (p *parser) accept(punct string) bool {
	if p.is(punct) {
		p.advance()
		return true
	}
	return false
}

func (p *parser) expect(punct string) error {
	if p.accept(punct) {
		return nil
	}
	t := p.peek()
	return errorf(t.line, "expected '%s', found %s", punct, t)
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return errorf(p.peek().line, "declarations nested more than %d levels deep", maxDepth)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// ctfBlocks are the top-level blocks holding assignments.
var ctfBlocks = map[string]bool{"trace": true, "env": true, "clock": true, "stream": true, "event": true, "callsite": true}

// rootDecl parses one declaration of the root scope.
func (p *parser) rootDecl() (decl, error) {
	t := p.peek()
	if t.kind == tokIdent && ctfBlocks[t.text] && p.peekAt(1).kind == tokPunct && p.peekAt(1).text == "{" {
		p.advance()
		p.advance()
		entries, err := p.blockEntries()
		if err != nil {
			return decl{}, err
		}
		if err := p.expect(";"); err != nil {
			return decl{}, err
		}
		return decl{line: t.line, kind: declBlock, block: t.text, entries: entries}, nil
	}
	return p.declaration(false)
}

// blockEntries parses the assignments of a trace, env, clock, stream,
// event or callsite block up to its closing brace.
func (p *parser) blockEntries() ([]decl, error) {
	out := make([]decl, 0, 8)
	for !p.accept("}") {
		t := p.peek()
		if t.kind == tokEOF {
			return nil, errorf(t.line, "missing '}'")
		}
		if t.kind == tokIdent && (t.text == "typedef" || t.text == "typealias") {
			d, err := p.declaration(false)
			if err != nil {
				return nil, err
			}
			out = append(out, d)
			continue
		}
		lhs, err := p.path()
		if err != nil {
			return nil, err
		}
		switch {
		case p.accept("="):
			rhs, err := p.unary()
			if err != nil {
				return nil, err
			}
			out = append(out, decl{line: t.line, kind: declAssign, lhs: lhs, rhs: rhs})
		case p.accept(":="):
			spec, err := p.specifiers()
			if err != nil {
				return nil, err
			}
			if spec == nil {
				return nil, errorf(p.peek().line, "expected a type after ':='")
			}
			d := decl{line: t.line, kind: declTypeAssign, lhs: lhs, spec: spec}
			if !p.is(";") {
				ad, err := p.declarator(true)
				if err != nil {
					return nil, err
				}
				d.decls = []declarator{ad}
			}
			out = append(out, d)
		default:
			return nil, errorf(p.peek().line, "expected '=' or ':=' after %q, found %s", joinPath(lhs), p.peek())
		}
		if err := p.expect(";"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// declaration parses a typedef, a typealias, a type definition or (in a
// compound body, field is true) a field declaration, with its semicolon.
func (p *parser) declaration(field bool) (decl, error) {
	t := p.peek()
	if t.kind == tokIdent && t.text == "typealias" {
		p.advance()
		d, err := p.typealias(t.line)
		if err != nil {
			return decl{}, err
		}
		return d, p.expect(";")
	}
	isTypedef := false
	if t.kind == tokIdent && t.text == "typedef" {
		p.advance()
		isTypedef = true
	}
	spec, err := p.specifiers()
	if err != nil {
		return decl{}, err
	}
	if p.isWord("typedef") { // "struct x {...} typedef name;" is C, rare but legal
		p.advance()
		isTypedef = true
	}
	if spec == nil {
		return decl{}, errorf(t.line, "expected a declaration, found %s", t)
	}
	d := decl{line: t.line, kind: declType, spec: spec}
	switch {
	case isTypedef:
		d.kind = declTypedef
	case field:
		d.kind = declField
	}
	if !p.is(";") {
		for {
			dc, err := p.declarator(false)
			if err != nil {
				return decl{}, err
			}
			if p.accept(":") {
				if !field {
					return decl{}, errorf(dc.line, "bitfield outside a structure")
				}
				e, err := p.unary()
				if err != nil {
					return decl{}, err
				}
				dc.bitfield = &e
			}
			d.decls = append(d.decls, dc)
			if !p.accept(",") {
				break
			}
		}
		if d.kind == declType {
			if !field {
				return decl{}, errorf(t.line, "field %q declared outside a structure or variant", d.decls[0].name)
			}
		}
	} else if d.kind == declTypedef {
		return decl{}, errorf(t.line, "typedef without a name")
	}
	if err := p.expect(";"); err != nil {
		return decl{}, err
	}
	return d, nil
}

// typealias parses "spec absdecl := spec decl" after the keyword.
func (p *parser) typealias(line int) (decl, error) {
	spec, err := p.specifiers()
	if err != nil {
		return decl{}, err
	}
	if spec == nil {
		return decl{}, errorf(line, "typealias without a type")
	}
	d := decl{line: line, kind: declTypealias, spec: spec}
	if !p.is(":=") {
		ad, err := p.declarator(true)
		if err != nil {
			return decl{}, err
		}
		if ad.name != "" {
			return decl{}, errorf(ad.line, "typealias target must not be named (found %q)", ad.name)
		}
		d.decls = []declarator{ad}
	}
	if err := p.expect(":="); err != nil {
		return decl{}, err
	}
	aspec, err := p.specifiers()
	if err != nil {
		return decl{}, err
	}
	var adecl declarator
	if !p.is(";") {
		adecl, err = p.declarator(true)
		if err != nil {
			return decl{}, err
		}
		if len(adecl.dims) > 0 {
			return decl{}, errorf(adecl.line, "typealias name must not have array dimensions")
		}
	}
	if aspec == nil {
		if adecl.name == "" {
			return decl{}, errorf(line, "typealias without a name")
		}
		aspec = &specList{line: adecl.line, words: []string{adecl.name}}
		adecl.name = ""
	} else if adecl.name != "" {
		aspec.words = append(aspec.words, adecl.name)
		adecl.name = ""
	}
	d.aliasSpec, d.aliasDecl = aspec, adecl
	return d, nil
}

// basicWords are the C type keywords that combine ("unsigned long").
var basicWords = map[string]bool{
	"void": true, "char": true, "short": true, "int": true, "long": true, "float": true,
	"double": true, "signed": true, "unsigned": true, "_Bool": true, "_Complex": true, "_Imaginary": true,
}

// notTypeNames are keywords that never name a type.
var notTypeNames = map[string]bool{
	"typedef": true, "typealias": true, "align": true, "const": true, "trace": true, "env": true,
	"clock": true, "stream": true, "event": true, "callsite": true,
}

// specifiers parses declaration specifiers; nil if there are none. An
// identifier is a type name only when no type was specified before it, as
// in "uint32_t magic": the second identifier is the declarator.
func (p *parser) specifiers() (*specList, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	s := &specList{line: p.peek().line}
	seen := false
	for {
		t := p.peek()
		if t.kind != tokIdent {
			break
		}
		switch {
		case t.text == "const":
			p.advance()
			continue
		case basicWords[t.text]:
			p.advance()
			s.words = append(s.words, t.text)
			seen = true
			continue
		case t.text == "struct" || t.text == "variant" || t.text == "enum" ||
			t.text == "integer" || t.text == "floating_point" || t.text == "string":
			if s.typ != nil {
				return nil, errorf(t.line, "two types in one declaration (%s after %s)", t.text, s.typ.kind)
			}
			p.advance()
			ts, err := p.typeSpec(t)
			if err != nil {
				return nil, err
			}
			s.typ = ts
			seen = true
			continue
		case !seen && !notTypeNames[t.text]:
			p.advance()
			s.words = append(s.words, t.text)
			seen = true
			continue
		}
		break
	}
	if !seen {
		return nil, nil
	}
	if s.typ != nil && len(s.words) > 0 {
		return nil, errorf(s.line, "%s combined with %q", s.typ.kind, joinWords(s.words))
	}
	return s, nil
}

// typeSpec parses what follows struct, variant, enum, integer,
// floating_point or string.
func (p *parser) typeSpec(kw token) (*typeSpec, error) {
	ts := &typeSpec{line: kw.line, kind: kw.text}
	switch kw.text {
	case "integer", "floating_point":
		if cached := p.cachedLeaf(kw.text); cached != nil {
			return cached, nil
		}
		if err := p.expect("{"); err != nil {
			return nil, err
		}
		attrs, err := p.blockEntries()
		if err != nil {
			return nil, err
		}
		ts.attrs = attrs
	case "string":
		if p.isAt(0, "{") {
			if cached := p.cachedLeaf(kw.text); cached != nil {
				return cached, nil
			}
		}
		if p.accept("{") {
			attrs, err := p.blockEntries()
			if err != nil {
				return nil, err
			}
			ts.attrs = attrs
		}
	case "struct":
		if p.peek().kind == tokIdent && !p.isWord("align") {
			ts.name = p.advance().text
		}
		if err := p.optBody(ts); err != nil {
			return nil, err
		}
		if p.isWord("align") {
			p.advance()
			e, err := p.enclosed("(", ")")
			if err != nil {
				return nil, err
			}
			if e == nil {
				return nil, errorf(kw.line, "expected '(' after align")
			}
			ts.align = e
		}
	case "variant":
		if p.peek().kind == tokIdent {
			ts.name = p.advance().text
		}
		e, err := p.enclosed("<", ">")
		if err != nil {
			return nil, err
		}
		ts.tag = e
		if err := p.optBody(ts); err != nil {
			return nil, err
		}
	case "enum":
		if p.peek().kind == tokIdent {
			ts.name = p.advance().text
		}
		if p.accept(":") {
			base, err := p.specifiers()
			if err != nil {
				return nil, err
			}
			if base == nil {
				return nil, errorf(kw.line, "enumeration without a container type after ':'")
			}
			ts.base = base
		}
		if p.accept("{") {
			ts.hasBody = true
			if err := p.enumerators(ts); err != nil {
				return nil, err
			}
		}
		if ts.name == "" && !ts.hasBody {
			return nil, errorf(kw.line, "enumeration without a name or a body")
		}
	}
	return ts, nil
}

// isAt reports whether the n-th lookahead token is the punctuator.
func (p *parser) isAt(n int, punct string) bool {
	t := p.peekAt(n)
	return t.kind == tokPunct && t.text == punct
}

// cachedLeaf handles "{ attributes }" after integer, floating_point or
// string by its raw text: a text seen before yields the same (immutable)
// syntax node without lexing it again. It applies only when the block
// holds no comment, string or nested brace, and nothing is buffered
// beyond the '{'.
func (p *parser) cachedLeaf(kind string) *typeSpec {
	p.fill(1)
	if p.nbuf != 1 || !p.isAt(0, "{") {
		return nil
	}
	src := p.lx.src
	start := p.lx.pos // just after '{'
	end := start
	for ; end < len(src); end++ {
		c := src[end]
		if c == '}' {
			break
		}
		if c == '{' || c == '"' || c == '/' || c == '\'' || c == '\n' && end-start > 4096 {
			return nil
		}
	}
	if end >= len(src) {
		return nil
	}
	key := kind + string(src[start:end])
	ts, ok := p.leaves[key]
	if !ok {
		// Parse it normally once, then remember it.
		line := p.buf[0].line
		p.advance() // '{'
		attrs, err := p.blockEntries()
		if err != nil || p.lx.pos != end+1 || p.nbuf != 0 {
			// Unusual layout: keep what was parsed, do not cache.
			if err != nil {
				p.err = err
			}
			return &typeSpec{line: line, kind: kind, attrs: attrs}
		}
		ts = &typeSpec{line: line, kind: kind, attrs: attrs}
		p.leaves[key] = ts
		return ts
	}
	// Skip the block: count its lines, consume the '{' and move past '}'.
	p.lx.line += bytes.Count(src[start:end], []byte("\n"))
	p.nbuf = 0
	p.lx.pos = end + 1
	return ts
}

// optBody parses the { body } of a struct or variant, if there is one;
// a compound must have a name or a body.
func (p *parser) optBody(ts *typeSpec) error {
	if p.accept("{") {
		body, err := p.body()
		if err != nil {
			return err
		}
		ts.hasBody, ts.body = true, body
	}
	if ts.name == "" && !ts.hasBody {
		return errorf(ts.line, "%s without a name or a body", ts.kind)
	}
	return nil
}

// enclosed parses "open unary-expression close", or returns nil when the
// next token is not open.
func (p *parser) enclosed(open, close string) (*expr, error) {
	if !p.accept(open) {
		return nil, nil
	}
	e, err := p.unary()
	if err != nil {
		return nil, err
	}
	return &e, p.expect(close)
}

// body parses the declarations of a struct or variant up to '}'.
func (p *parser) body() ([]decl, error) {
	out := make([]decl, 0, 8)
	for !p.accept("}") {
		if p.peek().kind == tokEOF {
			return nil, errorf(p.peek().line, "missing '}'")
		}
		d, err := p.declaration(true)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// enumerators parses "label [= value [... value]], ..." up to '}'.
func (p *parser) enumerators(ts *typeSpec) error {
	for !p.accept("}") {
		t := p.advance()
		if t.kind != tokIdent && t.kind != tokString {
			return errorf(t.line, "expected an enumeration label, found %s", t)
		}
		en := enumerator{line: t.line, label: t.text}
		if p.accept("=") {
			lo, err := p.unary()
			if err != nil {
				return err
			}
			en.lo = &lo
			if p.accept("...") {
				hi, err := p.unary()
				if err != nil {
					return err
				}
				en.hi = &hi
			}
		}
		ts.values = append(ts.values, en)
		if !p.accept(",") {
			if err := p.expect("}"); err != nil {
				return err
			}
			break
		}
	}
	return nil
}

// declarator parses "[*...] name [dims]" (name optional when abstract).
func (p *parser) declarator(abstract bool) (declarator, error) {
	if err := p.enter(); err != nil {
		return declarator{}, err
	}
	defer p.leave()
	d := declarator{line: p.peek().line}
	for p.accept("*") {
		d.pointers++
		for p.isWord("const") {
			p.advance()
		}
	}
	switch t := p.peek(); {
	case t.kind == tokIdent && !notTypeNames[t.text]:
		d.name = p.advance().text
	case t.kind == tokPunct && t.text == "(":
		p.advance()
		inner, err := p.declarator(abstract)
		if err != nil {
			return declarator{}, err
		}
		if err := p.expect(")"); err != nil {
			return declarator{}, err
		}
		d.name = inner.name
		d.pointers += inner.pointers
		d.dims = append(d.dims, inner.dims...)
	case !abstract:
		return declarator{}, errorf(t.line, "expected a name, found %s", t)
	}
	for p.accept("[") {
		if abstract && p.accept("]") {
			return declarator{}, errorf(d.line, "array without a length")
		}
		e, err := p.unary()
		if err != nil {
			return declarator{}, err
		}
		if err := p.expect("]"); err != nil {
			return declarator{}, err
		}
		d.dims = append(d.dims, e)
	}
	return d, nil
}

// path parses "a.b.c" (or "a->b") where parts may be keywords.
func (p *parser) path() ([]string, error) {
	t := p.advance()
	if t.kind != tokIdent {
		return nil, errorf(t.line, "expected a name, found %s", t)
	}
	out := []string{t.text}
	for p.is(".") || p.is("->") {
		p.advance()
		n := p.advance()
		if n.kind != tokIdent {
			return nil, errorf(n.line, "expected a name after '.', found %s", n)
		}
		out = append(out, n.text)
		if len(out) > maxDepth {
			return nil, errorf(n.line, "path too long")
		}
	}
	return out, nil
}

// unary parses a unary expression: [+|-] number, a string, a character
// constant, a path, or a parenthesized unary expression.
func (p *parser) unary() (expr, error) {
	if err := p.enter(); err != nil {
		return expr{}, err
	}
	defer p.leave()
	t := p.peek()
	neg := false
	if t.kind == tokPunct && (t.text == "-" || t.text == "+") {
		p.advance()
		neg = t.text == "-"
		n := p.peek()
		if n.kind != tokInt && n.kind != tokChar {
			return expr{}, errorf(n.line, "expected a number after '%s', found %s", t.text, n)
		}
	}
	t = p.peek()
	switch t.kind {
	case tokInt, tokChar:
		p.advance()
		return expr{line: t.line, kind: exprNum, num: t.num, neg: neg && t.num != 0}, nil
	case tokString:
		p.advance()
		return expr{line: t.line, kind: exprString, str: t.text}, nil
	case tokIdent:
		path, err := p.path()
		if err != nil {
			return expr{}, err
		}
		return expr{line: t.line, kind: exprPath, path: path}, nil
	case tokPunct:
		if t.text == "(" {
			p.advance()
			e, err := p.unary()
			if err != nil {
				return expr{}, err
			}
			return e, p.expect(")")
		}
	}
	return expr{}, errorf(t.line, "expected a value, found %s", t)
}

func joinPath(p []string) string {
	s := ""
	for i, w := range p {
		if i > 0 {
			s += "."
		}
		s += w
	}
	return s
}

func joinWords(w []string) string {
	s := ""
	for i, x := range w {
		if i > 0 {
			s += " "
		}
		s += x
	}
	return s
}
