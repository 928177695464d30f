package ctf

import (
	"fmt"
	"math/big"
	"strings"
)

// Conformance cases for integers wider than 64 bits (issue 17). CTF 1.8.3
// puts no bound on an integer's size; babeltrace2 2.0.4 refuses such
// traces, so the valid case carries the specification's output, written
// here from math/big values (not from the reader's code): "0x" and the
// upper-case hexadecimal digits of the integer's bits.

// putWide writes the low size bits of v (two's complement when negative)
// at the writer's position, aligned, bit by bit.
func (w *bitbuf) putWide(v *big.Int, size, align int, be bool) *bitbuf {
	w.align(align)
	bits := wideBits(v, size)
	for i := 0; i < size; i++ {
		j := i // value bit written at position pos+i
		if be {
			j = size - 1 - i
		}
		w.put(uint64(bits.Bit(j)), 1, be)
	}
	return w
}

// wideBits returns the size-bit two's-complement pattern of v.
func wideBits(v *big.Int, size int) *big.Int {
	mod := new(big.Int).Lsh(big.NewInt(1), uint(size))
	b := new(big.Int).Mod(v, mod) // Mod is Euclidean: never negative
	return b
}

// wideHex is the text the specification's reader prints for v.
func wideHex(v *big.Int, size int) string {
	return "0x" + strings.ToUpper(wideBits(v, size).Text(16))
}

// bigHex parses a hexadecimal constant of the cases.
func bigHex(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 16)
	if !ok {
		panic("bad constant " + s)
	}
	return v
}

// widePattern is a size-bit value whose bytes all differ, so a byte
// swapped or shifted shows.
func widePattern(size int, seed byte) *big.Int {
	b := make([]byte, (size+7)/8)
	for i := range b {
		b[i] = byte(i*37) + seed
	}
	return wideBits(new(big.Int).SetBytes(b), size)
}

// wideValidCases are traces with integers wider than 64 bits.
func wideValidCases() []ctfCase {
	events := `event { name = "wide"; id = 0; fields := struct {
			integer { size = 128; align = 8; } u128;
			integer { size = 3; align = 1; } b3;
			integer { size = 100; align = 1; signed = true; } s100;
			integer { size = 3; align = 8; byte_order = be; } c3;
			integer { size = 65; align = 1; byte_order = be; } be65;
			integer { size = 1024; align = 8; } u1024;
			integer { size = 72; align = 64; base = 10; } zero72;
			integer { size = 80; align = 8; byte_order = be; } arr[2];
			uint8_t n;
		}; };`
	type row struct {
		u128, be65, s100, u1024, a0, a1 *big.Int
		b3, n                           uint64
	}
	rows := []row{
		{bigHex("0123456789ABCDEFFEDCBA9876543210"), bigHex("1FFFFFFFFFFFFFFFF"), big.NewInt(-1), widePattern(1024, 11),
			bigHex("A1B2C3D4E5F601020304"), bigHex("1"), 5, 7},
		{big.NewInt(0), bigHex("10000000000000001"), bigHex("7FFFFFFFFFFFFFFFFFFFFFFFF"), widePattern(1024, 200),
			big.NewInt(0), bigHex("FFFFFFFFFFFFFFFFFFFF"), 2, 255},
	}
	var out strings.Builder
	c := simple("int-wide", "integers of 65 to 1024 bits, both byte orders, bit-packed, signed (two's complement bits), in an array, aligning their structure: printed in hexadecimal",
		events, func(p *pktw) {
			for i, r := range rows {
				w := p.event(0, t0+uint64(i))
				w.align(64) // the payload structure aligns as its most aligned member, zero72
				w.putWide(r.u128, 128, 8, false)
				w.u(r.b3, 3, 1, false)
				w.putWide(r.s100, 100, 1, false)
				w.u(r.b3, 3, 8, true) // byte orders change on byte boundaries only
				w.putWide(r.be65, 65, 1, true)
				w.putWide(r.u1024, 1024, 8, false)
				w.putWide(big.NewInt(0), 72, 64, false)
				w.putWide(r.a0, 80, 8, true)
				w.putWide(r.a1, 80, 8, true)
				w.u8(r.n)
				fmt.Fprintf(&out, "[1600000000.%09d] testhost wide: { cpu_id = 0 }, { u128 = %s, b3 = %d, s100 = %s, c3 = %d, be65 = %s, u1024 = %s, zero72 = 0x0, arr = [ [0] = %s, [1] = %s ], n = %d }\n",
					t0+i, wideHex(r.u128, 128), r.b3, wideHex(r.s100, 100), r.b3, wideHex(r.be65, 65), wideHex(r.u1024, 1024),
					wideHex(r.a0, 80), wideHex(r.a1, 80), r.n)
			}
		})
	c.specOut = out.String()
	return []ctfCase{c, emptyAlignedCase()}
}

