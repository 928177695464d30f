package ctf

import (
	"fmt"
	"strings"

	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// A decoding plan is compiled from the metadata in two forms:
//
//   - a tree of nodes per dynamic scope (packet header, packet context,
//     event header, stream event context, event context, payload), with
//     sequence lengths and variant tags resolved to the node holding them,
//     and babeltrace2's rules of what is printed applied; the formatter
//     walks it;
//   - a flat list of ops per scope, generated from the tree, that the
//     decoder runs for every event (ops.go).
//
// Every integer node owns a value slot: the decoder stores each integer it
// reads in its slot, so sequences and variants find their length or tag by
// slot index, never by name.

// scopeKind names the dynamic scopes, in decoding order.
type scopeKind uint8

const (
	scopePacketHeader scopeKind = iota
	scopePacketContext
	scopeEventHeader
	scopeStreamContext
	scopeEventContext
	scopePayload
	numScopes
)

var scopeNames = [numScopes]string{"trace.packet.header", "stream.packet.context", "stream.event.header", "stream.event.context", "event.context", "event.fields"}

// meaning marks the integers the decoder itself uses (babeltrace2's
// "meanings"); they are not printed.
type meaning uint8

const (
	meanNone meaning = iota
	meanMagic
	meanStreamID
	meanStreamInstanceID
	meanEventID
	meanTSBegin
	meanTSEnd
	meanContentSize
	meanPacketSize
	meanDiscarded
	meanSeqNum
	meanUUID // the uuid array of the packet header
)

// node is one field of a compiled scope.
type node struct {
	kind      tsdl.Kind
	name      string // as printed: written name without one leading '_'
	orig      string // as written, for path lookups
	typ       *tsdl.Type
	parent    *node
	scope     scopeKind
	seq       int // pre-order index in its scope: decoding order
	inArray   *node
	size      int
	align     int
	signed    bool
	bigEndian bool
	base      int

	slot    int32       // integers and enums: value slot
	clock   *tsdl.Clock // integers mapped to a clock update the stream clock
	meaning meaning
	inIR    bool   // babeltrace2 prints it
	shown   bool   // printed as a member of its structure (inIR, not hidden)
	label   []byte // " name = ", as printed before its value
	needed  bool   // a sequence or variant in the IR depends on it
	// referenced: some sequence or variant reads its value.
	referenced bool

	children []*node // struct members, variant options
	elem     *node   // array and sequence element
	length   uint64  // array length
	lenNode  *node   // sequence length
	tagNode  *node   // variant tag
	choices  []choice
	text     bool     // char array or sequence printed as a string
	labels   [][]byte // enum mapping labels, for exposed enum fields
	field    int32    // index in core.Event.Fields, -1 if not exposed
	fixed    int64    // size in bits when every instance has the same layout, else -1
}

// choice maps a range of tag values to a variant option.
type choice struct {
	lo, hi uint64
	opt    int
}

// planError is a problem found while compiling the plan: invalid metadata
// (unresolvable path, wrong target type...).
func planError(t *tsdl.Type, format string, a ...any) error {
	e := &tsdl.Error{Reason: fmt.Sprintf(format, a...)}
	if t != nil {
		e.Line, e.Byte = t.Line, t.Byte
	}
	return e
}

// maxNodes bounds the size of the compiled plan: typedefs can nest types
// so that a small metadata text expands exponentially.
const maxNodes = 1 << 18

// compiler builds the node trees of one stream class.
type compiler struct {
	roots  [numScopes]*node // scopes compiled so far, for absolute paths
	nslots int32
	nodes  int
	clocks []*tsdl.Clock // the trace's clocks, for auto-mapping timestamps
	// stack of (compound, index of the child being compiled), for
	// relative paths.
	stack []frame
	scope scopeKind
	seq   int
	depth int
	ctf2  bool // CTF 2 metadata: roles, field locations, names as written
}

type frame struct {
	n   *node
	idx int
}

// stripName removes one leading underscore, as babeltrace2 prints names.
func stripName(s string) string { return strings.TrimPrefix(s, "_") }

// printedName is the name printed for a member: one leading underscore
// removed (CTF 1.8.3 sections 4.2.1 and 7.3.2: "_struct" prints as
// struct), unless the result is the written name of a sibling, so that
// field, _field and __field stay three fields (babeltrace2 refuses them).
func (c *compiler) printedName(orig string, parent *node) string {
	if c.ctf2 {
		return orig // CTF 2 names are printed as written
	}
	name := stripName(orig)
	if name == orig || parent == nil {
		return name
	}
	for _, f := range parent.typ.Fields {
		if f.Name == name {
			return orig
		}
	}
	return name
}

// compileScope compiles the root structure of a scope.
func (c *compiler) compileScope(k scopeKind, t *tsdl.Type) (*node, error) {
	c.roots[k] = nil
	if t == nil {
		return nil, nil
	}
	c.scope, c.seq, c.stack = k, 0, c.stack[:0]
	n, err := c.compile(t, "", nil, nil)
	if err != nil {
		return nil, err
	}
	c.roots[k] = n
	return n, nil
}

func (c *compiler) compile(t *tsdl.Type, orig string, parent, inArray *node) (*node, error) {
	c.nodes++
	if c.nodes > maxNodes {
		return nil, planError(t, "metadata expands to more than %d fields", maxNodes)
	}
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > 2*maxDepth {
		return nil, planError(t, "fields nested more than %d deep", 2*maxDepth)
	}
	n := &node{
		kind: t.Kind, name: c.printedName(orig, parent), orig: orig, typ: t, parent: parent, scope: c.scope,
		seq: c.seq, inArray: inArray, size: t.Size, align: t.Align, signed: t.Signed,
		bigEndian: t.BigEndian, base: t.Base, slot: -1, field: -1, clock: t.Clock,
	}
	c.seq++
	switch t.Kind {
	case tsdl.KindOptional:
		if err := c.compileOptional(n, t, inArray); err != nil {
			return nil, err
		}
	case tsdl.KindInt, tsdl.KindEnum, tsdl.KindVarInt:
		n.slot = c.nslots
		c.nslots++
		if t.Kind == tsdl.KindVarInt {
			n.size, n.align = 64, 8 // decoded width, for printing
		}
		if len(t.Mappings) > 0 {
			n.labels = make([][]byte, len(t.Mappings))
			for i, m := range t.Mappings {
				n.labels[i] = []byte(m.Label)
			}
		}
	case tsdl.KindStruct, tsdl.KindVariant:
		if t.Kind == tsdl.KindVariant && t.Loc != nil {
			if err := c.selectByRanges(n, t); err != nil {
				return nil, err
			}
		} else if t.Kind == tsdl.KindVariant {
			if t.Tag == "" {
				return nil, planError(t, "variant %q has no tag", orig)
			}
			tag, err := c.resolve(t.Tag, t)
			if err != nil {
				return nil, err
			}
			if tag.kind != tsdl.KindEnum {
				return nil, planError(t, "variant tag %q is a %s, not an enumeration", t.Tag, tag.kind)
			}
			n.tagNode = tag
			if n.choices, err = choices(t, tag.typ); err != nil {
				return nil, err
			}
			n.align = 1
		}
		c.stack = append(c.stack, frame{n: n})
		for i, f := range t.Fields {
			c.stack[len(c.stack)-1].idx = i
			ch, err := c.compile(f.Type, f.Name, n, inArray)
			if err != nil {
				return nil, err
			}
			n.children = append(n.children, ch)
		}
		c.stack = c.stack[:len(c.stack)-1]
	case tsdl.KindArray, tsdl.KindSequence:
		if t.Kind == tsdl.KindSequence && t.Loc != nil {
			ln, err := c.resolveLoc(t.Loc, t)
			if err != nil {
				return nil, err
			}
			if ln.signed {
				return nil, planError(t, "the length of a dynamic-length field is a signed integer")
			}
			n.lenNode = ln
		} else if t.Kind == tsdl.KindSequence {
			ln, err := c.resolve(t.LengthPath, t)
			if err != nil {
				return nil, err
			}
			if (ln.kind != tsdl.KindInt && ln.kind != tsdl.KindEnum) || ln.signed {
				return nil, planError(t, "sequence length %q is not an unsigned integer", t.LengthPath)
			}
			n.lenNode = ln
		}
		n.length = t.Len
		el, err := c.compile(t.Elem, "", n, n)
		if err != nil {
			return nil, err
		}
		n.elem = el
		n.align = el.align
		if c.ctf2 {
			n.align = max(el.align, t.Align) // minimum-alignment
		}
		n.text = (el.kind == tsdl.KindInt || el.kind == tsdl.KindEnum) && el.size == 8 && el.align == 8 &&
			el.typ.Encoding != tsdl.EncodingNone
	}
	n.fixed = fixedSize(n)
	return n, nil
}

// choices builds the variant's option table from its tag's mappings: an
// option is selected by the ranges of the mapping labelled with its name
// as written, first option first. An option no label names exactly can
// never be selected: the metadata is wrong (" sel1 " is not sel1).
func choices(v *tsdl.Type, tag *tsdl.Type) ([]choice, error) {
	var out []choice
	for i, f := range v.Fields {
		found := false
		for _, m := range tag.Mappings {
			if m.Label != f.Name {
				continue
			}
			found = true
			for _, r := range m.Ranges {
				out = append(out, choice{lo: r.Lo, hi: r.Hi, opt: i})
			}
		}
		if !found {
			return nil, planError(v, "variant option %q matches no label of its tag's enumeration (labels must match option names exactly)", f.Name)
		}
	}
	return out, nil
}

// resolve finds the integer a sequence length or a variant tag refers to,
// as babeltrace2 does: an absolute path starts with a scope name; a
// relative path is looked up in the enclosing structures of the current
// scope, innermost first, among the fields declared before.
func (c *compiler) resolve(path string, src *tsdl.Type) (*node, error) {
	tokens := strings.Split(path, ".")
	for k := scopeKind(0); k < numScopes; k++ {
		prefix := scopeNames[k]
		if !strings.HasPrefix(path, prefix+".") {
			continue
		}
		if k > c.scope {
			return nil, planError(src, "%q refers to scope %s, which comes after %s", path, prefix, scopeNames[c.scope])
		}
		root := c.roots[k]
		if k == c.scope {
			root = nil
			if len(c.stack) > 0 {
				root = c.stack[0].n
			}
		}
		if root == nil {
			return nil, planError(src, "%q: scope %s is empty", path, prefix)
		}
		rest := strings.Split(strings.TrimPrefix(path, prefix+"."), ".")
		n := lookupPath(root, rest, -1)
		if n == nil {
			return nil, planError(src, "%q: no such field", path)
		}
		if n.scope == c.scope && n.seq >= c.seq {
			return nil, planError(src, "%q is not decoded before the field that uses it", path)
		}
		return c.checkTarget(n, path, src)
	}
	for i := len(c.stack) - 1; i >= 0; i-- {
		f := c.stack[i]
		if n := lookupPath(f.n, tokens, f.idx); n != nil {
			return c.checkTarget(n, path, src)
		}
	}
	return nil, planError(src, "%q: no such field before it in its scope (use an absolute path such as stream.event.header.%s for other scopes)", path, path)
}

// checkTarget refuses targets inside an array the source is not in: their
// value would be ambiguous.
func (c *compiler) checkTarget(n *node, path string, src *tsdl.Type) (*node, error) {
	if n.kind == tsdl.KindWideInt {
		return nil, planError(src, "%q is a %d-bit integer: sequence lengths and variant tags must be 64 bits at most", path, n.size)
	}
	if n.kind != tsdl.KindInt && n.kind != tsdl.KindEnum && n.kind != tsdl.KindVarInt {
		return nil, planError(src, "%q is a %s, not an integer", path, n.kind)
	}
	n.referenced = true
	if a := n.inArray; a != nil {
		for _, f := range c.stack {
			if f.n == a || f.n.inArray == a {
				return n, nil
			}
		}
		return nil, planError(src, "%q is inside an array", path)
	}
	return n, nil
}

// lookupPath follows names from a compound node; the first name must be a
// child before index before (before < 0: any child).
func lookupPath(n *node, names []string, before int) *node {
	for i, name := range names {
		found := -1
		for j, ch := range n.children {
			if ch.orig == name {
				found = j
				break
			}
		}
		if found < 0 || (i == 0 && before >= 0 && found >= before) {
			return nil
		}
		n = n.children[found]
		if i < len(names)-1 && n.kind != tsdl.KindStruct && n.kind != tsdl.KindVariant {
			return nil
		}
	}
	return n
}

// fixedSize returns the size in bits of a field whose every instance has
// the same layout wherever it starts (given it starts aligned), or -1.
// Such fields (and arrays of them) are skipped by arithmetic.
func fixedSize(n *node) int64 {
	switch n.kind {
	case tsdl.KindInt, tsdl.KindEnum, tsdl.KindFloat, tsdl.KindWideInt:
		return int64(n.size)
	case tsdl.KindStruct:
		var off int64
		for _, ch := range n.children {
			if ch.fixed < 0 {
				return -1
			}
			off = alignUp(off, int64(ch.align)) + ch.fixed
		}
		return off
	case tsdl.KindArray:
		el := n.elem
		if el.fixed < 0 || el.fixed%int64(el.align) != 0 {
			return -1
		}
		if n.length > 0 && uint64(el.fixed) > (1<<40)/n.length {
			return -1
		}
		return el.fixed * int64(n.length)
	}
	return -1
}

func alignUp(v, a int64) int64 { return (v + a - 1) &^ (a - 1) }
