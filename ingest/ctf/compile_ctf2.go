package ctf

import (
	"bytes"
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
	for _, step := range loc.Path {
		if step == "" {
			if fi < 0 {
				return nil, planError(src, "field location steps up from a field outside the one being decoded")
			}
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
			cur, fi = next, -1
		case fi >= 0 && fi+1 < len(c.stack) && cur.typ.Fields[c.stack[fi].idx].Name == step:
			// The member being decoded: its structure, or the element
			// of its array being decoded.
			fi++
			cur = c.stack[fi].n
		default:
			return nil, planError(src, "field location doesn't locate anything (%q is not decoded before the field that uses it)", step)
		}
		// Into a variant being decoded: the option being decoded.
		for fi >= 0 && cur.kind == tsdl.KindVariant && fi+1 < len(c.stack) {
			fi++
			cur = c.stack[fi].n
		}
	}
	return c.checkTarget(cur, cur.orig, src)
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
	for i, f := range t.Fields {
		for _, r := range f.Ranges {
			if !tag.signed && r.Lo > r.Hi {
				return planError(t, "variant option #%d: negative selector range for an unsigned selector", i)
			}
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

// roleMeanings gives the packet header or packet context members their
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
	if (n.kind == tsdl.KindInt || n.kind == tsdl.KindEnum) && n.typ.Roles&tsdl.RoleEventClassID != 0 {
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

// appendMappings formats an integer with mappings as babeltrace2 2.1
// does (CTF 2 is read by 2.1 only): the labels whose ranges hold the
// value, in byte order, in braces when there are several.
func appendMappings(dst []byte, n *node, v uint64) []byte {
	var found [][]byte
	for i, m := range n.typ.Mappings {
		for _, r := range m.Ranges {
			if r.Contains(v, n.signed) {
				found = append(found, n.labels[i])
				break
			}
		}
	}
	dst = append(dst, "( "...)
	switch len(found) {
	case 0:
		dst = append(dst, "<unknown>"...)
	case 1:
		dst = appendEscaped(dst, found[0])
	default:
		sort.Slice(found, func(i, j int) bool { return bytes.Compare(found[i], found[j]) < 0 })
		dst = append(dst, "{ "...)
		for i, l := range found {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = appendEscaped(dst, l)
		}
		dst = append(dst, " }"...)
	}
	dst = append(dst, " : container = "...)
	dst = appendInt(dst, n, v)
	return append(dst, " )"...)
}
