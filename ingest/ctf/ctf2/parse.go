package ctf2

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// RS is the record separator that starts every element of a JSON text
// sequence, and so the first byte of CTF 2 metadata.
const RS = 0x1E

// IsCTF2 reports whether metadata text (unwrapped from packets if it was
// packetized) is CTF 2: its first byte is RS, the test babeltrace2 and
// Trace Compass make.
func IsCTF2(text []byte) bool { return len(text) > 0 && text[0] == RS }

// maxTypes bounds the field classes built from the metadata: aliases
// nest, so a small text can expand exponentially.
const maxTypes = 1 << 18

// maxClassDepth bounds the nesting of field classes, aliases expanded
// (the decoding plan refuses more than 128 anyway).
const maxClassDepth = 1024

// parser holds the state of one metadata stream.
type parser struct {
	tr        *tsdl.Trace
	preamble  bool
	traceSeen bool
	aliases   map[string]*value
	clocks    map[string]*tsdl.Clock
	streams   map[uint64]*streamState
	types     int
	depth     int    // of fieldClass calls
	elem      []byte // the fragment being read
	elemBase  int64  // its offset in the metadata stream
}

// raw returns the JSON text of an object of the current fragment.
func (p *parser) raw(v *value) string {
	lo, hi := v.off-p.elemBase, v.end-p.elemBase
	if lo < 0 || hi > int64(len(p.elem)) || lo > hi {
		return ""
	}
	return string(p.elem[lo:hi])
}

type streamState struct {
	sc     *tsdl.StreamClass
	clock  *tsdl.Clock
	events map[uint64]bool
}

// Parse reads a CTF 2 metadata stream.
func Parse(data []byte) (*tsdl.Trace, error) {
	if !IsCTF2(data) {
		return nil, errorf(0, "the metadata does not start with the record separator 0x1E")
	}
	p := &parser{
		tr:      &tsdl.Trace{Major: 2, Minor: 0},
		aliases: map[string]*value{},
		clocks:  map[string]*tsdl.Clock{},
		streams: map[uint64]*streamState{},
	}
	n := 0
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off+1:], RS)
		if end < 0 {
			end = len(data)
		} else {
			end += off + 1
		}
		elem := data[off+1 : end]
		start := int64(off + 1)
		off = end
		if len(bytes.TrimSpace(elem)) == 0 {
			continue // runs of RS are allowed (RFC 7464)
		}
		n++
		if len(elem) > maxFragmentSize {
			return nil, errorf(start, "fragment #%d is larger than %d MiB", n, maxFragmentSize>>20)
		}
		p.elem, p.elemBase = elem, start
		v, err := parseJSON(elem, start)
		if err != nil {
			return nil, fmt.Errorf("invalid fragment #%d: %w", n, err)
		}
		if err := p.fragment(v, n); err != nil {
			return nil, err
		}
	}
	if !p.preamble {
		return nil, errorf(int64(len(data)), "no preamble fragment")
	}
	if len(p.tr.Streams) == 0 {
		return nil, errorf(int64(len(data)), "missing data stream class fragment in the metadata stream")
	}
	return p.tr, nil
}

func (p *parser) fragment(v *value, n int) error {
	if err := v.want(jObject, fmt.Sprintf("fragment #%d", n)); err != nil {
		return err
	}
	tv, err := v.need("type", "fragment")
	if err != nil {
		return err
	}
	typ, err := tv.string("fragment type")
	if err != nil {
		return err
	}
	if !p.preamble && typ != "preamble" {
		return errorf(v.off, "the first fragment is a %q: it must be the preamble", typ)
	}
	what := typ + " fragment"
	if typ == "preamble" {
		// Its extensions are declarations, checked first.
		if err := p.preambleFragment(v); err != nil {
			return err
		}
	}
	if err := p.common(v, what); err != nil {
		return err
	}
	switch typ {
	case "preamble":
	case "field-class-alias":
		err = p.aliasFragment(v)
	case "trace-class":
		err = p.traceFragment(v)
	case "clock-class":
		err = p.clockFragment(v)
	case "data-stream-class":
		err = p.streamFragment(v)
	case "event-record-class":
		err = p.eventFragment(v)
	default:
		return errorf(tv.off, "unknown fragment type %q", typ)
	}
	if err != nil {
		return err
	}
	return v.done(what)
}

// common checks the properties every fragment, field class, member and
// option may have: attributes (kept aside: they never change decoding)
// and extensions (none is implemented, and any use is refused).
func (p *parser) common(v *value, what string) error {
	if a := v.get("attributes"); a != nil {
		if err := a.want(jObject, what+" attributes"); err != nil {
			return err
		}
	}
	if x := v.get("extensions"); x != nil {
		if err := x.want(jObject, what+" extensions"); err != nil {
			return err
		}
		for _, ns := range x.obj {
			if err := ns.val.want(jObject, fmt.Sprintf("%s extension namespace %q", what, ns.key)); err != nil {
				return err
			}
			for _, name := range ns.val.obj {
				return errorf(name.off, "%s uses extension %q of namespace %q, which the preamble does not declare", what, name.key, ns.key)
			}
		}
	}
	return nil
}

