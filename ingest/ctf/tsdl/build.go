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
		name := specName(d.aliasSpec) + strings.Repeat(" *", d.aliasDecl.pointers)
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

// attrs checks the attributes of an integer, floating_point or string and
// returns them by name; duplicates are refused.
func attrs(ts *typeSpec) (map[string]*decl, error) {
	m := map[string]*decl{}
	for i := range ts.attrs {
		a := &ts.attrs[i]
		if a.kind != declAssign {
			return nil, errorf(a.line, "unexpected declaration in %s", ts.kind)
		}
		name := joinPath(a.lhs)
		if _, dup := m[name]; dup {
			return nil, errorf(a.line, "duplicate attribute %q in %s", name, ts.kind)
		}
		m[name] = a
	}
	return m, nil
}

func (b *builder) integer(ts *typeSpec) (*Type, error) {
	m, err := attrs(ts)
	if err != nil {
		return nil, err
	}
	t := &Type{Kind: KindInt, Line: ts.line, BigEndian: b.tr.BigEndian, Base: 10}
	sz, ok := m["size"]
	if !ok {
		return nil, errorf(ts.line, "integer without a size")
	}
	size, err := unsigned(sz.rhs, "integer size")
	if err != nil {
		return nil, err
	}
	if size < 1 || size > 64 {
		return nil, errorf(sz.line, "integer size %d out of range (1 to 64 bits)", size)
	}
	t.Size = int(size)
	t.Align = 1
	if t.Size%8 == 0 {
		t.Align = 8
	}
	if a, ok := m["align"]; ok {
		if t.Align, err = alignment(a.rhs); err != nil {
			return nil, err
		}
	}
	if a, ok := m["signed"]; ok {
		if t.Signed, err = boolean(a.rhs, "signed"); err != nil {
			return nil, err
		}
	}
	if a, ok := m["byte_order"]; ok {
		if t.BigEndian, err = b.typeByteOrder(a.rhs); err != nil {
			return nil, err
		}
	}
	if a, ok := m["base"]; ok {
		if t.Base, err = base(a.rhs); err != nil {
			return nil, err
		}
	}
	if a, ok := m["encoding"]; ok {
		if t.Encoding, err = encoding(a.rhs); err != nil {
			return nil, err
		}
	}
	if a, ok := m["map"]; ok {
		e := a.rhs
		if e.kind != exprPath || len(e.path) != 3 || e.path[0] != "clock" || e.path[2] != "value" {
			return nil, errorf(a.line, "map must be clock.NAME.value")
		}
		for _, c := range b.tr.Clocks {
			if c.Name == e.path[1] {
				t.Clock = c
			}
		}
		if t.Clock == nil {
			return nil, errorf(a.line, "map refers to undeclared clock %q", e.path[1])
		}
	}
	return t, nil
}

