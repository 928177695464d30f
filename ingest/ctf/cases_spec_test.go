package ctf

import (
	"strings"
)

// Conformance cases of issue 17: constructs where the reader must follow
// the CTF 1.8.3 specification, some of which babeltrace2 reads
// differently (then the case carries the specification's output in
// specOut and MANIFEST records babeltrace2's exit status for reference).

// specValidCases are valid traces exercising the constructs.
func specValidCases() []ctfCase {
	var cs []ctfCase
	one := func(p *pktw) { p.event(0, t0).u8(1) }

	c := simple("decl-order", "a stream class declared after the events that refer to it",
		`event { name = "e"; id = 0; stream_id = 0; fields := struct { uint8_t n; }; };`, one)
	c.files["metadata"] = []byte(stdPrelude + `event { name = "e"; id = 0; stream_id = 0; fields := struct { uint8_t n; }; };` + stdStream)
	cs = append(cs, c)

	c = simple("ust-per-process-name", "an LTTng-UST per-process trace: lines name it hostname:procname:(vpid) from the env",
		`event { name = "e"; id = 0; fields := struct { uint8_t n; }; };`, one)
	c.files["metadata"] = []byte(strings.Replace(string(c.files["metadata"]), `domain = "ust";`,
		`domain = "ust"; tracer_name = "lttng-ust"; tracer_major = 2; tracer_minor = 12; buffering_scheme = "pid"; procname = "app"; vpid = 4242;`, 1))
	cs = append(cs, c)

	c = simple("names-keywords", "field, _field and __field are three fields: one leading underscore is removed (_struct, _int) unless the result names a sibling",
		`event { name = "e"; id = 0; fields := struct {
			uint8_t field;
			uint8_t _field;
			uint8_t __field;
			uint8_t _struct;
			uint8_t _int;
		}; };`, func(p *pktw) { p.event(0, t0).u8(1).u8(2).u8(3).u8(4).u8(5) })
	c.specOut = "[1600000000.000001000] testhost e: { cpu_id = 0 }, { field = 1, _field = 2, __field = 3, struct = 4, int = 5 }\n"
	cs = append(cs, c)

	cs = append(cs, simple("struct-in-fields", "a structure declared inside a structure's field list, then used by name",
		`event { name = "e"; id = 0; fields := struct {
			struct inner { uint8_t a; uint16_t b; } x;
			struct inner y;
			uint8_t n;
		}; };`, func(p *pktw) { p.event(0, t0).u8(1).u16(2).u8(3).u16(4).u8(5) }))

	cs = append(cs, simple("string-escapes", "string literal escapes in metadata: every C escape, octal and hexadecimal",
		`event { name = "e\x41\101\t\"\\\?\'\a\b\f\n\r\v"; id = 0; fields := struct { uint8_t n; }; };`, one))

	c = simple("clock-negative-cycles", "a negative clock offset in cycles together with offset_s",
		`event { name = "e"; id = 0; fields := struct { uint8_t n; }; };`, func(p *pktw) {
			p.event(0, t0).u8(1)
			p.event(0, t0+2_000_000_000).u8(2)
		})
	c.files["metadata"] = []byte(strings.Replace(string(c.files["metadata"]), "offset = 1600000000000000000;", "offset_s = 10; offset = -1500000000;", 1))
	c.specOut = "[8.500001000] testhost e: { cpu_id = 0 }, { n = 1 }\n[10.500001000] testhost e: { cpu_id = 0 }, { n = 2 }\n"
	cs = append(cs, c)

	return cs
}

// specInvalidCases are traces the specification makes invalid.
func specInvalidCases() []ctfCase {
	var cs []ctfCase
	one := func(p *pktw) { p.event(0, t0).u8(1) }
	meta := func(name, about, events string) {
		cs = append(cs, simple(name, about, events, one))
	}
	meta("array-size-ident", "a typedef'd array whose size is an identifier that names no field", `typedef uint32_t A[x];
		event { name = "e"; id = 0; fields := struct { uint8_t x; A a; }; };`)
	meta("array-size-keyword", "an array whose size is the keyword typedef", `event { name = "e"; id = 0; fields := struct { uint8_t n; uint8_t a[typedef]; }; };`)
	meta("array-size-type", "an array whose size is a type name", `event { name = "e"; id = 0; fields := struct { uint8_t n; uint8_t a[uint32_t]; }; };`)
	meta("enum-value-out-of-range", "an enumeration value its container cannot hold", `event { name = "e"; id = 0; fields := struct { enum : uint8_t { A = 0, B = 300 } n; }; };`)
	meta("enum-negative-unsigned", "a negative enumeration value in an unsigned container", `event { name = "e"; id = 0; fields := struct { enum : uint8_t { A = -1 } n; }; };`)
	meta("enum-implicit-overflow", "implicit enumeration values running past the container's range", `event { name = "e"; id = 0; fields := struct { enum : integer { size = 2; align = 8; } { A = 2, B, C } n; }; };`)
	meta("encoding-string", "an integer encoding given as a string literal", `event { name = "e"; id = 0; fields := struct { integer { size = 8; align = 8; encoding = "ascii"; } n; }; };`)
	meta("variant-label-spaces", "an enumeration label \" sel1 \" does not select the variant option sel1", `event { name = "e"; id = 0; fields := struct {
			enum : uint8_t { " sel1 " = 0, sel2 = 1 } t; variant <t> { uint8_t sel1; uint16_t sel2; } v; }; };`)
	meta("variant-tag-keyword", "a variant tag that is a keyword", `event { name = "e"; id = 0; fields := struct {
			enum : uint8_t { a = 0 } variant; variant <variant> { uint8_t a; } v; }; };`)

	c := simple("metadata-mixed-byte-order", "packetized metadata whose packets disagree on byte order",
		`event { name = "e"; id = 0; fields := struct { uint8_t n; }; };`, one)
	le := packetize(c.files["metadata"], false, 3)
	be := packetize(c.files["metadata"], true, 3)
	// Packets have the same size in both orders: keep the first little-endian
	// packet, take the rest big-endian.
	first := packetSize(le)
	c.files["metadata"] = append(append([]byte{}, le[:first]...), be[first:]...)
	cs = append(cs, c)

	p := stdPacket(0, t0, 0, 0)
	p.event(0, t0).u8(1)
	p.event(1, t0+1)
	b := p.finish()
	// The content ends right after the empty event's header: its payload,
	// empty but aligned to 64 bits, starts past the content.
	w := bitbuf{b: b}
	w.patch64(p.sizesAt, uint64(p.content))
	cs = append(cs, ctfCase{name: "empty-event-past-content", about: "an empty event whose aligned payload starts past the packet content",
		files: map[string][]byte{"metadata": []byte(stdPrelude + stdStream + emptyAlignedEvents), "stream_0": w.b}})
	return cs
}

// packetSize is the size in bytes of the first metadata packet of m.
func packetSize(m []byte) int {
	return int(uint32(m[28])|uint32(m[29])<<8|uint32(m[30])<<16|uint32(m[31])<<24) / 8
}