// emptyAlignedEvents declares an event whose payload is empty but
// aligned to 64 bits: its end is past its header by up to 63 bits.
const emptyAlignedEvents = `event { name = "e"; id = 0; fields := struct { uint8_t n; }; };
		event { name = "empty"; id = 1; fields := struct { integer { size = 64; align = 64; } x[0]; }; };`

// emptyAlignedCase is the valid counterpart of empty-event-past-content:
// the empty aligned event ends inside the content. Its metadata seeds
// FuzzStream, whose corpus holds the invalid stream too.
func emptyAlignedCase() ctfCase {
	return simple("empty-aligned-event", "an event whose payload is empty but aligned to 64 bits, inside the content",
		emptyAlignedEvents, func(p *pktw) {
			p.event(0, t0).u8(1)
			p.event(1, t0+1)
			p.w.align(64)
			p.event(0, t0+2).u8(2)
		})
}

// wideInvalidCases refuse wide integers where a 64-bit value is needed,
// and a wide integer cut by the end of the content.
func wideInvalidCases() []ctfCase {
	var cs []ctfCase
	one := func(p *pktw) { p.event(0, t0).u8(1) }
	meta := func(name, about, events string) {
		cs = append(cs, simple(name, about, events, one))
	}
	meta("int-wide-seq-length", "a sequence whose length is a 128-bit integer", `event { name = "e"; id = 0; fields := struct {
			integer { size = 128; align = 8; } n; uint8_t s[n]; }; };`)
	meta("int-wide-enum", "an enumeration (a variant tag) whose container has 128 bits", `event { name = "e"; id = 0; fields := struct {
			enum : integer { size = 128; align = 8; } { A = 0 } t; variant <t> { uint8_t A; } v; }; };`)
	meta("int-wide-clock", "a 128-bit integer mapped to a clock", `event { name = "e"; id = 0; fields := struct {
			integer { size = 128; align = 8; map = clock.monotonic.value; } ts; }; };`)

	c := simple("int-wide-timestamp", "an event header timestamp of 128 bits", `event { name = "e"; id = 0; fields := struct { uint8_t n; }; };`, one)
	c.files["metadata"] = []byte(strings.Replace(string(c.files["metadata"]), "uint64_clock_t timestamp;", "integer { size = 128; align = 8; } timestamp;", 1))
	cs = append(cs, c)

	p := stdPacket(0, t0, 0, 0)
	p.event(0, t0).putWide(widePattern(128, 1), 128, 8, false)
	b := p.finish()
	// The content ends 8 bits before the end of the 128-bit field.
	w := bitbuf{b: b}
	w.patch64(p.sizesAt, uint64(p.content-8))
	cs = append(cs, ctfCase{name: "int-wide-past-content", about: "a 128-bit integer crossing the end of the packet content",
		files: map[string][]byte{"metadata": []byte(stdPrelude + stdStream +
			`event { name = "e"; id = 0; fields := struct { integer { size = 128; align = 8; } x; }; };`), "stream_0": w.b}})
	return cs
}
