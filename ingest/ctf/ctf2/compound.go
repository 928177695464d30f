package ctf2

import (
	"fmt"

	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// Limits on compound classes, against metadata that would make the
// compiler allocate without bound.
const (
	maxMembers = 1 << 16
	maxPath    = 256
)

func (p *parser) structure(v *value, ctx *fcCtx, what string) (*tsdl.Type, error) {
	t := &tsdl.Type{Kind: tsdl.KindStruct, Align: 1}
	if err := alignment(v, "minimum-alignment", &t.Align, what); err != nil {
		return nil, err
	}
	root := ctx.scope == 0 && ctx.nest == 0
	ctx.nest++
	defer func() { ctx.nest-- }()
	mv := v.get("member-classes")
	if mv == nil {
		return t, nil
	}
	if err := mv.want(jArray, what+" member-classes"); err != nil {
		return nil, err
	}
	if len(mv.arr) > maxMembers {
		return nil, errorf(mv.off, "%s: more than %d members", what, maxMembers)
	}
	for i, m := range mv.arr {
		if err := m.want(jObject, "structure member class"); err != nil {
			return nil, err
		}
		if err := p.common(m, "structure member class"); err != nil {
			return nil, err
		}
		nv, err := m.need("name", "structure member class")
		if err != nil {
			return nil, err
		}
		name, err := nv.string("structure member class name")
		if err != nil {
			return nil, err
		}
		if name == "" {
			return nil, errorf(nv.off, "empty structure member class name")
		}
		for _, f := range t.Fields {
			if f.Name == name {
				return nil, errorf(nv.off, "duplicate structure member class name %q", name)
			}
		}
		fv, err := m.need("field-class", "structure member class")
		if err != nil {
			return nil, err
		}
		ctx.magicOK = root && i == 0
		ft, err := p.fieldClass(fv, ctx)
		if err != nil {
			return nil, err
		}
		if err := m.done("structure member class"); err != nil {
			return nil, err
		}
		t.Fields = append(t.Fields, tsdl.Field{Name: name, Type: ft})
		t.Align = max(t.Align, ft.Align)
	}
	return t, nil
}

func (p *parser) array(v *value, ctx *fcCtx, dynamic bool, what string) (*tsdl.Type, error) {
	t := &tsdl.Type{Kind: tsdl.KindArray, Align: 1}
	if err := alignment(v, "minimum-alignment", &t.Align, what); err != nil {
		return nil, err
	}
	var err error
	if dynamic {
		t.Kind = tsdl.KindSequence
		lv, err := v.need("length-field-location", what)
		if err != nil {
			return nil, err
		}
		if t.Loc, err = location(lv, what); err != nil {
			return nil, err
		}
	} else {
		lv, err := v.need("length", what)
		if err != nil {
			return nil, err
		}
		if t.Len, err = lv.uint(what + " length"); err != nil {
			return nil, err
		}
	}
	ev, err := v.need("element-field-class", what)
	if err != nil {
		return nil, err
	}
	ctx.nest++
	t.Elem, err = p.fieldClass(ev, ctx)
	ctx.nest--
	if err != nil {
		return nil, err
	}
	t.Align = max(t.Align, t.Elem.Align)
	return t, nil
}

func (p *parser) variant(v *value, ctx *fcCtx, what string) (*tsdl.Type, error) {
	t := &tsdl.Type{Kind: tsdl.KindVariant, Align: 1}
	sv, err := v.need("selector-field-location", what)
	if err != nil {
		return nil, err
	}
	if t.Loc, err = location(sv, what); err != nil {
		return nil, err
	}
	ov, err := v.need("options", what)
	if err != nil {
		return nil, err
	}
	if err := ov.want(jArray, what+" options"); err != nil {
		return nil, err
	}
	if len(ov.arr) == 0 {
		return nil, errorf(ov.off, "%s: no option", what)
	}
	if len(ov.arr) > maxMembers {
		return nil, errorf(ov.off, "%s: more than %d options", what, maxMembers)
	}
	ctx.nest++
	defer func() { ctx.nest-- }()
	type raw struct{ r []*value }
	for i, o := range ov.arr {
		w := fmt.Sprintf("%s option #%d", what, i)
		if err := o.want(jObject, w); err != nil {
			return nil, err
		}
		if err := p.common(o, w); err != nil {
			return nil, err
		}
		name := ""
		if nv := o.get("name"); nv != nil {
			if name, err = nv.string(w + " name"); err != nil {
				return nil, err
			}
			for _, f := range t.Fields {
				if f.Name == name {
					return nil, errorf(nv.off, "%s: duplicate option name %q", what, name)
				}
			}
		}
		rv, err := o.need("selector-field-ranges", w)
		if err != nil {
			return nil, err
		}
		// Signedness is the selector's, known when the plan is compiled:
		// bounds are kept as written (negative ones as int64 bits).
		rs, neg, err := anyRangeSet(rv, w+" selector-field-ranges")
		if err != nil {
			return nil, err
		}
		t.Signed = t.Signed || neg // some bound is negative: the selector must be signed
		fv, err := o.need("field-class", w)
		if err != nil {
			return nil, err
		}
		ft, err := p.fieldClass(fv, ctx)
		if err != nil {
			return nil, err
		}
		if err := o.done(w); err != nil {
			return nil, err
		}
		t.Fields = append(t.Fields, tsdl.Field{Name: name, Type: ft, Ranges: rs})
	}
	return t, nil
}

// anyRangeSet reads a range set whose signedness is not known yet (it is
// the selector's): with a negative bound, bounds are int64 bits and the
// set is reported signed (bounds over MaxInt64 are then refused).
func anyRangeSet(v *value, what string) ([]tsdl.Range, bool, error) {
	if err := v.want(jArray, what); err != nil {
		return nil, false, err
	}
	signed := false
	for _, r := range v.arr {
		if r.kind == jArray {
			for _, b := range r.arr {
				if b.kind == jNumber && len(b.text) > 0 && b.text[0] == '-' {
					signed = true
				}
			}
		}
	}
	rs, err := rangeSet(v, signed, what)
	return rs, signed, err
}

// scopeOrigins are the names of field location origins, in decoding
// order.
var scopeOrigins = [...]string{
	"packet-header", "packet-context", "event-record-header",
	"event-record-common-context", "event-record-specific-context", "event-record-payload",
}

// location reads a field location.
func location(v *value, what string) (*tsdl.Location, error) {
	what += " field location"
	if err := v.want(jObject, what); err != nil {
		return nil, err
	}
	loc := &tsdl.Location{Origin: -1}
	if o := v.get("origin"); o != nil {
		name, err := o.string(what + " origin")
		if err != nil {
			return nil, err
		}
		found := false
		for i, s := range scopeOrigins {
			if s == name {
				loc.Origin, found = int8(i), true
			}
		}
		if !found {
			return nil, errorf(o.off, "%s: unknown origin %q", what, name)
		}
	}
	pv, err := v.need("path", what)
	if err != nil {
		return nil, err
	}
	if err := pv.want(jArray, what+" path"); err != nil {
		return nil, err
	}
	if len(pv.arr) == 0 {
		return nil, errorf(pv.off, "%s: empty path", what)
	}
	if len(pv.arr) > maxPath {
		return nil, errorf(pv.off, "%s: path longer than %d", what, maxPath)
	}
	for _, s := range pv.arr {
		switch {
		case s.kind == jNull:
			loc.Path = append(loc.Path, "")
		case s.kind == jString && s.text != "":
			loc.Path = append(loc.Path, s.text)
		default:
			return nil, errorf(s.off, "%s: a path element is a member name or null", what)
		}
	}
	if loc.Path[len(loc.Path)-1] == "" {
		return nil, errorf(pv.off, "%s: path ends with `null`", what)
	}
	if err := v.done(what); err != nil {
		return nil, err
	}
	return loc, nil
}