func (p *parser) preambleFragment(v *value) error {
	if p.preamble {
		return errorf(v.off, "a second preamble fragment")
	}
	p.preamble = true
	// Declared extensions refuse the trace before anything else: the
	// specification forbids decoding data streams without them.
	if x := v.get("extensions"); x != nil {
		var names []string
		for _, ns := range x.obj {
			if err := ns.val.want(jObject, fmt.Sprintf("preamble extension namespace %q", ns.key)); err != nil {
				return err
			}
			for _, name := range ns.val.obj {
				names = append(names, fmt.Sprintf("%q (namespace %q)", name.key, ns.key))
			}
		}
		if len(names) > 0 {
			sort.Strings(names)
			return errorf(x.off, "the metadata declares extension %s, which tracetui does not implement: the trace cannot be read", strings.Join(names, ", "))
		}
	}
	ver, err := v.need("version", "preamble")
	if err != nil {
		return err
	}
	n, err := ver.uint("preamble version")
	if err != nil {
		return err
	}
	if n != 2 {
		return errorf(ver.off, "unexpected version %d: expecting 2", n)
	}
	if u := v.get("uuid"); u != nil {
		if err := readUUID(u, &p.tr.UUID); err != nil {
			return err
		}
		p.tr.HasUUID = true
	}
	return nil
}

func readUUID(u *value, dst *[16]byte) error {
	if err := u.want(jArray, "uuid"); err != nil {
		return err
	}
	if len(u.arr) != 16 {
		return errorf(u.off, "uuid: expecting 16 integers, not %d", len(u.arr))
	}
	for i, b := range u.arr {
		x, err := b.uint("uuid byte")
		if err != nil {
			return err
		}
		if x > 255 {
			return errorf(b.off, "uuid byte %d is greater than 255", x)
		}
		dst[i] = byte(x)
	}
	return nil
}

func (p *parser) aliasFragment(v *value) error {
	nv, err := v.need("name", "field-class-alias")
	if err != nil {
		return err
	}
	name, err := nv.string("alias name")
	if err != nil {
		return err
	}
	if _, dup := p.aliases[name]; dup {
		return errorf(nv.off, "duplicate field-class alias %q", name)
	}
	fc, err := v.need("field-class", "field-class-alias")
	if err != nil {
		return err
	}
	// Checked now, where it is defined; expanded at each use, where its
	// roles and clock are known.
	if _, err := p.fieldClass(fc, &fcCtx{scope: -1}); err != nil {
		return err
	}
	p.aliases[name] = fc
	return nil
}

// identity reads the optional namespace, name and uid of a class.
func identity(v *value, what string) (ns, name, uid string, err error) {
	for _, f := range []struct {
		key string
		dst *string
	}{{"namespace", &ns}, {"name", &name}, {"uid", &uid}} {
		if x := v.get(f.key); x != nil {
			if *f.dst, err = x.string(what + " " + f.key); err != nil {
				return
			}
		}
	}
	return
}

func (p *parser) traceFragment(v *value) error {
	if p.traceSeen {
		return errorf(v.off, "a second trace class fragment")
	}
	if len(p.tr.Streams) > 0 {
		return errorf(v.off, "the trace class fragment comes after a data stream class fragment")
	}
	p.traceSeen = true
	if _, _, _, err := identity(v, "trace class"); err != nil {
		return err
	}
	if u := v.get("uid"); u != nil {
		p.tr.UID, p.tr.HasUID = u.text, true
	}
	if a := v.get("attributes"); a != nil && len(a.obj) > 0 {
		p.tr.Attributes = p.raw(a)
	}
	if env := v.get("environment"); env != nil {
		if err := env.want(jObject, "trace class environment"); err != nil {
			return err
		}
		for _, m := range env.obj {
			e := tsdl.EnvEntry{Name: m.key}
			switch m.val.kind {
			case jString:
				e.IsStr, e.Str = true, m.val.text
			case jNumber:
				x, err := m.val.int(fmt.Sprintf("environment entry %q", m.key))
				if err != nil {
					return err
				}
				e.Int = x
			default:
				return errorf(m.val.off, "environment entry %q: expecting an integer or a string, not %s", m.key, kindNames[m.val.kind])
			}
			p.tr.Env = append(p.tr.Env, e)
		}
	}
	if h := v.get("packet-header-field-class"); h != nil {
		t, err := p.scope(h, &fcCtx{scope: 0}, "packet header")
		if err != nil {
			return err
		}
		p.tr.PacketHeader = t
	}
	return nil
}

// scope reads the root structure of a scope.
func (p *parser) scope(v *value, ctx *fcCtx, what string) (*tsdl.Type, error) {
	t, err := p.fieldClass(v, ctx)
	if err != nil {
		return nil, err
	}
	if t.Kind != tsdl.KindStruct {
		return nil, errorf(v.off, "the %s field class is a %s: it must be a structure", what, t.Kind)
	}
	return t, nil
}
