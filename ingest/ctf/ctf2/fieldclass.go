package ctf2

import (
	"fmt"

	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// fcCtx is where a field class is used.
type fcCtx struct {
	// scope is the dynamic scope, in decoding order (0 packet header ...
	// 5 payload), or -1 for an alias definition (roles are checked where
	// the alias is used).
	scope int
	clock *tsdl.Clock // the data stream class's default clock
	// magicOK: the class is the first member of the packet header, the
	// only place for the packet-magic-number role.
	magicOK bool
	// nest: how deep in the scope's root the class is (1: a member of
	// the root structure).
	nest int
}

// roleScopes are the scopes each role is allowed in, by bit index (-2:
// the packet context or the event record header).
var roleScopes = [...]int{0, 0, 0, 0, 1, 1, -2, 1, 1, 1, 2}

// fieldClass builds the model of a field class (an object, or a string
// naming an alias).
func (p *parser) fieldClass(v *value, ctx *fcCtx) (*tsdl.Type, error) {
	p.types++
	if p.types > maxTypes {
		return nil, errorf(v.off, "the metadata expands to more than %d field classes", maxTypes)
	}
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxClassDepth {
		return nil, errorf(v.off, "field classes nested (through aliases) more than %d deep", maxClassDepth)
	}
	if v.kind == jString {
		a, ok := p.aliases[v.text]
		if !ok {
			return nil, errorf(v.off, "field-class alias %q is not defined before its use", v.text)
		}
		return p.fieldClass(a, ctx)
	}
	if err := v.want(jObject, "field class"); err != nil {
		return nil, err
	}
	tv, err := v.need("type", "field class")
	if err != nil {
		return nil, err
	}
	typ, err := tv.string("field class type")
	if err != nil {
		return nil, err
	}
	what := typ + " field class"
	if err := p.common(v, what); err != nil {
		return nil, err
	}
	magicOK := ctx.magicOK
	ctx.magicOK = false
	var t *tsdl.Type
	switch typ {
	case "fixed-length-unsigned-integer", "fixed-length-signed-integer":
		t, err = p.fixedInt(v, typ == "fixed-length-signed-integer", what)
	case "fixed-length-floating-point-number":
		t, err = p.float(v, what)
	case "null-terminated-string":
		var enc tsdl.Encoding
		if enc, err = encoding(v, what); err == nil {
			t = &tsdl.Type{Kind: tsdl.KindString, Align: 8, Encoding: enc}
		}
	case "static-length-string", "dynamic-length-string":
		t, err = p.sizedString(v, typ == "dynamic-length-string", what)
	case "static-length-blob":
		t, err = p.staticBlob(v, what)
	case "structure":
		t, err = p.structure(v, ctx, what)
	case "static-length-array", "dynamic-length-array":
		t, err = p.array(v, ctx, typ == "dynamic-length-array", what)
	case "variant":
		t, err = p.variant(v, ctx, what)
	case "fixed-length-bit-array", "fixed-length-bit-map", "fixed-length-boolean":
		t, err = p.bits(v, typ, what)
	case "variable-length-unsigned-integer", "variable-length-signed-integer":
		t, err = p.varInt(v, typ == "variable-length-signed-integer", what)
	case "dynamic-length-blob":
		t, err = p.dynamicBlob(v, what)
	case "optional":
		t, err = p.optional(v, ctx, what)
	default:
		return nil, errorf(tv.off, "unknown field class type %q", typ)
	}
	if err != nil {
		return nil, err
	}
	if err := v.done(what); err != nil {
		return nil, err
	}
	t.Byte = v.off + 1
	if t.Roles != 0 {
		if err := checkRoles(v, t, ctx, magicOK); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// checkRoles checks a class's roles against where it is used, and maps
// its timestamp to the data stream class's default clock.
func checkRoles(v *value, t *tsdl.Type, ctx *fcCtx, magicOK bool) error {
	if ctx.scope < 0 {
		return nil
	}
	for i, name := range tsdl.RoleNames {
		if t.Roles&(1<<i) == 0 {
			continue
		}
		ok := roleScopes[i] == ctx.scope || (roleScopes[i] == -2 && (ctx.scope == 1 || ctx.scope == 2))
		if !ok {
			return errorf(v.off, "`%s` role here: not valid within this scope", name)
		}
		if ctx.scope <= 1 && ctx.nest != 1 {
			// The decoder reads packet roles on the members of the root
			// structure (where CTF 1.8's names are, and LTTng's roles).
			return errorf(v.off, "`%s` role on a nested field class: tracetui reads packet header and packet context roles on the scope's direct members only", name)
		}
	}
	if t.Roles&tsdl.RolePacketMagic != 0 {
		if !magicOK {
			return errorf(v.off, "the `packet-magic-number` role is only valid on the first member of the packet header")
		}
		if t.Size != 32 || t.Kind == tsdl.KindWideInt {
			return errorf(v.off, "the `packet-magic-number` role needs a 32-bit fixed-length unsigned integer")
		}
	}
	if t.Roles&(tsdl.RoleClockTimestamp|tsdl.RolePacketEndTimestamp) != 0 && ctx.clock == nil {
		return errorf(v.off, "a timestamp role needs a data stream class with a default clock class")
	}
	if t.Roles&tsdl.RoleClockTimestamp != 0 {
		t.Clock = ctx.clock
	}
	return nil
}

// bitArray reads what every fixed-length bit array has: length, byte
// order, bit order, alignment.
func bitArray(v *value, t *tsdl.Type, what string) error {
	lv, err := v.need("length", what)
	if err != nil {
		return err
	}
	n, err := lv.uint(what + " length")
	if err != nil {
		return err
	}
	if n == 0 {
		return errorf(lv.off, "%s length is 0", what)
	}
	if n > tsdl.MaxIntBits {
		return errorf(lv.off, "%s length %d is more than %d bits", what, n, tsdl.MaxIntBits)
	}
	t.Size = int(n)
	bo, err := v.need("byte-order", what)
	if err != nil {
		return err
	}
	switch bo.text {
	case "big-endian":
		t.BigEndian = true
	case "little-endian":
	default:
		return errorf(bo.off, "%s byte-order: expecting \"big-endian\" or \"little-endian\"", what)
	}
	if b := v.get("bit-order"); b != nil {
		want := "first-to-last"
		if t.BigEndian {
			want = "last-to-first"
		}
		switch b.text {
		case want:
		case "first-to-last", "last-to-first":
			t.ReverseBits = true
		default:
			return errorf(b.off, "%s bit-order: expecting \"first-to-last\" or \"last-to-first\"", what)
		}
	}
	t.Align = 1
	return alignment(v, "alignment", &t.Align, what)
}

// alignment reads an optional power-of-two alignment in bits.
func alignment(v *value, key string, dst *int, what string) error {
	av := v.get(key)
	if av == nil {
		return nil
	}
	a, err := av.uint(what + " " + key)
	if err != nil {
		return err
	}
	if a == 0 || a&(a-1) != 0 || a > 1<<32 {
		return errorf(av.off, "%s %s: %d is not a power of two", what, key, a)
	}
	*dst = max(*dst, int(a))
	return nil
}

func (p *parser) fixedInt(v *value, signed bool, what string) (*tsdl.Type, error) {
	t := &tsdl.Type{Kind: tsdl.KindInt, Signed: signed, Base: 10}
	if err := bitArray(v, t, what); err != nil {
		return nil, err
	}
	if t.Size > 64 {
		t.Kind = tsdl.KindWideInt
		if t.ReverseBits {
			return nil, errorf(v.off, "%s: a non-default bit order on an integer of more than 64 bits is not supported", what)
		}
	}
	if b := v.get("preferred-display-base"); b != nil {
		n, err := b.uint(what + " preferred-display-base")
		if err != nil {
			return nil, err
		}
		if n != 2 && n != 8 && n != 10 && n != 16 {
			return nil, errorf(b.off, "%s preferred-display-base %d: expecting 2, 8, 10 or 16", what, n)
		}
		t.Base = int(n)
	}
	if m := v.get("mappings"); m != nil {
		if t.Kind == tsdl.KindWideInt {
			return nil, errorf(m.off, "%s: mappings of an integer wider than 64 bits are not supported", what)
		}
		if err := mappings(m, t, what); err != nil {
			return nil, err
		}
	}
	if r := v.get("roles"); r != nil {
		if err := roles(r, t, signed, what); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func roles(r *value, t *tsdl.Type, signed bool, what string) error {
	if err := r.want(jArray, what+" roles"); err != nil {
		return err
	}
	if signed && len(r.arr) > 0 {
		return errorf(r.off, "%s: a signed integer cannot have roles", what)
	}
	for _, x := range r.arr {
		name, err := x.string(what + " role")
		if err != nil {
			return err
		}
		found := false
		for i, n := range tsdl.RoleNames {
			if n == name {
				t.Roles |= 1 << i
				found = true
			}
		}
		if !found {
			return errorf(x.off, "%s: unknown role %q", what, name)
		}
	}
	if t.Roles != 0 && t.Kind == tsdl.KindWideInt {
		return errorf(r.off, "%s: a %d-bit integer cannot have roles (64 bits at most)", what, t.Size)
	}
	if t.Roles&tsdl.RoleMetadataUUID != 0 {
		return errorf(r.off, "%s: the `metadata-stream-uuid` role needs a 16-byte static-length BLOB", what)
	}
	return nil
}

// mappings reads an integer's mappings: label -> non-empty set of
// inclusive ranges; the class becomes an enumeration.
func mappings(m *value, t *tsdl.Type, what string) error {
	if err := m.want(jObject, what+" mappings"); err != nil {
		return err
	}
	for _, lab := range m.obj {
		rs, err := rangeSet(lab.val, t.Signed, fmt.Sprintf("%s mapping %q", what, lab.key))
		if err != nil {
			return err
		}
		t.Mappings = append(t.Mappings, tsdl.Mapping{Label: lab.key, Ranges: rs})
	}
	t.Kind = tsdl.KindEnum
	return nil
}

// rangeSet reads a non-empty array of [lower, upper] pairs.
func rangeSet(v *value, signed bool, what string) ([]tsdl.Range, error) {
	if err := v.want(jArray, what); err != nil {
		return nil, err
	}
	if len(v.arr) == 0 {
		return nil, errorf(v.off, "%s: empty integer range set", what)
	}
	out := make([]tsdl.Range, 0, len(v.arr))
	for _, r := range v.arr {
		if err := r.want(jArray, what+" range"); err != nil {
			return nil, err
		}
		if len(r.arr) != 2 {
			return nil, errorf(r.off, "%s: a range is 2 integers, not %d", what, len(r.arr))
		}
		var lo, hi uint64
		if signed {
			a, err := r.arr[0].int(what + " lower bound")
			if err != nil {
				return nil, err
			}
			b, err := r.arr[1].int(what + " upper bound")
			if err != nil {
				return nil, err
			}
			if a > b {
				return nil, errorf(r.off, "%s: lower bound %d is greater than upper bound %d", what, a, b)
			}
			lo, hi = uint64(a), uint64(b)
		} else {
			var err error
			if lo, err = r.arr[0].uint(what + " lower bound"); err != nil {
				return nil, err
			}
			if hi, err = r.arr[1].uint(what + " upper bound"); err != nil {
				return nil, err
			}
			if lo > hi {
				return nil, errorf(r.off, "%s: lower bound %d is greater than upper bound %d", what, lo, hi)
			}
		}
		out = append(out, tsdl.Range{Lo: lo, Hi: hi})
	}
	return out, nil
}

func (p *parser) float(v *value, what string) (*tsdl.Type, error) {
	t := &tsdl.Type{Kind: tsdl.KindFloat}
	if err := bitArray(v, t, what); err != nil {
		return nil, err
	}
	if t.ReverseBits {
		return nil, errorf(v.off, "%s: a non-default bit order on a floating point number is not supported", what)
	}
	switch t.Size {
	case 32:
		t.ExpDig, t.MantDig = 8, 24
	case 64:
		t.ExpDig, t.MantDig = 11, 53
	default:
		return nil, errorf(v.off, "%s: %d-bit floating point numbers are not supported (32 or 64)", what, t.Size)
	}
	return t, nil
}

// encodings are the CTF 2 string encodings.
var encodings = map[string]tsdl.Encoding{
	"utf-8": tsdl.EncodingUTF8, "utf-16be": tsdl.EncodingUTF16BE, "utf-16le": tsdl.EncodingUTF16LE,
	"utf-32be": tsdl.EncodingUTF32BE, "utf-32le": tsdl.EncodingUTF32LE,
}

// encoding reads a string's encoding (default UTF-8).
func encoding(v *value, what string) (tsdl.Encoding, error) {
	e := v.get("encoding")
	if e == nil {
		return tsdl.EncodingUTF8, nil
	}
	if enc, ok := encodings[e.text]; ok && e.kind == jString {
		return enc, nil
	}
	return 0, errorf(e.off, "%s: unknown encoding %q", what, e.text)
}

// byteElem is the element of the byte arrays that model sized strings
// and BLOBs.
func byteElem(enc tsdl.Encoding) *tsdl.Type {
	return &tsdl.Type{Kind: tsdl.KindInt, Size: 8, Align: 8, Base: 10, Encoding: enc}
}

func (p *parser) sizedString(v *value, dynamic bool, what string) (*tsdl.Type, error) {
	enc, err := encoding(v, what)
	if err != nil {
		return nil, err
	}
	t := &tsdl.Type{Kind: tsdl.KindArray, Align: 8, Elem: byteElem(enc)}
	if dynamic {
		t.Kind = tsdl.KindSequence
		lv, err := v.need("length-field-location", what)
		if err != nil {
			return nil, err
		}
		if t.Loc, err = location(lv, what); err != nil {
			return nil, err
		}
		return t, nil
	}
	lv, err := v.need("length", what)
	if err != nil {
		return nil, err
	}
	if t.Len, err = lv.uint(what + " length"); err != nil {
		return nil, err
	}
	return t, nil
}

func (p *parser) staticBlob(v *value, what string) (*tsdl.Type, error) {
	lv, err := v.need("length", what)
	if err != nil {
		return nil, err
	}
	n, err := lv.uint(what + " length")
	if err != nil {
		return nil, err
	}
	if mt := v.get("media-type"); mt != nil {
		if _, err := mt.string(what + " media-type"); err != nil {
			return nil, err
		}
	}
	r := v.get("roles")
	if r == nil || (r.kind == jArray && len(r.arr) == 0) {
		return &tsdl.Type{Kind: tsdl.KindArray, Align: 8, Len: n, Elem: byteElem(tsdl.EncodingNone), Flavor: tsdl.FlavorBlob}, nil
	}
	if err := r.want(jArray, what+" roles"); err != nil {
		return nil, err
	}
	for _, x := range r.arr {
		if x.kind != jString || x.text != "metadata-stream-uuid" {
			return nil, errorf(x.off, "%s: a BLOB may only have the `metadata-stream-uuid` role", what)
		}
	}
	if n != 16 {
		return nil, errorf(lv.off, "%s: the `metadata-stream-uuid` role needs a 16-byte BLOB, not %d bytes", what, n)
	}
	if !p.tr.HasUUID {
		return nil, errorf(r.off, "%s: the `metadata-stream-uuid` role, but the preamble has no uuid", what)
	}
	return &tsdl.Type{Kind: tsdl.KindArray, Align: 8, Len: 16, Elem: byteElem(tsdl.EncodingNone), Roles: tsdl.RoleMetadataUUID}, nil
}
