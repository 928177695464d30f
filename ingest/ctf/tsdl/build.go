package tsdl

import (
	"strings"
)

// Parse reads a plain-text metadata description (use [Decode] first for a
// metadata file, which may be packetized).
func Parse(text []byte) (*Trace, error) {
	decls, err := parse(text)
	if err != nil {
		return nil, err
	}
	b := &builder{tr: &Trace{}, leaves: map[*typeSpec]*Type{}}
	if err := b.build(decls); err != nil {
		return nil, err
	}
	return b.tr, nil
}

// builder turns the syntax tree into a [Trace].
type builder struct {
	tr        *Trace
	haveTrace bool
	haveOrder bool
	leaves    map[*typeSpec]*Type // integer, floating_point, string types built
	pending   []*EventClass       // events declared before their stream class
}

// scope is a lexical scope of type names.
type scope struct {
	parent   *scope
	aliases  map[string]*Type
	structs  map[string]*Type
	variants map[string]*Type
	enums    map[string]*Type
}

func newScope(parent *scope) *scope {
	return &scope{parent: parent}
}

func (s *scope) table(kind string) *map[string]*Type {
	switch kind {
	case "struct":
		return &s.structs
	case "variant":
		return &s.variants
	case "enum":
		return &s.enums
	}
	return &s.aliases
}

func (s *scope) lookup(kind, name string) *Type {
	for sc := s; sc != nil; sc = sc.parent {
		if t := (*sc.table(kind))[name]; t != nil {
			return t
		}
	}
	return nil
}

func (s *scope) define(kind, name string, t *Type, line int) error {
	m := s.table(kind)
	if *m == nil {
		*m = map[string]*Type{}
	}
	if _, dup := (*m)[name]; dup {
		what := "type"
		if kind != "" {
			what = kind
		}
		return errorf(line, "%s %q is already declared in this scope", what, name)
	}
	(*m)[name] = t
	return nil
}

func (b *builder) build(decls []decl) error {
	// The trace's byte order applies to "native" types declared before the
	// trace block too, as in LTTng's metadata: find it first.
	for i := range decls {
		d := &decls[i]
		if d.kind != declBlock || d.block != "trace" {
			continue
		}
		for _, e := range d.entries {
			if e.kind == declAssign && joinPath(e.lhs) == "byte_order" {
				be, err := byteOrder(e.rhs, false)
				if err != nil {
					return err
				}
				b.tr.BigEndian, b.haveOrder = be, true
			}
		}
	}
	if !b.haveOrder {
		return errorf(0, "no trace block with a byte_order")
	}
	root := newScope(nil)
	for i := range decls {
		if err := b.rootDecl(root, &decls[i]); err != nil {
			return err
		}
	}
	if !b.haveTrace {
		return errorf(0, "no trace block")
	}
	return b.attachPending()
}

func (b *builder) rootDecl(sc *scope, d *decl) error {
	switch d.kind {
	case declBlock:
		switch d.block {
		case "trace":
			return b.traceBlock(sc, d)
		case "env":
			return b.envBlock(d)
		case "clock":
			return b.clockBlock(d)
		case "stream":
			return b.streamBlock(sc, d)
		case "event":
			return b.eventBlock(sc, d)
		case "callsite":
			return nil // debugging information babeltrace2 does not print
		}
		return errorf(d.line, "unknown block %q", d.block)
	case declTypedef, declTypealias, declType:
		return b.typeDecl(sc, d)
	}
	return errorf(d.line, "unexpected declaration")
}

// typeDecl registers a typedef, a typealias or a named struct, variant or
// enum definition in sc.
func (b *builder) typeDecl(sc *scope, d *decl) error {
	switch d.kind {
	case declTypedef:
		for _, dc := range d.decls {
			t, err := b.declaredType(sc, d.spec, dc)
			if err != nil {
				return err
			}
			if err := noRelativeLength(t, dc.name); err != nil {
				return err
			}
			if err := sc.define("", dc.name, t, dc.line); err != nil {
				return err
			}
		}
		return nil
	case declTypealias:
		var dc declarator
		if len(d.decls) > 0 {
			dc = d.decls[0]
		}
		t, err := b.declaredType(sc, d.spec, dc)
		if err != nil {
			return err
		}
		name := specName(d.aliasSpec) + strings.Repeat(" *", d.aliasPointers)
		if err := noRelativeLength(t, name); err != nil {
			return err
		}
		return sc.define("", name, t, d.line)
	case declType:
		_, err := b.specType(sc, d.spec)
		return err
	}
	return errorf(d.line, "unexpected declaration")
}

