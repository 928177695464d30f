package tsdl

// Type specifiers: integers, floats, strings, structures, variants and
// enumerations, with their attributes checked.

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

// MaxIntBits bounds the size of an integer: wider than 64 bits it is
// decoded as its bits (KindWideInt); the bound keeps one field's printed
// text small.
const MaxIntBits = 1 << 16

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
	if size < 1 || size > MaxIntBits {
		return nil, errorf(sz.line, "integer size %d out of range (1 to %d bits)", size, MaxIntBits)
	}
	t.Size = int(size)
	if size > 64 {
		t.Kind = KindWideInt
	}
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
		if t.Kind == KindWideInt {
			return nil, errorf(a.line, "a %d-bit integer cannot be mapped to a clock (clock values are 64 bits at most)", t.Size)
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
	if cont.Kind == KindWideInt {
		return nil, errorf(ts.line, "enumeration container of %d bits: enumerations hold 64 bits at most", cont.Size)
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
