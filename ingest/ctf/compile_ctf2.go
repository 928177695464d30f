package ctf

import (
	"sort"

	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// What the compiler does differently for CTF 2 metadata (package ctf2):
// lengths and selectors are field locations (origin + path, with explicit
// steps up) rather than names searched outward; variant options are
// selected by their own integer ranges; special fields are found by their
// roles rather than by reserved names.

// resolveLoc finds the integer a CTF 2 field location designates.
func (c *compiler) resolveLoc(loc *tsdl.Location, src *tsdl.Type) (*node, error) {
	// fi is cur's frame in c.stack while cur is being compiled (-1: cur
	// is complete, then only its complete members can be reached).
	var cur *node
	fi := -1
	if loc.Origin >= 0 {
		k := scopeKind(loc.Origin)
		switch {
		case k > c.scope:
			return nil, planError(src, "the field location's origin %s is decoded after %s", scopeNames[k], scopeNames[c.scope])
		case k < c.scope:
			if cur = c.roots[k]; cur == nil {
				return nil, planError(src, "the field location's origin %s is empty", scopeNames[k])
			}
		default:
			if len(c.stack) == 0 {
				return nil, planError(src, "field location doesn't locate anything")
			}
			cur, fi = c.stack[0].n, 0
		}
	} else {
		if fi = c.enclosingStruct(len(c.stack) - 1); fi < 0 {
			return nil, planError(src, "field location doesn't locate anything")
		}
		cur = c.stack[fi].n
	}
	for i, step := range loc.Path {
		if fi < 0 {
			// Complete fields from here: their members, or the content
			// of their variants and optionals, whichever was decoded.
			return c.locTargets(cur, loc.Path[i:], src)
		}
		if step == "" {
			if fi = c.enclosingStruct(fi - 1); fi < 0 {
				return nil, planError(src, "field location climbs above its scope's root")
			}
			cur = c.stack[fi].n
			continue
		}
		if cur.kind != tsdl.KindStruct {
			return nil, planError(src, "field location goes through a %s (%q)", cur.kind, cur.orig)
		}
		var next *node
		for _, ch := range cur.children {
			if ch.orig == step {
				next = ch
				break
			}
		}
		switch {
		case next != nil:
			return c.locTargets(next, loc.Path[i+1:], src)
		case fi+1 < len(c.stack) && cur.typ.Fields[c.stack[fi].idx].Name == step:
			// The member being decoded: its structure, or the element
			// of its array being decoded.
			fi++
			cur = c.stack[fi].n
		default:
			return nil, planError(src, "field location doesn't locate anything (%q is not decoded before the field that uses it)", step)
		}
		// Into a variant or optional being decoded: its content.
		for (cur.kind == tsdl.KindVariant || cur.kind == tsdl.KindOptional) && fi+1 < len(c.stack) {
			fi++
			cur = c.stack[fi].n
		}
	}
	return c.checkTarget(cur, cur.orig, src)
}

// locTargets follows the rest of a field location from a complete field.
// Through a variant or an optional, it can reach a field of each option:
// those must be integers of one signedness, and they share one value slot
// (one option is decoded per instance), which the dependent reads.
func (c *compiler) locTargets(n *node, path []string, src *tsdl.Type) (*node, error) {
	var targets []*node
	if err := walkDone(n, path, &targets, 0); err != nil {
		return nil, planError(src, "%v", err)
	}
	if len(targets) == 0 {
		return nil, planError(src, "field location doesn't locate anything")
	}
	first := targets[0]
	for _, t := range targets[1:] {
		if t.referenced && t.slot != first.slot {
			return nil, planError(src, "field location reaches %q, which another field location reaches through other options: not supported", t.orig)
		}
	}
	for _, t := range targets {
		if _, err := c.checkTarget(t, t.orig, src); err != nil {
			return nil, err
		}
		if t.signed != first.signed || (t.typ.Flavor == tsdl.FlavorBool) != (first.typ.Flavor == tsdl.FlavorBool) {
			return nil, planError(src, "field location reaches fields of different kinds (%q, %q): booleans, unsigned and signed integers do not mix", first.orig, t.orig)
		}
	}
	for _, t := range targets[1:] {
		t.slot = first.slot
	}
	return first, nil
}

// walkDone appends to out the fields path reaches from the complete
// field n.
func walkDone(n *node, path []string, out *[]*node, depth int) error {
	if depth > 2*maxDepth {
		return errorString("field location nested too deep")
	}
	switch n.kind {
	case tsdl.KindOptional:
		// Absent when disabled (babeltrace2: "unreachable optional field").
		return errorString("field location goes through an optional (\"" + n.orig + "\") already decoded, which may be absent")
	case tsdl.KindVariant:
		for _, ch := range n.children {
			if err := walkDone(ch, path, out, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if len(path) == 0 {
		*out = append(*out, n)
		return nil
	}
	switch {
	case path[0] == "":
		return errorString("field location steps up from a field outside the one being decoded")
	case n.kind != tsdl.KindStruct:
		return errorString("field location goes through a " + n.kind.String() + " (\"" + n.orig + "\")")
	}
	for _, ch := range n.children {
		if ch.orig == path[0] {
			return walkDone(ch, path[1:], out, depth+1)
		}
	}
	return nil // this option has no such member
}

// enclosingStruct returns the index of the innermost structure frame at or
// below i in c.stack, or -1.
func (c *compiler) enclosingStruct(i int) int {
	for i >= 0 && c.stack[i].n.kind != tsdl.KindStruct {
		i--
	}
	return i
}

// selectByRanges resolves a CTF 2 variant's selector and builds its
// option table from the options' ranges, which must not intersect.
func (c *compiler) selectByRanges(n *node, t *tsdl.Type) error {
	tag, err := c.resolveLoc(t.Loc, t)
	if err != nil {
		return err
	}
	n.tagNode = tag
	n.align = 1
	if tag.typ.Flavor != tsdl.FlavorNone {
		return planError(t, "the selector of a variant is an integer, not a %s", flavorNames[tag.typ.Flavor])
	}
	if err := checkRanges(t, tag); err != nil {
		return err
	}
	for i, f := range t.Fields {
		for _, r := range f.Ranges {
			n.choices = append(n.choices, choice{lo: r.Lo, hi: r.Hi, opt: i})
		}
	}
	less := func(a, b uint64) bool {
		if tag.signed {
			return int64(a) < int64(b)
		}
		return a < b
	}
	sorted := append([]choice(nil), n.choices...)
	sort.Slice(sorted, func(i, j int) bool { return less(sorted[i].lo, sorted[j].lo) })
	for i := 1; i < len(sorted); i++ {
		if !less(sorted[i-1].hi, sorted[i].lo) {
			return planError(t, "variant options #%d and #%d have intersecting selector ranges", sorted[i-1].opt, sorted[i].opt)
		}
	}
	return nil
}

var flavorNames = [...]string{"integer", "boolean", "bit array", "bit map", "BLOB"}

// checkRanges checks a variant's or optional's selector ranges (t.Signed:
// written with a negative bound) against its selector's signedness.
func checkRanges(t *tsdl.Type, sel *node) error {
	for _, f := range t.Fields {
		for _, r := range f.Ranges {
			switch {
			case t.Signed && !sel.signed:
				return planError(t, "negative selector range for an unsigned selector")
			case !t.Signed && sel.signed && (r.Lo > 1<<63-1 || r.Hi > 1<<63-1):
				return planError(t, "selector range bound %d is too large for a signed selector", r.Hi)
			}
		}
	}
	return nil
}

// roleMeaning gives the packet header or packet context members their
// meaning from their roles (CTF 2), as the names do in CTF 1.8.
func roleMeaning(r tsdl.Role) meaning {
	switch {
	case r&tsdl.RolePacketMagic != 0:
		return meanMagic
	case r&tsdl.RoleStreamClassID != 0:
		return meanStreamID
	case r&tsdl.RoleStreamID != 0:
		return meanStreamInstanceID
	case r&tsdl.RolePacketTotalLength != 0:
		return meanPacketSize
	case r&tsdl.RolePacketContentLength != 0:
		return meanContentSize
	case r&tsdl.RoleClockTimestamp != 0:
		return meanTSBegin
	case r&tsdl.RolePacketEndTimestamp != 0:
		return meanTSEnd
	case r&tsdl.RoleDiscardedCounter != 0:
		return meanDiscarded
	case r&tsdl.RolePacketSeqNum != 0:
		return meanSeqNum
	case r&tsdl.RoleMetadataUUID != 0:
		return meanUUID
	}
	return meanNone
}

// markEventIDRoles gives the event-id meaning to every integer of the
// event header with the event-record-class-id role: decoded in order,
// each overwrites the id (LTTng's extended header).
func markEventIDRoles(n *node) bool {
	if n == nil {
		return false
	}
	found := false
	if (n.kind == tsdl.KindInt || n.kind == tsdl.KindEnum || n.kind == tsdl.KindVarInt) && n.typ.Roles&tsdl.RoleEventClassID != 0 {
		n.meaning = meanEventID
		found = true
	}
	for _, ch := range n.children {
		if markEventIDRoles(ch) {
			found = true
		}
	}
	if n.elem != nil && markEventIDRoles(n.elem) {
		found = true
	}
	return found
}

// compileOptional resolves an optional's selector (a boolean, or an
// integer with ranges) and compiles its content as its only child. The
// decoder runs it as a variant whose only option is the content and whose
// unmatched selector values decode nothing.
func (c *compiler) compileOptional(n *node, t *tsdl.Type, inArray *node) error {
	if len(t.Fields) != 1 || t.Loc == nil {
		return planError(t, "optional without content or selector")
	}
	sel, err := c.resolveLoc(t.Loc, t)
	if err != nil {
		return err
	}
	n.tagNode, n.align = sel, 1
	f := t.Fields[0]
	switch {
	case sel.typ.Flavor == tsdl.FlavorBool:
		if len(f.Ranges) > 0 {
			return planError(t, "an optional with a boolean selector has no selector-field-ranges")
		}
		n.choices = []choice{{lo: 1, hi: ^uint64(0)}}
		if sel.signed {
			return planError(t, "optional: signed boolean selector")
		}
	case sel.typ.Flavor != tsdl.FlavorNone:
		return planError(t, "the selector of an optional is a boolean or an integer")
	case len(f.Ranges) == 0:
		return planError(t, "an optional with an integer selector needs selector-field-ranges")
	default:
		if err := checkRanges(t, sel); err != nil {
			return err
		}
		for _, r := range f.Ranges {
			n.choices = append(n.choices, choice{lo: r.Lo, hi: r.Hi})
		}
	}
	c.stack = append(c.stack, frame{n: n})
	ch, err := c.compile(f.Type, "", n, inArray)
	c.stack = c.stack[:len(c.stack)-1]
	if err != nil {
		return err
	}
	n.children = []*node{ch}
	return nil
}
