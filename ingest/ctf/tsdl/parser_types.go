package tsdl

import "bytes"

// Type specifiers: integer, floating_point, string, struct, variant and
// enum, with their bodies and enumerators.

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
	seen := p.leaves[kind]
	ts, ok := seen[string(src[start:end])] // no copy for a lookup
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
		if seen == nil {
			seen = map[string]*typeSpec{}
			p.leaves[kind] = seen
		}
		seen[string(src[start:end])] = ts
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
	from := len(p.scratch)
	return p.collect(from, p.appendBody())
}

// appendBody appends the declarations of body to p.scratch.
func (p *parser) appendBody() error {
	for !p.accept("}") {
		if p.peek().kind == tokEOF {
			return errorf(p.peek().line, "missing '}'")
		}
		d, err := p.declaration(true)
		if err != nil {
			return err
		}
		p.scratch = append(p.scratch, d)
	}
	return nil
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
