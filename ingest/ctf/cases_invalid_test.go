package ctf

import (
	"strings"
)

// invalidCases are traces every reader must refuse: bad metadata and
// stream errors. A conforming reader fails with a one-line error, never
// panics, allocates only what the trace's size allows and never hangs.
func invalidCases() []ctfCase {
	var cs []ctfCase
	ev := `event { name = "e"; id = 0; fields := struct { uint8_t n; }; };`
	one := func(p *pktw) { p.event(0, t0).u8(1) }

	// Metadata errors.
	meta := func(name, about, events string) {
		c := simple(name, about, events, one)
		cs = append(cs, c)
	}
	meta("bad-syntax", "a missing semicolon", `event { name = "e"; id = 0; fields := struct { uint8_t n } };`)
	meta("unknown-type", "a field of an undeclared type", `event { name = "e"; id = 0; fields := struct { uint33_t n; }; };`)
	meta("int-size-zero", "an integer of size 0", `event { name = "e"; id = 0; fields := struct { integer { size = 0; } n; }; };`)
	meta("bad-align", "an alignment that is not a power of two", `event { name = "e"; id = 0; fields := struct { integer { size = 8; align = 3; } n; }; };`)
	meta("variant-tag-not-enum", "a variant tagged by an integer", `event { name = "e"; id = 0; fields := struct { uint8_t t; variant <t> { uint8_t a; } v; }; };`)
	meta("seq-length-signed", "a sequence whose length is signed", `event { name = "e"; id = 0; fields := struct { int32_t n; uint8_t s[n]; }; };`)
	meta("seq-length-unknown", "a sequence whose length field does not exist", `event { name = "e"; id = 0; fields := struct { uint8_t s[nope]; }; };`)
	meta("seq-length-after", "a sequence whose length comes after it", `event { name = "e"; id = 0; fields := struct { uint8_t s[n]; uint8_t n; }; };`)
	meta("duplicate-field", "two fields with the same name", `event { name = "e"; id = 0; fields := struct { uint8_t n; uint16_t n; }; };`)
	meta("float-unsupported", "a 16-bit floating point", `event { name = "e"; id = 0; fields := struct { floating_point { exp_dig = 5; mant_dig = 11; } h; }; };`)
	meta("event-unknown-stream", "an event of an undeclared stream", `event { name = "e"; id = 0; stream_id = 5; fields := struct { uint8_t n; }; };`)
	meta("duplicate-event-id", "two events with the same id", ev+` event { name = "f"; id = 0; fields := struct { uint8_t n; }; };`)
	meta("map-unknown-clock", "an integer mapped to an undeclared clock", `event { name = "e"; id = 0; fields := struct { integer { size = 8; map = clock.nope.value; } n; }; };`)
	meta("enum-no-labels", "an empty enumeration", `event { name = "e"; id = 0; fields := struct { enum : uint8_t { } n; }; };`)

	c := simple("bad-version", "CTF 2.0 in the trace block", ev, one)
	c.files["metadata"] = []byte(strings.Replace(string(c.files["metadata"]), "major = 1;", "major = 2;", 1))
	cs = append(cs, c)
	cs = append(cs, textNoSignatureCase())
	c = simple("no-byte-order", "a trace block without byte_order", ev, one)
	c.files["metadata"] = []byte(strings.Replace(string(c.files["metadata"]), "byte_order = le;", "", 1))
	cs = append(cs, c)
	c = simple("metadata-packet-truncated", "a metadata packet larger than the file", ev, one)
	m := packetize(c.files["metadata"], false, 2)
	c.files["metadata"] = m[:len(m)-40]
	cs = append(cs, c)

	// Stream errors.
	stream := func(name, about string, events string, body func(p *pktw), edit func(b []byte, p *pktw) []byte) {
		p := stdPacket(0, t0, 0, 0)
		body(p)
		b := p.finish()
		b = edit(b, p)
		cs = append(cs, ctfCase{name: name, about: about, files: map[string][]byte{
			"metadata": []byte(stdPrelude + stdStream + events), "stream_0": b}})
	}
	evs := `event { name = "e"; id = 0; fields := struct { uint8_t n; }; };
		event { name = "s"; id = 1; fields := struct { uint32_t len; uint8_t seq[len]; }; };
		event { name = "str"; id = 2; fields := struct { string s; }; };
		event { name = "v"; id = 3; fields := struct { enum : uint8_t { A = 0, B = 1 } t; variant <t> { uint8_t A; uint16_t B; } v; }; };`
	three := func(p *pktw) {
		p.event(0, t0).u8(1)
		p.event(0, t0+1).u8(2)
		p.event(0, t0+2).u8(3)
	}
	set64 := func(b []byte, at int, v uint64) []byte {
		w := bitbuf{b: b}
		w.patch64(at, v)
		return w.b
	}
	stream("truncated-packet", "a file cut in the middle of a packet", evs, three, func(b []byte, p *pktw) []byte { return b[:len(b)-20] })
	stream("packet-size-past-eof", "a packet size beyond the end of the file", evs, three, func(b []byte, p *pktw) []byte {
		return set64(b, p.sizesAt+8, uint64(len(b)*8+1024))
	})
	stream("content-larger-than-packet", "a content size larger than the packet size", evs, three, func(b []byte, p *pktw) []byte {
		return set64(b, p.sizesAt, uint64(len(b)*8+8))
	})
	stream("content-smaller-than-header", "a content size smaller than the packet header and context", evs, three, func(b []byte, p *pktw) []byte {
		return set64(b, p.sizesAt, 64)
	})
	stream("packet-size-not-bytes", "a packet size that is not a whole number of bytes", evs, three, func(b []byte, p *pktw) []byte {
		return set64(b, p.sizesAt+8, uint64(len(b)*8-3))
	})
	stream("event-past-content", "the last event crosses the end of the packet content", evs, three, func(b []byte, p *pktw) []byte {
		return set64(b, p.sizesAt, uint64(p.content-40))
	})
	stream("unknown-stream-id", "a packet of an undeclared stream class", evs, three, func(b []byte, p *pktw) []byte {
		b[20] = 9
		return b
	})
	stream("bad-magic", "a packet whose magic number is wrong", evs, three, func(b []byte, p *pktw) []byte {
		b[0] = 0
		return b
	})
	stream("unknown-event-id", "an event of an undeclared class", evs, func(p *pktw) {
		p.event(0, t0).u8(1)
		p.event(77, t0+1).u8(2)
	}, func(b []byte, p *pktw) []byte { return b })
	stream("sequence-past-end", "a sequence length of a billion in a small packet", evs, func(p *pktw) {
		p.event(0, t0).u8(1)
		p.event(1, t0+1).u32(1_000_000_000).u8(1)
	}, func(b []byte, p *pktw) []byte { return b })
	stream("string-unterminated", "a string running to the end of the packet content", evs, func(p *pktw) {
		p.event(0, t0).u8(1)
		w := p.event(2, t0+1)
		w.raw([]byte("no terminator"))
	}, func(b []byte, p *pktw) []byte { return b })
	stream("time-backwards", "an event whose 64-bit timestamp is before the previous event's", evs, func(p *pktw) {
		p.event(0, t0+10).u8(1)
		p.event(0, t0+5).u8(2)
	}, func(b []byte, p *pktw) []byte { return b })
	stream("variant-no-option", "a variant tag value that selects no option", evs, func(p *pktw) {
		p.event(0, t0).u8(1)
		p.event(3, t0+1).u8(7).u8(0)
	}, func(b []byte, p *pktw) []byte { return b })
	return cs
}
