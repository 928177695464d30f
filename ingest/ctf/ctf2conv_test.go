package ctf

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// A test-only converter from CTF 1.8 metadata, as the compiler sees it
// (meanings found by reserved names, lengths and tags resolved to nodes),
// to CTF 2 fragments describing the same data streams: meanings become
// roles, resolved paths become field locations (relative for a sibling,
// else absolute), enumeration-tagged variants become range-selected ones,
// char arrays and sequences become sized strings, the packet header's
// uuid a 16-byte BLOB.

// Update is the -update flag, for the external tests' generators.
var Update = update

// ToCTF2 converts the metadata of a CTF 1.8 trace directory to CTF 2.
var ToCTF2 = toCTF2

// obj is a JSON object written in the order its keys are added.
type obj []kv

type kv struct {
	k string
	v any
}

func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range o {
		if i > 0 {
			b.WriteString(", ")
		}
		k, _ := json.Marshal(e.k)
		b.Write(k)
		b.WriteString(": ")
		v, err := json.Marshal(e.v)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func toCTF2(dir string) ([]byte, error) {
	meta, err := ReadMetadata(dir)
	if err != nil {
		return nil, err
	}
	tp, err := compileTrace(meta, false)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	frag := func(o obj) error {
		b, err := json.Marshal(o)
		if err != nil {
			return err
		}
		out.WriteByte(0x1E)
		out.Write(b)
		out.WriteByte('\n')
		return nil
	}
	pre := obj{{"type", "preamble"}, {"version", 2}}
	if meta.HasUUID {
		u := make([]int, 16)
		for i, b := range meta.UUID {
			u[i] = int(b)
		}
		pre = append(pre, kv{"uuid", u})
	}
	if err := frag(pre); err != nil {
		return nil, err
	}
	tc := obj{{"type", "trace-class"}}
	if meta.HasUUID {
		// As LTTng does: the trace class's uid is the trace UUID's text.
		u := meta.UUID
		tc = append(tc, kv{"uid", fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])})
	}
	if len(meta.Env) > 0 {
		env := obj{}
		for _, e := range meta.Env {
			if e.IsStr {
				env = append(env, kv{e.Name, e.Str})
			} else {
				env = append(env, kv{e.Name, e.Int})
			}
		}
		tc = append(tc, kv{"environment", env})
	}
	cv := &conv{uuid: meta.HasUUID}
	if tp.header != nil {
		h, err := cv.fc(tp.header)
		if err != nil {
			return nil, err
		}
		tc = append(tc, kv{"packet-header-field-class", h})
	}
	if err := frag(tc); err != nil {
		return nil, err
	}
	clocks := map[*tsdl.Clock]bool{}
	for _, sp := range tp.streams {
		if c := sp.clock; c != nil && !clocks[c] {
			clocks[c] = true
			if err := frag(clockClass(c)); err != nil {
				return nil, err
			}
		}
	}
	for _, sp := range tp.streams {
		ds := obj{{"type", "data-stream-class"}, {"id", sp.meta.ID}}
		if sp.clock != nil {
			ds = append(ds, kv{"default-clock-class-id", sp.clock.Name})
		}
		for _, s := range []struct {
			key string
			n   *node
		}{{"packet-context-field-class", sp.pktCtx}, {"event-record-header-field-class", sp.header}, {"event-record-common-context-field-class", sp.streamCtx}} {
			if s.n != nil {
				f, err := cv.fc(s.n)
				if err != nil {
					return nil, err
				}
				ds = append(ds, kv{s.key, f})
			}
		}
		if err := frag(ds); err != nil {
			return nil, err
		}
		for _, ep := range sp.events {
			ev := obj{{"type", "event-record-class"}, {"id", ep.meta.ID}, {"data-stream-class-id", sp.meta.ID}, {"name", ep.meta.Name}}
			for _, s := range []struct {
				key string
				n   *node
			}{{"specific-context-field-class", ep.ctx}, {"payload-field-class", ep.payload}} {
				if s.n != nil {
					f, err := cv.fc(s.n)
					if err != nil {
						return nil, err
					}
					ev = append(ev, kv{s.key, f})
				}
			}
			if err := frag(ev); err != nil {
				return nil, err
			}
		}
	}
	return out.Bytes(), nil
}

func clockClass(c *tsdl.Clock) obj {
	// Offset in cycles, normalised to 0 <= cycles < frequency.
	s, cy := c.OffsetS, c.Offset
	f := int64(c.Freq)
	if c.Freq <= 1<<62 {
		s += cy / f
		cy %= f
		if cy < 0 {
			cy += f
			s--
		}
	}
	o := obj{{"type", "clock-class"}, {"id", c.Name}, {"name", c.Name}, {"frequency", c.Freq},
		{"offset-from-origin", obj{{"seconds", s}, {"cycles", cy}}}, {"precision", c.Precision}}
	if c.Absolute || c.Name == "monotonic" {
		// babeltrace2 gives CTF 1.8 clocks named monotonic the Unix
		// epoch as origin (LTTng's); traces then correlate.
		o = append(o, kv{"origin", "unix-epoch"})
	}
	if c.Description != "" {
		o = append(o, kv{"description", c.Description})
	}
	if c.HasUUID {
		u := c.UUID
		o = append(o, kv{"uid", fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])})
	}
	return o
}