// noRelativeLength refuses a type declaration whose array size is a
// relative field name: a declaration has no fields before it to take the
// length from (typedef uint32_t A[x];), and the size is not a constant.
// Absolute paths (stream.event.context.len) stay resolvable.
func noRelativeLength(t *Type, name string) error {
	for ; t != nil && (t.Kind == KindArray || t.Kind == KindSequence); t = t.Elem {
		if t.Kind == KindSequence && !isScopePath(t.LengthPath) {
			return errorf(t.Line, "type %q: array size %q is not an integer constant (a sequence length needs a field, which a type declaration does not have)", name, t.LengthPath)
		}
	}
	return nil
}

// isScopePath reports whether a field path starts with a dynamic scope.
func isScopePath(path string) bool {
	for _, p := range []string{"trace.", "env.", "stream.", "event."} {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

// isKeyword reports whether s is a reserved keyword that names no field.
func isKeyword(s string) bool {
	switch s {
	case "struct", "variant", "enum", "integer", "floating_point", "string", "typedef", "typealias":
		return true
	}
	return basicWords[s] || notTypeNames[s]
}

// specName is the name a specifier list is known by: "unsigned long",
// "uint32_t", "struct foo".
func specName(s *specList) string {
	if s.typ != nil {
		return s.typ.kind + " " + s.typ.name
	}
	return joinWords(s.words)
}

// declaredType resolves the type of one declarator: the specifiers' type
// with the declarator's pointers and array dimensions.
func (b *builder) declaredType(sc *scope, s *specList, dc declarator) (*Type, error) {
	var t *Type
	if dc.pointers > 0 {
		if s.typ != nil && s.typ.hasBody {
			// Define what the body defines, even if the pointer alias
			// is what the field uses.
			if _, err := b.specType(sc, s); err != nil {
				return nil, err
			}
		}
		name := specName(s) + strings.Repeat(" *", dc.pointers)
		if t = sc.lookup("", name); t == nil {
			return nil, errorf(dc.line, "unknown type %q (pointers need a typealias)", name)
		}
	} else {
		var err error
		if t, err = b.specType(sc, s); err != nil {
			return nil, err
		}
	}
	if dc.bitfield != nil {
		return nil, errorf(dc.line, "GNU/C bitfield %q is not supported (declare an integer of that size instead)", dc.name)
	}
	// x[2][3] is an array of 2 arrays of 3: wrap from the last dimension.
	for i := len(dc.dims) - 1; i >= 0; i-- {
		e := dc.dims[i]
		switch e.kind {
		case exprNum:
			if e.neg {
				return nil, errorf(e.line, "negative array length")
			}
			t = &Type{Kind: KindArray, Line: e.line, Elem: t, Len: e.num, Align: t.Align}
		case exprPath:
			if len(e.path) == 1 && (isKeyword(e.path[0]) || sc.lookup("", e.path[0]) != nil) {
				return nil, errorf(e.line, "array length %q is a keyword or a type name, not an integer constant or a field", e.path[0])
			}
			t = &Type{Kind: KindSequence, Line: e.line, Elem: t, LengthPath: e.pathString(), Align: t.Align}
		default:
			return nil, errorf(e.line, "array length must be a number or a field path")
		}
	}
	return t, nil
}

// specType resolves a specifier list to a type.
func (b *builder) specType(sc *scope, s *specList) (*Type, error) {
	if s.typ == nil {
		name := joinWords(s.words)
		if t := sc.lookup("", name); t != nil {
			return t, nil
		}
		return nil, errorf(s.line, "unknown type %q", name)
	}
	ts := s.typ
	switch ts.kind {
	case "integer", "floating_point", "string":
		if t, ok := b.leaves[ts]; ok {
			return t, nil
		}
		var t *Type
		var err error
		switch ts.kind {
		case "integer":
			t, err = b.integer(ts)
		case "floating_point":
			t, err = b.float(ts)
		default:
			t, err = b.stringType(ts)
		}
		if err == nil {
			b.leaves[ts] = t
		}
		return t, err
	case "struct":
		return b.structType(sc, ts)
	case "variant":
		return b.variantType(sc, ts)
	case "enum":
		return b.enumType(sc, ts)
	}
	return nil, errorf(ts.line, "unknown type kind %q", ts.kind)
}
