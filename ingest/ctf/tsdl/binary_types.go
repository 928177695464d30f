package tsdl

import (
	"fmt"
	"math"
)

// typ decodes one type of the table and checks it as the text's builder
// would have made it.
func (d *decoder) typ() error {
	k, err := d.byte()
	if err != nil {
		return err
	}
	if Kind(k) > KindWideInt && !(d.ctf2 && Kind(k) <= KindOptional) {
		return fmt.Errorf("kind %d", k)
	}
	t := &d.backing[len(d.types)]
	t.Kind = Kind(k)
	if t.Line, err = d.int(math.MaxInt32); err != nil {
		return err
	}
	if t.Size, err = d.int(MaxIntBits); err != nil {
		return err
	}
	if t.Align, err = d.int(1 << 16); err != nil {
		return err
	}
	flags, err := d.byte()
	if err != nil {
		return err
	}
	t.Signed, t.BigEndian = flags&1 != 0, flags&2 != 0
	base, err := d.byte()
	if err != nil {
		return err
	}
	enc, err := d.byte()
	if err != nil {
		return err
	}
	t.Base, t.Encoding = int(base), Encoding(enc)
	clock, err := d.int(uint64(len(d.clocks)))
	if err != nil {
		return err
	}
	if clock > 0 {
		t.Clock = d.clocks[clock-1]
	}
	if err := d.mappings(t); err != nil {
		return err
	}
	if t.ExpDig, err = d.int(64); err != nil {
		return err
	}
	if t.MantDig, err = d.int(64); err != nil {
		return err
	}
	depth := 1
	n, err := d.count()
	if err != nil {
		return err
	}
	if n > 0 {
		t.Fields = make([]Field, 0, n)
	}
	for range n {
		var f Field
		if f.Name, err = d.str(); err != nil {
			return err
		}
		if f.Type, err = d.ref(); err != nil {
			return err
		}
		if f.Type == nil {
			return fmt.Errorf("field %q without a type", f.Name)
		}
		depth = max(depth, 1+d.refDepth)
		t.Fields = append(t.Fields, f)
	}
	if t.Tag, err = d.str(); err != nil {
		return err
	}
	if t.Elem, err = d.ref(); err != nil {
		return err
	}
	depth = max(depth, 1+d.refDepth)
	if t.Len, err = d.uint(); err != nil {
		return err
	}
	if t.LengthPath, err = d.str(); err != nil {
		return err
	}
	if depth > maxBinaryDepth {
		return fmt.Errorf("nested deeper than %d", maxBinaryDepth)
	}
	if d.ctf2 {
		if err := d.typ2(t); err != nil {
			return err
		}
		if err := checkType2(t); err != nil {
			return err
		}
	} else if err := checkType(t); err != nil {
		return err
	}
	d.types = append(d.types, t)
	d.depth = append(d.depth, depth)
	return nil
}

func (d *decoder) mappings(t *Type) error {
	n, err := d.count()
	if err != nil {
		return err
	}
	for range n {
		var m Mapping
		if m.Label, err = d.str(); err != nil {
			return err
		}
		nr, err := d.count()
		if err != nil {
			return err
		}
		for range nr {
			var r Range
			if r.Lo, err = d.uint(); err != nil {
				return err
			}
			if r.Hi, err = d.uint(); err != nil {
				return err
			}
			m.Ranges = append(m.Ranges, r)
		}
		t.Mappings = append(t.Mappings, m)
	}
	return nil
}

// checkType applies the rules of the text's builder to a decoded type.
func checkType(t *Type) error {
	if t.Align < 1 || t.Align&(t.Align-1) != 0 {
		return fmt.Errorf("alignment %d is not a power of two", t.Align)
	}
	if t.Encoding > EncodingASCII {
		return fmt.Errorf("encoding %d", t.Encoding)
	}
	compound := len(t.Fields) > 0 || t.Elem != nil
	switch t.Kind {
	case KindInt, KindEnum, KindWideInt:
		switch {
		case t.Kind == KindWideInt && (t.Size <= 64 || t.Clock != nil):
			return fmt.Errorf("wide integer of %d bits (clock %v)", t.Size, t.Clock != nil)
		case t.Kind != KindWideInt && (t.Size < 1 || t.Size > 64):
			return fmt.Errorf("integer of %d bits", t.Size)
		case t.Base != 2 && t.Base != 8 && t.Base != 10 && t.Base != 16:
			return fmt.Errorf("base %d", t.Base)
		case compound || (t.Kind != KindEnum && len(t.Mappings) > 0):
			return fmt.Errorf("integer with fields or mappings")
		}
	case KindFloat:
		if !(t.Size == 32 && t.ExpDig == 8 && t.MantDig == 24) && !(t.Size == 64 && t.ExpDig == 11 && t.MantDig == 53) {
			return fmt.Errorf("floating point of %d bits (%d/%d digits)", t.Size, t.ExpDig, t.MantDig)
		}
	case KindStruct, KindVariant:
		if t.Elem != nil || (t.Kind == KindVariant && len(t.Fields) == 0) {
			return fmt.Errorf("%s with %d fields and an element", t.Kind, len(t.Fields))
		}
	case KindArray, KindSequence:
		if t.Elem == nil || len(t.Fields) > 0 || (t.Kind == KindSequence && t.LengthPath == "") {
			return fmt.Errorf("%s without an element or a length", t.Kind)
		}
	case KindString:
		if compound {
			return fmt.Errorf("string with fields")
		}
	}
	if t.Kind != KindInt && t.Kind != KindEnum && t.Clock != nil {
		return fmt.Errorf("%s mapped to a clock", t.Kind)
	}
	if t.Kind != KindEnum && len(t.Mappings) > 0 {
		return fmt.Errorf("%s with mappings", t.Kind)
	}
	return nil
}
