package ctf

import (
	"slices"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// Passes over a stream's compiled field tree: clocks mapped to
// timestamps, the event id and IR fields marked, labels set, fields
// exposed by name, loops checked.

// autoMapClock maps unmapped integers with the given name (anywhere in
// the structure and its variants) to clk.
func autoMapClock(n *node, name string, clk *tsdl.Clock) {
	if n == nil {
		return
	}
	for _, ch := range n.children {
		if ch.name == name && (ch.kind == tsdl.KindInt || ch.kind == tsdl.KindEnum) && ch.clock == nil {
			ch.clock = clk
		}
		if ch.kind == tsdl.KindStruct || ch.kind == tsdl.KindVariant {
			autoMapClock(ch, name, clk)
		}
	}
}

// refuseWide refuses integers wider than 64 bits that carry one of the
// given names anywhere in the structure and its variants: the reader
// would take them for a timestamp, a size or an id, which are 64 bits at
// most.
func refuseWide(n *node, names ...string) error {
	if n == nil {
		return nil
	}
	for _, ch := range n.children {
		if ch.kind == tsdl.KindWideInt && slices.Contains(names, ch.name) {
			return planError(ch.typ, "%s.%s is a %d-bit integer: a %s must be 64 bits at most", scopeNames[ch.scope], ch.orig, ch.size, ch.name)
		}
		if ch.kind == tsdl.KindStruct || ch.kind == tsdl.KindVariant {
			if err := refuseWide(ch, names...); err != nil {
				return err
			}
		}
	}
	return nil
}

// findClock sets *clk to the clock the integers of n map to, and refuses
// a second, different one.
func findClock(n *node, clk **tsdl.Clock) error {
	if n == nil {
		return nil
	}
	if n.clock != nil {
		if *clk != nil && *clk != n.clock {
			return planError(n.typ, "a stream uses two clocks (%q and %q)", (*clk).Name, n.clock.Name)
		}
		*clk = n.clock
	}
	for _, ch := range n.children {
		if err := findClock(ch, clk); err != nil {
			return err
		}
	}
	if n.elem != nil {
		return findClock(n.elem, clk)
	}
	return nil
}

func hasClock(n *node) bool {
	var c *tsdl.Clock
	_ = findClock(n, &c)
	return c != nil
}

// markEventID gives the event-id meaning to every integer named "id" in
// the event header (through structures; variant options and array
// elements are not matched by their own name), as babeltrace2 does.
func markEventID(n *node) bool {
	if n == nil {
		return false
	}
	found := false
	switch n.kind {
	case tsdl.KindStruct:
		for _, ch := range n.children {
			if ch.name == "id" && (ch.kind == tsdl.KindInt || ch.kind == tsdl.KindEnum) {
				ch.meaning = meanEventID
				found = true
			}
			if markEventID(ch) {
				found = true
			}
		}
	case tsdl.KindVariant:
		for _, ch := range n.children {
			if markEventID(ch) {
				found = true
			}
		}
	case tsdl.KindArray, tsdl.KindSequence:
		return markEventID(n.elem)
	}
	return found
}

// markIR decides what babeltrace2 prints (its "in IR" rule): an integer
// unless it maps to a clock or has a meaning, or when a printed sequence
// or variant depends on it; a structure if it is empty or has a printed
// member; a variant, array or sequence if an option or the element is.
// Dependents are visited before their targets (reverse order).
func markIR(n *node) {
	switch n.kind {
	case tsdl.KindInt, tsdl.KindEnum, tsdl.KindVarInt:
		n.inIR = (n.clock == nil && n.meaning == meanNone) || n.needed
	case tsdl.KindStruct:
		n.inIR = len(n.children) == 0
		for i := len(n.children) - 1; i >= 0; i-- {
			markIR(n.children[i])
			if n.children[i].inIR {
				n.inIR = true
			}
		}
	case tsdl.KindVariant, tsdl.KindOptional:
		for i := len(n.children) - 1; i >= 0; i-- {
			markIR(n.children[i])
			if n.children[i].inIR {
				n.inIR = true
			}
		}
		if n.inIR {
			for _, ch := range n.children {
				ch.inIR = true
			}
			n.tagNode.needed = true
		}
	case tsdl.KindArray, tsdl.KindSequence:
		markIR(n.elem)
		n.inIR = n.elem.inIR
		if n.inIR && n.lenNode != nil {
			n.lenNode.needed = true
		}
	default:
		n.inIR = true
	}
}

// setLabels sets what the formatter prints before each member.
func setLabels(n *node) {
	if n == nil {
		return
	}
	n.shown = n.inIR
	n.label = []byte(" " + n.name + " = ")
	for _, ch := range n.children {
		setLabels(ch)
	}
	setLabels(n.elem)
}

// expose assigns Event.Fields indexes to the printed scalar members of a
// scope root and appends their names and kinds.
func expose(root *node, prefix string, names *[]string, kinds *[]core.FieldKind) {
	if root == nil || !root.inIR {
		return
	}
	for _, ch := range root.children {
		if !ch.inIR {
			continue
		}
		var k core.FieldKind
		switch ch.kind {
		case tsdl.KindInt, tsdl.KindVarInt:
			k = core.FieldUint
			if ch.signed {
				k = core.FieldInt
			}
		case tsdl.KindEnum:
			k = core.FieldEnum
		case tsdl.KindFloat:
			k = core.FieldFloat
		case tsdl.KindString, tsdl.KindWideInt:
			k = core.FieldString
		case tsdl.KindArray, tsdl.KindSequence:
			if !ch.text {
				continue
			}
			k = core.FieldString
		default:
			continue
		}
		ch.field = int32(len(*names))
		*names = append(*names, prefix+ch.name)
		*kinds = append(*kinds, k)
	}
}

// checkLoops refuses programs whose arrays nest deeper than the decoder's
// loop stack.
func checkLoops(p program) error {
	depth := 0
	for _, o := range p {
		switch o.code {
		case opArray, opSeq:
			depth++
			if depth > maxLoopDepth {
				return planError(nil, "arrays nested more than %d deep", maxLoopDepth)
			}
		case opLoopEnd:
			depth--
		}
	}
	return nil
}
