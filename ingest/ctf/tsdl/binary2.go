package tsdl

import "fmt"

// The binary form of what CTF 2 adds to a type (model2.go), written after
// the TSDL properties when the model's Major is 2, so a CTF 1.8 model's
// bytes are unchanged: roles (uvarint), flavor (byte), byte offset
// (uvarint), location (byte 0 none, else 1 + origin + 1 (0: none), then
// the path's count and strings), then per field its option ranges (count,
// then lower and upper bounds).

func (e *encoder) typ2(t *Type) {
	e.uint(uint64(t.Roles))
	f := byte(t.Flavor)
	if t.ReverseBits {
		f |= 0x80
	}
	e.buf = append(e.buf, f)
	e.uint(uint64(t.Byte))
	if t.Loc == nil {
		e.buf = append(e.buf, 0)
	} else {
		e.buf = append(e.buf, byte(t.Loc.Origin+2))
		e.uint(uint64(len(t.Loc.Path)))
		for _, s := range t.Loc.Path {
			e.str(s)
		}
	}
	for _, f := range t.Fields {
		e.uint(uint64(len(f.Ranges)))
		for _, r := range f.Ranges {
			e.uint(r.Lo)
			e.uint(r.Hi)
		}
	}
}

func (d *decoder) typ2(t *Type) error {
	roles, err := d.uint()
	if err != nil {
		return err
	}
	if roles >= 1<<len(RoleNames) {
		return fmt.Errorf("roles %#x", roles)
	}
	t.Roles = Role(roles)
	fl, err := d.byte()
	if err != nil {
		return err
	}
	t.ReverseBits, fl = fl&0x80 != 0, fl&^0x80
	if Flavor(fl) > FlavorBlob {
		return fmt.Errorf("flavor %d", fl)
	}
	t.Flavor = Flavor(fl)
	off, err := d.uint()
	if err != nil {
		return err
	}
	t.Byte = int64(off & (1<<62 - 1))
	o, err := d.byte()
	if err != nil {
		return err
	}
	if o > 7 {
		return fmt.Errorf("location origin %d", o)
	}
	if o > 0 {
		loc := &Location{Origin: int8(o) - 2}
		n, err := d.count()
		if err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("empty location path")
		}
		for range n {
			s, err := d.str()
			if err != nil {
				return err
			}
			loc.Path = append(loc.Path, s)
		}
		if loc.Path[len(loc.Path)-1] == "" {
			return fmt.Errorf("location path ends going up")
		}
		t.Loc = loc
	}
	for i := range t.Fields {
		n, err := d.count()
		if err != nil {
			return err
		}
		for range n {
			var r Range
			if r.Lo, err = d.uint(); err != nil {
				return err
			}
			if r.Hi, err = d.uint(); err != nil {
				return err
			}
			t.Fields[i].Ranges = append(t.Fields[i].Ranges, r)
		}
	}
	return nil
}

// checkType2 applies package ctf2's rules to a decoded CTF 2 type.
func checkType2(t *Type) error {
	if t.Align < 1 || t.Align&(t.Align-1) != 0 {
		return fmt.Errorf("alignment %d is not a power of two", t.Align)
	}
	if t.Encoding > EncodingUTF32LE {
		return fmt.Errorf("encoding %d", t.Encoding)
	}
	compound := len(t.Fields) > 0 || t.Elem != nil
	switch t.Kind {
	case KindString:
		if compound {
			return fmt.Errorf("string with fields")
		}
	case KindFloat, KindWideInt, KindStruct, KindArray:
		// TSDL's rules, which these CTF 2 classes follow.
		if err := checkType(t); err != nil {
			return err
		}
	case KindVarInt:
		if compound || t.Base != 2 && t.Base != 8 && t.Base != 10 && t.Base != 16 {
			return fmt.Errorf("variable-length integer with fields or base %d", t.Base)
		}
	case KindOptional:
		if len(t.Fields) != 1 || t.Elem != nil || t.Loc == nil {
			return fmt.Errorf("optional without one content and a selector")
		}
	case KindVariant:
		if t.Loc == nil {
			return fmt.Errorf("variant without a selector location")
		}
	case KindSequence:
		if t.Loc == nil {
			return fmt.Errorf("sequence without a length location")
		}
	case KindInt, KindEnum:
		if t.Size < 1 || t.Size > 64 || compound {
			return fmt.Errorf("integer of %d bits or with fields", t.Size)
		}
		if t.Flavor == FlavorBlob || (t.Flavor != FlavorBitMap && t.Kind == KindInt && len(t.Mappings) > 0) {
			return fmt.Errorf("integer of flavor %d with %d mappings", t.Flavor, len(t.Mappings))
		}
	}
	if t.Roles != 0 && t.Kind != KindInt && t.Kind != KindEnum && t.Kind != KindVarInt && t.Roles != RoleMetadataUUID {
		return fmt.Errorf("roles on a %s", t.Kind)
	}
	if t.Kind != KindInt && t.Kind != KindEnum && t.Kind != KindVarInt && t.Clock != nil {
		return fmt.Errorf("%s mapped to a clock", t.Kind)
	}
	return nil
}
