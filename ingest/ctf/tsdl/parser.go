package tsdl

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
	// repeat in real metadata: their text is parsed once. By keyword,
	// then text between the braces.
	leaves map[string]map[string]*typeSpec
	// scratch holds the declarations of the scopes being parsed, the
	// innermost last: each scope appends its own and copies them out at
	// their final count when it closes (see [parser.collect]), rather
	// than growing a slice of its own per block. A kernel trace's
	// metadata has thousands of small blocks of 256-byte decls.
	scratch []decl
}

// collect returns the declarations appended to the scratch stack since
// from, in a slice of their own, and pops them; nil if err is not nil.
func (p *parser) collect(from int, err error) ([]decl, error) {
	var out []decl
	if err == nil {
		out = make([]decl, len(p.scratch)-from)
		copy(out, p.scratch[from:])
	}
	clear(p.scratch[from:]) // let what they point to go
	p.scratch = p.scratch[:from]
	return out, err
}

// parse returns the root declarations of a metadata text: in two halves
// on two goroutines when it is large (see [parseSplit]), else whole.
func parse(src []byte) ([]decl, error) {
	if decls, ok := parseSplit(src); ok {
		return decls, nil
	}
	decls, _, err := parseRoot(src, 1)
	return decls, err
}

// parseRoot parses the root declarations of src, whose first line is
// line, with a parser of its own, which it returns.
func parseRoot(src []byte, line int) ([]decl, *parser, error) {
	p := &parser{lx: &lexer{src: src, line: line, intern: map[string]string{}}, leaves: map[string]map[string]*typeSpec{}}
	decls, err := p.root()
	return decls, p, err
}

// root parses declarations up to the end of the text.
func (p *parser) root() ([]decl, error) {
	for p.peek().kind != tokEOF {
		d, err := p.rootDecl()
		if err != nil {
			if p.err != nil {
				return nil, p.err // the lexer's error caused it
			}
			return nil, err
		}
		p.scratch = append(p.scratch, d)
	}
	if p.err != nil {
		return nil, p.err
	}
	return p.collect(0, nil)
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
	from := len(p.scratch)
	return p.collect(from, p.appendBlockEntries())
}

// appendBlockEntries appends the entries of blockEntries to p.scratch.
func (p *parser) appendBlockEntries() error {
	for !p.accept("}") {
		t := p.peek()
		if t.kind == tokEOF {
			return errorf(t.line, "missing '}'")
		}
		if t.kind == tokIdent && (t.text == "typedef" || t.text == "typealias") {
			d, err := p.declaration(false)
			if err != nil {
				return err
			}
			p.scratch = append(p.scratch, d)
			continue
		}
		lhs, err := p.path()
		if err != nil {
			return err
		}
		switch {
		case p.accept("="):
			rhs, err := p.unary()
			if err != nil {
				return err
			}
			p.scratch = append(p.scratch, decl{line: t.line, kind: declAssign, lhs: lhs, rhs: rhs})
		case p.accept(":="):
			spec, err := p.specifiers()
			if err != nil {
				return err
			}
			if spec == nil {
				return errorf(p.peek().line, "expected a type after ':='")
			}
			d := decl{line: t.line, kind: declTypeAssign, lhs: lhs, spec: spec}
			if !p.is(";") {
				ad, err := p.declarator(true)
				if err != nil {
					return err
				}
				d.decls = []declarator{ad}
			}
			p.scratch = append(p.scratch, d)
		default:
			return errorf(p.peek().line, "expected '=' or ':=' after %q, found %s", joinPath(lhs), p.peek())
		}
		if err := p.expect(";"); err != nil {
			return err
		}
	}
	return nil
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
	d.aliasSpec, d.aliasPointers = aspec, adecl.pointers
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
