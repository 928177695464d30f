package ctf2

import (
	"fmt"

	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// Field classes TSDL has no counterpart for: booleans, bit arrays and bit
// maps (integers shown otherwise), LEB128 integers, BLOBs, optionals.

func (p *parser) bits(v *value, typ, what string) (*tsdl.Type, error) {
	t := &tsdl.Type{Kind: tsdl.KindInt, Base: 16}
	if err := bitArray(v, t, what); err != nil {
		return nil, err
	}
	if t.Size > 64 {
		return nil, errorf(v.off, "%s: %d bits: bit arrays of more than 64 bits are not supported", what, t.Size)
	}
	switch typ {
	case "fixed-length-boolean":
		t.Flavor = tsdl.FlavorBool
	case "fixed-length-bit-array":
		t.Flavor = tsdl.FlavorBitArray
	case "fixed-length-bit-map":
		t.Flavor = tsdl.FlavorBitMap
		fv, err := v.need("flags", what)
		if err != nil {
			return nil, err
		}
		if err := fv.want(jObject, what+" flags"); err != nil {
			return nil, err
		}
		if len(fv.obj) == 0 {
			return nil, errorf(fv.off, "%s: no flag", what)
		}
		for _, f := range fv.obj {
			rs, err := rangeSet(f.val, false, fmt.Sprintf("%s flag %q", what, f.key))
			if err != nil {
				return nil, err
			}
			for _, r := range rs {
				if r.Hi >= uint64(t.Size) {
					return nil, errorf(f.val.off, "%s flag %q: bit index %d is not less than the length %d", what, f.key, r.Hi, t.Size)
				}
			}
			t.Mappings = append(t.Mappings, tsdl.Mapping{Label: f.key, Ranges: rs})
		}
	}
	return t, nil
}

func (p *parser) varInt(v *value, signed bool, what string) (*tsdl.Type, error) {
	t := &tsdl.Type{Kind: tsdl.KindVarInt, Signed: signed, Base: 10, Align: 8}
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
		if err := mappings(m, t, what); err != nil {
			return nil, err
		}
		t.Kind = tsdl.KindVarInt // mappings made it an enumeration
	}
	if r := v.get("roles"); r != nil {
		if err := roles(r, t, signed, what); err != nil {
			return nil, err
		}
		if t.Roles&tsdl.RolePacketMagic != 0 {
			return nil, errorf(r.off, "%s: the `packet-magic-number` role needs a 32-bit fixed-length unsigned integer", what)
		}
	}
	return t, nil
}

func (p *parser) dynamicBlob(v *value, what string) (*tsdl.Type, error) {
	if mt := v.get("media-type"); mt != nil {
		if _, err := mt.string(what + " media-type"); err != nil {
			return nil, err
		}
	}
	lv, err := v.need("length-field-location", what)
	if err != nil {
		return nil, err
	}
	t := &tsdl.Type{Kind: tsdl.KindSequence, Align: 8, Elem: byteElem(tsdl.EncodingNone), Flavor: tsdl.FlavorBlob}
	if t.Loc, err = location(lv, what); err != nil {
		return nil, err
	}
	return t, nil
}

func (p *parser) optional(v *value, ctx *fcCtx, what string) (*tsdl.Type, error) {
	t := &tsdl.Type{Kind: tsdl.KindOptional, Align: 1}
	sv, err := v.need("selector-field-location", what)
	if err != nil {
		return nil, err
	}
	if t.Loc, err = location(sv, what); err != nil {
		return nil, err
	}
	var rs []tsdl.Range
	if rv := v.get("selector-field-ranges"); rv != nil {
		if rs, t.Signed, err = anyRangeSet(rv, what+" selector-field-ranges"); err != nil {
			return nil, err
		}
	}
	fv, err := v.need("field-class", what)
	if err != nil {
		return nil, err
	}
	ctx.nest++
	ft, err := p.fieldClass(fv, ctx)
	ctx.nest--
	if err != nil {
		return nil, err
	}
	t.Fields = []tsdl.Field{{Type: ft, Ranges: rs}}
	return t, nil
}