func (b *builder) float(ts *typeSpec) (*Type, error) {
	m, err := attrs(ts)
	if err != nil {
		return nil, err
	}
	t := &Type{Kind: KindFloat, Line: ts.line, BigEndian: b.tr.BigEndian, Align: 8}
	var exp, mant uint64
	if a, ok := m["exp_dig"]; ok {
		if exp, err = unsigned(a.rhs, "exp_dig"); err != nil {
			return nil, err
		}
	} else {
		return nil, errorf(ts.line, "floating_point without exp_dig")
	}
	if a, ok := m["mant_dig"]; ok {
		if mant, err = unsigned(a.rhs, "mant_dig"); err != nil {
			return nil, err
		}
	} else {
		return nil, errorf(ts.line, "floating_point without mant_dig")
	}
	switch {
	case exp == 8 && mant == 24:
		t.Size = 32
	case exp == 11 && mant == 53:
		t.Size = 64
	default:
		return nil, errorf(ts.line, "floating_point with exp_dig = %d and mant_dig = %d is not supported (only 8/24 and 11/53)", exp, mant)
	}
	t.ExpDig, t.MantDig = int(exp), int(mant)
	if a, ok := m["align"]; ok {
		if t.Align, err = alignment(a.rhs); err != nil {
			return nil, err
		}
	}
	if a, ok := m["byte_order"]; ok {
		if t.BigEndian, err = b.typeByteOrder(a.rhs); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (b *builder) stringType(ts *typeSpec) (*Type, error) {
	m, err := attrs(ts)
	if err != nil {
		return nil, err
	}
	t := &Type{Kind: KindString, Line: ts.line, Align: 8, Encoding: EncodingUTF8}
	if a, ok := m["encoding"]; ok {
		if t.Encoding, err = encoding(a.rhs); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (b *builder) structType(sc *scope, ts *typeSpec) (*Type, error) {
	var t *Type
	if ts.hasBody {
		t = &Type{Kind: KindStruct, Line: ts.line, Align: 1}
		inner := newScope(sc)
		fields, err := b.members(inner, ts.body, "structure")
		if err != nil {
			return nil, err
		}
		t.Fields = fields
		for _, f := range fields {
			t.Align = max(t.Align, f.Type.Align)
		}
	} else if t = sc.lookup("struct", ts.name); t == nil {
		return nil, errorf(ts.line, "unknown struct %q", ts.name)
	}
	if ts.align != nil {
		a, err := alignment(*ts.align)
		if err != nil {
			return nil, err
		}
		if a > t.Align {
			c := *t
			c.Align = a
			t = &c
		}
	}
	if ts.hasBody && ts.name != "" {
		// struct x { ... } align(n): the alignment is part of x.
		if err := sc.define("struct", ts.name, t, ts.line); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (b *builder) variantType(sc *scope, ts *typeSpec) (*Type, error) {
	var t *Type
	if ts.hasBody {
		t = &Type{Kind: KindVariant, Line: ts.line, Align: 1}
		inner := newScope(sc)
		fields, err := b.members(inner, ts.body, "variant")
		if err != nil {
			return nil, err
		}
		if len(fields) == 0 {
			return nil, errorf(ts.line, "variant without options")
		}
		t.Fields = fields
		if ts.name != "" {
			// Named variants are registered untagged: the tag is given
			// where they are used.
			if err := sc.define("variant", ts.name, t, ts.line); err != nil {
				return nil, err
			}
		}
	} else if t = sc.lookup("variant", ts.name); t == nil {
		return nil, errorf(ts.line, "unknown variant %q", ts.name)
	}
	if ts.tag != nil {
		if ts.tag.kind != exprPath {
			return nil, errorf(ts.tag.line, "variant tag must be a field path")
		}
		if t.Tag != "" && ts.name != "" && !ts.hasBody {
			return nil, errorf(ts.tag.line, "variant %q already has a tag", ts.name)
		}
		c := *t
		c.Tag = ts.tag.pathString()
		c.Line = ts.tag.line
		t = &c
	}
	return t, nil
}

// members builds the fields of a struct or variant body, registering its
// local type declarations in sc.
func (b *builder) members(sc *scope, body []decl, what string) ([]Field, error) {
	var fields []Field
	seen := map[string]bool{}
	for i := range body {
		d := &body[i]
		if d.kind != declField {
			if err := b.typeDecl(sc, d); err != nil {
				return nil, err
			}
			continue
		}
		for _, dc := range d.decls {
			t, err := b.declaredType(sc, d.spec, dc)
			if err != nil {
				return nil, err
			}
			if seen[dc.name] {
				return nil, errorf(dc.line, "duplicate field %q in %s", dc.name, what)
			}
			seen[dc.name] = true
			fields = append(fields, Field{Name: dc.name, Type: t})
		}
	}
	return fields, nil
}

func (b *builder) enumType(sc *scope, ts *typeSpec) (*Type, error) {
	if !ts.hasBody {
		t := sc.lookup("enum", ts.name)
		if t == nil {
			return nil, errorf(ts.line, "unknown enum %q", ts.name)
		}
		return t, nil
	}
	var cont *Type
	if ts.base != nil {
		var err error
		if cont, err = b.specType(sc, ts.base); err != nil {
			return nil, err
		}
	} else if cont = sc.lookup("", "int"); cont == nil {
		return nil, errorf(ts.line, "enumeration without a container type and no \"int\" type declared")
	}
	if cont.Kind != KindInt {
		return nil, errorf(ts.line, "enumeration container must be an integer, not a %s", cont.Kind)
	}
	t := *cont
	t.Kind = KindEnum
	t.Line = ts.line
	t.Mappings = nil
	if len(ts.values) == 0 {
		return nil, errorf(ts.line, "enumeration without labels")
	}
	var next uint64   // next implicit value (int64 bits when signed)
	nextPast := false // the previous value was the container's maximum
	byLabel := map[string]int{}
	for _, en := range ts.values {
		var lo, hi uint64
		if en.lo == nil {
			if nextPast {
				return nil, errorf(ts.line, "enumeration label %q: implicit value past the %d-bit container's maximum", en.label, t.Size)
			}
			lo, hi = next, next
		} else {
			var err error
			if lo, err = enumValue(*en.lo, t.Signed); err != nil {
				return nil, err
			}
			hi = lo
			if en.hi != nil {
				if hi, err = enumValue(*en.hi, t.Signed); err != nil {
					return nil, err
				}
			}
		}
		if (t.Signed && int64(lo) > int64(hi)) || (!t.Signed && lo > hi) {
			lo, hi = hi, lo // babeltrace2 accepts reversed ranges
		}
		if !fits(lo, t.Size, t.Signed) || !fits(hi, t.Size, t.Signed) {
			return nil, errorf(ts.line, "enumeration label %q: value out of the range of its %d-bit container", en.label, t.Size)
		}
		next = hi + 1
		nextPast = !fits(next, t.Size, t.Signed) || (t.Signed && int64(next) < int64(hi)) || (!t.Signed && next == 0)
		r := Range{Lo: lo, Hi: hi}
		if i, ok := byLabel[en.label]; ok {
			t.Mappings[i].Ranges = append(t.Mappings[i].Ranges, r)
			continue
		}
		byLabel[en.label] = len(t.Mappings)
		t.Mappings = append(t.Mappings, Mapping{Label: en.label, Ranges: []Range{r}})
	}
	if ts.name != "" {
		if err := sc.define("enum", ts.name, &t, ts.line); err != nil {
			return nil, err
		}
	}
	return &t, nil
}

// fits reports whether v (int64 bits when signed) is representable in an
// integer of the given size in bits.
func fits(v uint64, size int, signed bool) bool {
	if size >= 64 {
		return true
	}
	if signed {
		lim := int64(1) << (size - 1)
		return int64(v) >= -lim && int64(v) < lim
	}
	return v < uint64(1)<<size
}

func enumValue(e expr, signed bool) (uint64, error) {
	if e.kind != exprNum {
		return 0, errorf(e.line, "enumeration value must be an integer")
	}
	if e.neg {
		if !signed {
			return 0, errorf(e.line, "negative value in an unsigned enumeration")
		}
		if e.num > 1<<63 {
			return 0, errorf(e.line, "enumeration value out of range")
		}
		return -e.num, nil
	}
	if signed && e.num > 1<<63-1 {
		return 0, errorf(e.line, "enumeration value out of range")
	}
	return e.num, nil
}

func (b *builder) traceBlock(parent *scope, d *decl) error {
	if b.haveTrace {
		return errorf(d.line, "duplicate trace block")
	}
	b.haveTrace = true
	sc := newScope(parent)
	tr := b.tr
	seen := map[string]bool{}
	err := b.entries(sc, d, func(name string, e *decl) error {
		seen[name] = true
		var err error
		switch name {
		case "major", "minor":
			var v uint64
			if v, err = unsigned(e.rhs, name); err == nil {
				if name == "major" {
					tr.Major = int(min(v, 1<<20))
				} else {
					tr.Minor = int(min(v, 1<<20))
				}
			}
		case "uuid":
			tr.UUID, err = uuid(e.rhs)
			tr.HasUUID = err == nil
		case "packet.header":
			tr.PacketHeader, err = b.scopeType(sc, e, "trace.packet.header")
		}
		return err // byte_order was read by the first pass
	})
	if err != nil {
		return err
	}
	if !seen["major"] || !seen["minor"] {
		return errorf(d.line, "trace block without major and minor")
	}
	if tr.Major != 1 || tr.Minor != 8 {
		return errorf(d.line, "unsupported CTF version %d.%d (want 1.8)", tr.Major, tr.Minor)
	}
	return nil
}

// scopeType resolves "name := type" in a block; the type must be a
// structure.
func (b *builder) scopeType(sc *scope, e *decl, what string) (*Type, error) {
	if e.kind != declTypeAssign {
		return nil, errorf(e.line, "%s must be assigned a type with ':='", what)
	}
	var dc declarator
	if len(e.decls) > 0 {
		dc = e.decls[0]
	}
	t, err := b.declaredType(sc, e.spec, dc)
	if err != nil {
		return nil, err
	}
	if t.Kind != KindStruct {
		return nil, errorf(e.line, "%s must be a structure, not a %s", what, t.Kind)
	}
	return t, nil
}

func (b *builder) envBlock(d *decl) error {
	for i := range d.entries {
		e := &d.entries[i]
		if e.kind != declAssign {
			return errorf(e.line, "env entries must be assignments")
		}
		ent := EnvEntry{Name: joinPath(e.lhs)}
		switch e.rhs.kind {
		case exprString:
			ent.IsStr, ent.Str = true, e.rhs.str
		case exprNum:
			v, err := signedValue(e.rhs)
			if err != nil {
				return err
			}
			ent.Int = v
		default:
			return errorf(e.line, "env %q must be a string or an integer", ent.Name)
		}
		replaced := false
		for j := range b.tr.Env {
			if b.tr.Env[j].Name == ent.Name {
				b.tr.Env[j], replaced = ent, true
			}
		}
		if !replaced {
			b.tr.Env = append(b.tr.Env, ent)
		}
	}
	return nil
}

func (b *builder) clockBlock(d *decl) error {
	c := &Clock{Freq: 1_000_000_000, Line: d.line}
	err := b.entries(nil, d, func(name string, e *decl) error {
		if e.kind != declAssign {
			return errorf(e.line, "clock entries must be assignments")
		}
		var err error
		switch name {
		case "name":
			c.Name, err = nameValue(e, "clock name")
		case "uuid":
			c.UUID, err = uuid(e.rhs)
			c.HasUUID = err == nil
		case "description":
			if e.rhs.kind != exprString {
				err = errorf(e.line, "clock description must be a string")
			}
			c.Description = e.rhs.str
		case "freq":
			if c.Freq, err = unsigned(e.rhs, "clock freq"); err == nil && c.Freq == 0 {
				err = errorf(e.line, "clock frequency must not be 0")
			}
		case "precision":
			c.Precision, err = unsigned(e.rhs, "clock precision")
		case "offset_s":
			c.OffsetS, err = signedValue(e.rhs)
		case "offset":
			c.Offset, err = signedValue(e.rhs) // section 8: may be negative
		case "absolute":
			c.Absolute, err = boolean(e.rhs, "absolute")
		}
		return err
	})
	if err != nil {
		return err
	}
	if c.Name == "" {
		return errorf(d.line, "clock without a name")
	}
	for _, o := range b.tr.Clocks {
		if o.Name == c.Name {
			return errorf(d.line, "duplicate clock %q", c.Name)
		}
	}
	b.tr.Clocks = append(b.tr.Clocks, c)
	return nil
}

func (b *builder) streamBlock(parent *scope, d *decl) error {
	sc := newScope(parent)
	s := &StreamClass{Line: d.line}
	hasID := false
	err := b.entries(sc, d, func(name string, e *decl) error {
		var err error
		switch name {
		case "id":
			s.ID, err = unsigned(e.rhs, "stream id")
			hasID = true
		case "event.header":
			s.EventHeader, err = b.scopeType(sc, e, "stream.event.header")
		case "event.context":
			s.EventContext, err = b.scopeType(sc, e, "stream.event.context")
		case "packet.context":
			s.PacketContext, err = b.scopeType(sc, e, "stream.packet.context")
		}
		return err
	})
	if err != nil {
		return err
	}
	if !hasID {
		if len(b.tr.Streams) > 0 {
			return errorf(d.line, "stream block without an id, and the trace has several streams")
		}
		if ph := b.tr.PacketHeader; ph != nil {
			for _, f := range ph.Fields {
				if f.Name == "stream_id" {
					return errorf(d.line, "stream block without an id, but the packet header has a stream_id")
				}
			}
		}
	}
	if b.tr.Stream(s.ID) != nil {
		return errorf(d.line, "duplicate stream id %d", s.ID)
	}
	b.tr.Streams = append(b.tr.Streams, s)
	return nil
}

func (b *builder) eventBlock(parent *scope, d *decl) error {
	sc := newScope(parent)
	ev := &EventClass{Line: d.line}
	seen := map[string]bool{}
	err := b.entries(sc, d, func(name string, e *decl) error {
		seen[name] = true
		var err error
		switch name {
		case "name":
			ev.Name, err = nameValue(e, "event name")
		case "id":
			ev.ID, err = unsigned(e.rhs, "event id")
		case "stream_id":
			ev.StreamID, err = unsigned(e.rhs, "event stream_id")
		case "loglevel":
			ev.LogLevel, err = signedValue(e.rhs)
			ev.HasLogLevel = true
		case "model.emf.uri":
			if e.rhs.kind != exprString {
				err = errorf(e.line, "model.emf.uri must be a string")
			}
			ev.EMFURI = e.rhs.str
		case "context":
			ev.Context, err = b.scopeType(sc, e, "event.context")
		case "fields":
			ev.Payload, err = b.scopeType(sc, e, "event.fields")
		}
		return err
	})
	if err != nil {
		return err
	}
	if !seen["name"] {
		return errorf(d.line, "event block without a name")
	}
	var s *StreamClass
	switch {
	case seen["stream_id"]:
		if s = b.tr.Stream(ev.StreamID); s == nil {
			// The stream class may be declared later (babeltrace2 and
			// the specification accept any order): attach it at the end.
			b.pending = append(b.pending, ev)
			return nil
		}
	case len(b.tr.Streams) == 0:
		s = &StreamClass{Line: d.line} // implicit stream 0
		b.tr.Streams = append(b.tr.Streams, s)
	case len(b.tr.Streams) == 1:
		s = b.tr.Streams[0]
	default:
		return errorf(d.line, "event %q without a stream_id, and the trace has several streams", ev.Name)
	}
	return attachEvent(s, ev)
}

// attachEvent adds ev to its stream class s, refusing duplicate ids.
func attachEvent(s *StreamClass, ev *EventClass) error {
	ev.StreamID = s.ID
	if s.Event(ev.ID) != nil {
		return errorf(ev.Line, "duplicate event id %d in stream %d (event %q)", ev.ID, s.ID, ev.Name)
	}
	s.Events = append(s.Events, ev)
	return nil
}

// attachPending attaches the events declared before their stream class.
func (b *builder) attachPending() error {
	for _, ev := range b.pending {
		s := b.tr.Stream(ev.StreamID)
		if s == nil {
			return errorf(ev.Line, "event %q refers to stream %d, which is not declared", ev.Name, ev.StreamID)
		}
		if err := attachEvent(s, ev); err != nil {
			return err
		}
	}
	return nil
}

// entries calls fn for each assignment of a block, registering its
// typedefs and typealiases in sc (when sc is not nil) and refusing
// duplicate names.
func (b *builder) entries(sc *scope, d *decl, fn func(name string, e *decl) error) error {
	seen := map[string]bool{}
	for i := range d.entries {
		e := &d.entries[i]
		if e.kind == declTypedef || e.kind == declTypealias {
			if sc == nil {
				return errorf(e.line, "type declaration in a %s block", d.block)
			}
			if err := b.typeDecl(sc, e); err != nil {
				return err
			}
			continue
		}
		name := joinPath(e.lhs)
		if seen[name] {
			return errorf(e.line, "duplicate %q in %s block", name, d.block)
		}
		seen[name] = true
		if err := fn(name, e); err != nil {
			return err
		}
	}
	return nil
}

// nameValue reads a name given as an identifier or a string.
func nameValue(e *decl, what string) (string, error) {
	switch {
	case e.rhs.kind == exprString:
		return e.rhs.str, nil
	case e.rhs.kind == exprPath && len(e.rhs.path) == 1:
		return e.rhs.path[0], nil
	}
	return "", errorf(e.line, "%s must be a name or a string", what)
}

// Attribute value helpers.

func unsigned(e expr, what string) (uint64, error) {
	if e.kind != exprNum || e.neg {
		return 0, errorf(e.line, "%s must be a non-negative integer", what)
	}
	return e.num, nil
}

func signedValue(e expr) (int64, error) {
	if e.kind != exprNum {
		return 0, errorf(e.line, "expected an integer")
	}
	if e.neg {
		if e.num > 1<<63 {
			return 0, errorf(e.line, "integer out of range")
		}
		return int64(-e.num), nil
	}
	if e.num > 1<<63-1 {
		return 0, errorf(e.line, "integer out of range")
	}
	return int64(e.num), nil
}

func alignment(e expr) (int, error) {
	v, err := unsigned(e, "alignment")
	if err != nil {
		return 0, err
	}
	if v == 0 || v&(v-1) != 0 || v > 1<<16 {
		return 0, errorf(e.line, "alignment %d is not a power of two up to 65536", v)
	}
	return int(v), nil
}

func boolean(e expr, what string) (bool, error) {
	switch {
	case e.kind == exprNum && !e.neg && e.num <= 1:
		return e.num == 1, nil
	case e.kind == exprPath && len(e.path) == 1:
		switch e.path[0] {
		case "true", "TRUE":
			return true, nil
		case "false", "FALSE":
			return false, nil
		}
	}
	return false, errorf(e.line, "%s must be true or false", what)
}

// byteOrder reads be, le or network (and native when allowed, which the
// caller resolves).
func byteOrder(e expr, allowNative bool) (bigEndian bool, err error) {
	if e.kind == exprPath && len(e.path) == 1 {
		switch e.path[0] {
		case "be", "network":
			return true, nil
		case "le":
			return false, nil
		}
	}
	return false, errorf(e.line, "byte_order must be be, le or network")
}

func (b *builder) typeByteOrder(e expr) (bool, error) {
	if e.kind == exprPath && len(e.path) == 1 && e.path[0] == "native" {
		return b.tr.BigEndian, nil
	}
	be, err := byteOrder(e, true)
	if err != nil {
		return false, errorf(e.line, "byte_order must be native, network, be or le")
	}
	return be, nil
}

func base(e expr) (int, error) {
	if e.kind == exprNum && !e.neg {
		switch e.num {
		case 2, 8, 10, 16:
			return int(e.num), nil
		}
	}
	if e.kind == exprPath && len(e.path) == 1 {
		switch e.path[0] {
		case "decimal", "dec", "d", "i", "u":
			return 10, nil
		case "hexadecimal", "hex", "x", "X", "p":
			return 16, nil
		case "octal", "oct", "o":
			return 8, nil
		case "binary", "b":
			return 2, nil
		}
	}
	return 0, errorf(e.line, "unknown integer base")
}

func encoding(e expr) (Encoding, error) {
	if e.kind == exprPath && len(e.path) == 1 {
		switch strings.ToUpper(e.path[0]) {
		case "NONE":
			return EncodingNone, nil
		case "UTF8":
			return EncodingUTF8, nil
		case "ASCII":
			return EncodingASCII, nil
		}
	}
	if e.kind == exprString {
		// Section 4.1.5: the encoding is an identifier, not a string.
		return 0, errorf(e.line, "encoding %q is a string literal: write it as an identifier (none, UTF8 or ASCII)", e.str)
	}
	return 0, errorf(e.line, "encoding must be none, UTF8 or ASCII")
}

// uuid reads a "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" string.
func uuid(e expr) ([16]byte, error) {
	var u [16]byte
	if e.kind != exprString {
		return u, errorf(e.line, "uuid must be a string")
	}
	s := e.str
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return u, errorf(e.line, "malformed uuid %q", s)
	}
	j := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '-' && (i == 8 || i == 13 || i == 18 || i == 23) {
			continue
		}
		hi, ok1 := digitValue(s[i])
		lo, ok2 := digitValue(s[i+1])
		if !ok1 || !ok2 || hi > 15 || lo > 15 {
			return u, errorf(e.line, "malformed uuid %q", s)
		}
		u[j] = byte(hi<<4 | lo)
		j++
		i++
	}
	return u, nil
}