var roleOf = map[meaning]string{
	meanMagic: "packet-magic-number", meanStreamID: "data-stream-class-id", meanStreamInstanceID: "data-stream-id",
	meanEventID: "event-record-class-id", meanTSBegin: "default-clock-timestamp", meanTSEnd: "packet-end-default-clock-timestamp",
	meanContentSize: "packet-content-length", meanPacketSize: "packet-total-length",
	meanDiscarded: "discarded-event-record-counter-snapshot", meanSeqNum: "packet-sequence-number",
}

type conv struct{ uuid bool }

func byteOrder(n *node) string {
	if n.bigEndian {
		return "big-endian"
	}
	return "little-endian"
}

func (cv *conv) fc(n *node) (obj, error) {
	switch n.kind {
	case tsdl.KindInt, tsdl.KindEnum:
		o := obj{{"type", "fixed-length-unsigned-integer"}}
		if n.signed {
			o[0].v = "fixed-length-signed-integer"
		}
		o = append(o, kv{"length", n.size}, kv{"byte-order", byteOrder(n)}, kv{"alignment", n.align})
		if n.base != 10 && n.base != 0 {
			o = append(o, kv{"preferred-display-base", n.base})
		}
		if n.kind == tsdl.KindEnum {
			m := obj{}
			for _, mp := range n.typ.Mappings {
				var rs [][2]any
				for _, r := range mp.Ranges {
					if n.signed {
						rs = append(rs, [2]any{int64(r.Lo), int64(r.Hi)})
					} else {
						rs = append(rs, [2]any{r.Lo, r.Hi})
					}
				}
				m = append(m, kv{mp.Label, rs})
			}
			o = append(o, kv{"mappings", m})
		}
		var roles []string
		if r, ok := roleOf[n.meaning]; ok {
			roles = append(roles, r)
		} else if n.clock != nil && (n.scope == scopePacketContext || n.scope == scopeEventHeader) {
			roles = append(roles, "default-clock-timestamp")
		} else if n.clock != nil {
			return nil, fmt.Errorf("%s: CTF 2 maps no clock in %s", n.orig, scopeNames[n.scope])
		}
		if len(roles) > 0 {
			if n.signed {
				return nil, fmt.Errorf("%s: a signed %s cannot have a CTF 2 role", n.orig, roles[0])
			}
			o = append(o, kv{"roles", roles})
		}
		return o, nil
	case tsdl.KindFloat:
		return obj{{"type", "fixed-length-floating-point-number"}, {"length", n.size}, {"byte-order", byteOrder(n)}, {"alignment", n.align}}, nil
	case tsdl.KindString:
		return obj{{"type", "null-terminated-string"}}, nil
	case tsdl.KindStruct:
		ms := []obj{}
		for _, ch := range n.children {
			f, err := cv.fc(ch)
			if err != nil {
				return nil, err
			}
			ms = append(ms, obj{{"name", ch.name}, {"field-class", f}})
		}
		o := obj{{"type", "structure"}, {"member-classes", ms}}
		if n.align > 1 {
			o = append(o, kv{"minimum-alignment", n.align})
		}
		return o, nil
	case tsdl.KindVariant:
		var opts []obj
		for i, ch := range n.children {
			var rs [][2]any
			for _, c := range n.choices {
				if c.opt != i {
					continue
				}
				if n.tagNode.signed {
					rs = append(rs, [2]any{int64(c.lo), int64(c.hi)})
				} else {
					rs = append(rs, [2]any{c.lo, c.hi})
				}
			}
			if len(rs) == 0 {
				continue // never selected
			}
			f, err := cv.fc(ch)
			if err != nil {
				return nil, err
			}
			opts = append(opts, obj{{"name", ch.name}, {"selector-field-ranges", rs}, {"field-class", f}})
		}
		return obj{{"type", "variant"}, {"selector-field-location", location(n, n.tagNode)}, {"options", opts}}, nil
	case tsdl.KindArray, tsdl.KindSequence:
		seq := n.kind == tsdl.KindSequence
		switch {
		case n.meaning == meanUUID && cv.uuid:
			return obj{{"type", "static-length-blob"}, {"length", 16}, {"roles", []string{"metadata-stream-uuid"}}}, nil
		case n.text && seq:
			return obj{{"type", "dynamic-length-string"}, {"length-field-location", location(n, n.lenNode)}}, nil
		case n.text:
			return obj{{"type", "static-length-string"}, {"length", n.length}}, nil
		}
		el, err := cv.fc(n.elem)
		if err != nil {
			return nil, err
		}
		o := obj{{"type", "static-length-array"}}
		if seq {
			o[0].v = "dynamic-length-array"
			o = append(o, kv{"length-field-location", location(n, n.lenNode)})
		} else {
			o = append(o, kv{"length", n.length})
		}
		o = append(o, kv{"element-field-class", el})
		if n.align > n.elem.align {
			o = append(o, kv{"minimum-alignment", n.align})
		}
		return o, nil
	}
	return nil, fmt.Errorf("%s: a %s has no CTF 2 equivalent here", n.orig, n.kind)
}

var originNames = [numScopes]string{"packet-header", "packet-context", "event-record-header",
	"event-record-common-context", "event-record-specific-context", "event-record-payload"}

// location is the CTF 2 location of target as seen from dep: relative
// when target is dep's sibling, else absolute (array elements and variant
// options are not path steps).
func location(dep, target *node) obj {
	if dep.parent != nil && dep.parent == target.parent && dep.parent.kind == tsdl.KindStruct {
		return obj{{"path", []string{target.name}}}
	}
	var path []string
	for n := target; n.parent != nil; n = n.parent {
		if n.parent.kind == tsdl.KindStruct {
			path = append(path, n.name)
		}
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return obj{{"origin", originNames[target.scope]}, {"path", path}}
}
