package ctf

import (
	"bytes"
	"sort"

	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// Printing the CTF 2 field classes TSDL has no counterpart for, as
// babeltrace2 2.1 does: booleans "true"/"false", bit arrays in upper-case
// hexadecimal, bit maps followed by their active flags, sorted, in
// braces; LEB128 integers as integers; BLOBs as lower-case hexadecimal
// bytes in braces; optionals as "{ value }" or "<none>".

// appendFlavored formats a boolean, bit array or bit map.
func appendFlavored(dst []byte, n *node, v uint64) []byte {
	switch n.typ.Flavor {
	case tsdl.FlavorBool:
		if v != 0 {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case tsdl.FlavorBitMap:
		dst = append(dst, "0x"...)
		dst = appendUpperHex(dst, v)
		var active [][]byte
		for i, m := range n.typ.Mappings {
			for _, r := range m.Ranges {
				if v&bitRange(r.Lo, r.Hi) != 0 {
					active = append(active, n.labels[i])
					break
				}
			}
		}
		if len(active) == 0 {
			return dst
		}
		sort.Slice(active, func(i, j int) bool { return bytes.Compare(active[i], active[j]) < 0 })
		dst = append(dst, " { "...)
		for i, l := range active {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = appendEscaped(dst, l)
		}
		return append(dst, " }"...)
	}
	dst = append(dst, "0x"...)
	return appendUpperHex(dst, v)
}

// ctf2Field formats (when emit) or skips a LEB128 integer or an optional.
func (p *printer) ctf2Field(dst []byte, n *node, emit bool) []byte {
	switch n.kind {
	case tsdl.KindVarInt:
		p.pos = alignUp(p.pos, 8)
		if p.pos < p.base || p.pos > p.limit {
			return dst
		}
		v, k, ok, err := varInt(p.data, (p.pos-p.base)>>3, (p.limit-p.base)>>3, n.signed)
		if !ok || err != nil {
			return dst
		}
		p.pos += k * 8
		if n.slot >= 0 {
			p.slots[n.slot] = v
		}
		if emit {
			if len(n.typ.Mappings) > 0 {
				dst = appendMappings(dst, n, v)
			} else {
				dst = appendInt(dst, n, v)
			}
		}
	case tsdl.KindOptional:
		v := p.slots[n.tagNode.slot]
		on := false
		for _, c := range n.choices {
			if (n.tagNode.signed && int64(c.lo) <= int64(v) && int64(v) <= int64(c.hi)) || (!n.tagNode.signed && c.lo <= v && v <= c.hi) {
				on = true
				break
			}
		}
		if !on {
			if emit {
				dst = append(dst, "<none>"...)
			}
			return dst
		}
		if emit {
			dst = append(dst, "{ "...)
		}
		dst = p.field(dst, n.children[0], emit)
		if emit {
			dst = append(dst, " }"...)
		}
	}
	return dst
}

// blob formats count bytes as "{ de ad be ef }".
func (p *printer) blob(dst []byte, count uint64, emit bool) []byte {
	i := (p.pos - p.base) >> 3
	avail := (p.limit - p.base) >> 3
	if i < 0 || i > avail || count > uint64(avail-i) {
		return dst
	}
	if emit {
		dst = append(dst, '{')
		for _, b := range p.data[i : i+int64(count)] {
			dst = append(dst, ' ', "0123456789abcdef"[b>>4], "0123456789abcdef"[b&15])
		}
		dst = append(dst, " }"...)
	}
	p.pos += int64(count) * 8
	return dst
}

// bitRange is the mask of bits lo to hi (hi < 64: package ctf2 checks
// flag ranges against the bit map's length).
func bitRange(lo, hi uint64) uint64 {
	if lo > 63 {
		return 0
	}
	hi = min(hi, 63)
	if hi-lo >= 63 {
		return ^uint64(0)
	}
	return (1<<(hi-lo+1) - 1) << lo
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
