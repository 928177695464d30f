package ctf

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
)

// Conformance cases: small traces, each exercising one metadata construct
// or one stream error, written by code so they are easy to review and
// regenerate (go test -run TestConformanceGenerate -update). Their
// expected output is babeltrace2's, recorded next to them.

// ctfCase is one conformance trace.
type ctfCase struct {
	name  string
	about string
	files map[string][]byte // relative path -> content
	// specOut, when set, is the output the CTF 1.8.3 specification asks
	// for where babeltrace2 refuses the trace or prints something else;
	// it is written as NAME.golden instead of babeltrace2's output.
	specOut string
}

const caseUUID = "2a6422d0-6cee-11e0-8c08-cb07d7b3a564"

var caseUUIDBytes = [16]byte{0x2a, 0x64, 0x22, 0xd0, 0x6c, 0xee, 0x11, 0xe0, 0x8c, 0x08, 0xcb, 0x07, 0xd7, 0xb3, 0xa5, 0x64}

// stdPrelude is the metadata every standard case starts with: integer
// aliases, a little-endian trace with magic/uuid/stream_id, a hostname, a
// 1 GHz clock, and stream 0 with a 32-bit id + 64-bit timestamp header.
const stdPrelude = `/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 16; align = 8; signed = false; } := uint16_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 32; align = 8; signed = true; } := int32_t;
typealias integer { size = 64; align = 8; signed = true; } := int64_t;

trace {
	major = 1;
	minor = 8;
	uuid = "` + caseUUID + `";
	byte_order = le;
	packet.header := struct {
		uint32_t magic;
		uint8_t  uuid[16];
		uint32_t stream_id;
	};
};

env {
	hostname = "testhost";
	domain = "ust";
};

clock {
	name = monotonic;
	freq = 1000000000;
	offset = 1600000000000000000;
};

typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_t;
`

const stdStream = `
stream {
	id = 0;
	event.header := struct {
		uint32_t id;
		uint64_clock_t timestamp;
	};
	packet.context := struct {
		uint64_clock_t timestamp_begin;
		uint64_clock_t timestamp_end;
		uint64_t content_size;
		uint64_t packet_size;
		uint64_t events_discarded;
		uint32_t cpu_id;
	};
};
`

// pktw writes one packet of the standard layout.
type pktw struct {
	w         bitbuf
	sizesAt   int // byte offset of content_size (packet_size follows)
	tsEndAt   int
	lastStamp uint64
	content   int64 // content size in bits, set by finish
}

func stdPacket(streamID uint32, tsBegin uint64, discarded uint64, cpu uint32) *pktw {
	p := &pktw{}
	w := &p.w
	w.u32(0xC1FC1FC1).raw(caseUUIDBytes[:]).u32(uint64(streamID))
	w.u64(tsBegin)
	p.tsEndAt = w.bytesLen()
	w.u64(0)
	p.sizesAt = w.bytesLen()
	w.u64(0).u64(0).u64(discarded).u32(uint64(cpu))
	p.lastStamp = tsBegin
	return p
}

// event writes a standard event header and returns the writer for the
// payload.
func (p *pktw) event(id uint32, ts uint64) *bitbuf {
	p.w.u32(uint64(id)).u64(ts)
	p.lastStamp = ts
	return &p.w
}

// finish pads the packet to a multiple of 16 bytes and patches its sizes
// and end time.
func (p *pktw) finish() []byte {
	content := p.w.pos
	p.content = content
	p.w.align(128)
	size := p.w.pos
	p.w.patch64(p.tsEndAt, p.lastStamp)
	p.w.patch64(p.sizesAt, uint64(content))
	p.w.patch64(p.sizesAt+8, uint64(size))
	return p.w.b
}

func concat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// simple builds a case with the standard prelude and stream, the given
// event declarations, and one stream file of one packet whose events are
// written by body.
func simple(name, about, events string, body func(p *pktw)) ctfCase {
	p := stdPacket(0, 1000, 0, 0)
	body(p)
	return ctfCase{name: name, about: about, files: map[string][]byte{
		"metadata": []byte(stdPrelude + stdStream + events),
		"stream_0": p.finish(),
	}}
}

const t0 = 1000 // first timestamp used by the cases

func validCases() []ctfCase {
	var cs []ctfCase

	cs = append(cs, simple("int-sizes-le", "little-endian integers of every odd size, bit-packed, signed and unsigned",
		`event { name = "ints"; id = 0; fields := struct {
			integer { size = 1; align = 1; signed = false; } a1;
			integer { size = 3; align = 1; signed = true; } s3;
			integer { size = 5; align = 1; signed = false; } u5;
			integer { size = 13; align = 1; signed = true; } s13;
			integer { size = 27; align = 1; signed = false; } u27;
			integer { size = 33; align = 1; signed = true; } s33;
			integer { size = 63; align = 1; signed = false; } u63;
			integer { size = 64; align = 1; signed = true; } s64;
			integer { size = 7; align = 1; signed = false; } u7;
		}; };`, func(p *pktw) {
			vals := [][9]uint64{
				{1, 0b101, 31, 1 << 12, 1<<27 - 1, 1 << 32, 1<<63 - 1, 1 << 63, 127},
				{0, 3, 0, 4095, 12345, 1<<32 - 1, 42, 1<<64 - 1, 1},
			}
			sizes := []int{1, 3, 5, 13, 27, 33, 63, 64, 7}
			for i, v := range vals {
				w := p.event(0, t0+uint64(i))
				for j, x := range v {
					w.put(x, sizes[j], false)
				}
			}
		}))

	cs = append(cs, beCase())

	cs = append(cs, simple("int-bases", "display bases 2, 8, 10, 16 on signed and unsigned integers, negative values",
		`event { name = "bases"; id = 0; fields := struct {
			integer { size = 32; align = 8; signed = true; base = 16; } sx;
			integer { size = 12; align = 1; signed = true; base = hex; } sx12;
			integer { size = 64; align = 8; signed = true; base = x; } sx64;
			integer { size = 32; align = 8; signed = false; base = X; } ux;
			integer { size = 16; align = 8; signed = true; base = 8; } so;
			integer { size = 7; align = 1; signed = true; base = octal; } so7;
			integer { size = 16; align = 8; signed = false; base = o; } uo;
			integer { size = 6; align = 1; signed = true; base = 2; } sb;
			integer { size = 9; align = 1; signed = false; base = binary; } ub;
			integer { size = 32; align = 8; signed = true; base = decimal; } sd;
			integer { size = 64; align = 8; signed = false; base = 10; } ud;
			integer { size = 16; align = 8; signed = false; base = p; } up;
		}; };`, func(p *pktw) {
			for i, neg := range []bool{false, true} {
				w := p.event(0, t0+uint64(i))
				if neg {
					w.u(uint64(0xFFFFFFFF), 32, 8, false) // -1
					w.put(uint64(0x800), 12, false)       // -2048
					w.u(uint64(1<<63), 64, 8, false)
					w.u(0xDEADBEEF, 32, 8, false)
					w.u(uint64(0xFFF0), 16, 8, false) // -16
					w.put(0x41, 7, false)             // -63
					w.u(0, 16, 8, false)
					w.put(0x3F, 6, false) // -1
					w.put(0x1FF, 9, false)
					w.u(uint64(0x80000000), 32, 8, false)
					w.u(1<<64-1, 64, 8, false)
					w.u(0xABC, 16, 8, false)
				} else {
					w.u(255, 32, 8, false)
					w.put(0x7FF, 12, false)
					w.u(0, 64, 8, false)
					w.u(10, 32, 8, false)
					w.u(8, 16, 8, false)
					w.put(7, 7, false)
					w.u(0777, 16, 8, false)
					w.put(5, 6, false)
					w.put(0, 9, false)
					w.u(1234, 32, 8, false)
					w.u(0, 64, 8, false)
					w.u(0, 16, 8, false)
				}
			}
		}))

	cs = append(cs, simple("byte-orders", "native, network, be and le byte orders in a little-endian trace, integers and floats",
		`event { name = "orders"; id = 0; fields := struct {
			integer { size = 32; align = 8; byte_order = native; } n;
			integer { size = 32; align = 8; byte_order = network; } net;
			integer { size = 16; align = 8; byte_order = be; signed = true; } be16;
			integer { size = 64; align = 8; byte_order = le; } le64;
			integer { size = 12; align = 8; byte_order = be; } be12;
			integer { size = 4; align = 1; byte_order = be; } be4;
			floating_point { exp_dig = 11; mant_dig = 53; align = 8; byte_order = be; } bed;
			floating_point { exp_dig = 8; mant_dig = 24; align = 8; byte_order = network; } bef;
		}; };`, func(p *pktw) {
			w := p.event(0, t0)
			w.u(0x11223344, 32, 8, false)
			w.u(0x11223344, 32, 8, true)
			w.u(uint64(0xFFFE), 16, 8, true)
			w.u(0x0102030405060708, 64, 8, false)
			w.u(0xABC, 12, 8, true)
			w.put(0x9, 4, true)
			w.u(math.Float64bits(-2.5), 64, 8, true)
			w.u(uint64(math.Float32bits(0.15625)), 32, 8, true)
		}))

	cs = append(cs, simple("enums", "enumerations: ranges, implicit values, several labels per value, unknown values, signed containers, no container (int)",
		`typealias integer { size = 32; align = 8; signed = true; } := int;
		enum color : uint8_t { RED, GREEN, BLUE = 5, CYAN, "with space" = 10 ... 20, OVER = 15 ... 16, RED = 30 };
		event { name = "enums"; id = 0; fields := struct {
			enum color c1;
			enum color c2;
			enum color c3;
			enum color c4;
			enum color c5;
			enum : integer { size = 16; align = 8; signed = true; base = 16; } { NEG = -5 ... -1, ZERO = 0, BIG = 1000 } s;
			enum { A, B, C } noc;
			enum : integer { size = 3; align = 1; } { X = 1, Y = 2 ... 7 } bits3;
		}; };`, func(p *pktw) {
			for i, v := range [][8]uint64{{0, 1, 5, 6, 15}, {30, 21, 12, 2, 16}} {
				w := p.event(0, t0+uint64(i))
				for _, x := range v[:5] {
					w.u8(x)
				}
				if i == 0 {
					w.u(uint64(0xFFFD), 16, 8, false) // -3
					w.u(2, 32, 8, false)
					w.put(1, 3, false)
				} else {
					w.u(1000, 16, 8, false)
					w.u(7, 32, 8, false)
					w.put(0, 3, false)
				}
			}
		}))

	cs = append(cs, simple("floats", "float and double values as printf %g prints them, NaN and infinities, bit-packed alignment",
		`typealias floating_point { exp_dig = 8; mant_dig = 24; align = 8; } := float;
		typealias floating_point { exp_dig = 11; mant_dig = 53; align = 64; } := double;
		event { name = "floats"; id = 0; fields := struct {
			float f;
			double d;
			uint8_t pad;
			floating_point { exp_dig = 8; mant_dig = 24; align = 1; } packed;
		}; };`, func(p *pktw) {
			vals := []float64{0, -0.0, 1, 0.1, 1e-5, 1.5e-7, 123456, 1234567, 1e6, 1e21, 3.14159265358979, -2.5e-300,
				math.Inf(1), math.Inf(-1), math.NaN(), 100000, 999999.5, 0.0001, 0.00001234, 5e-324}
			for i, v := range vals {
				w := p.event(0, t0+uint64(i))
				w.align(64) // the payload is aligned as its double
				w.f32(float32(v)).u(math.Float64bits(v), 64, 64, false).u8(uint64(i))
				w.put(uint64(math.Float32bits(float32(v*3))), 32, false)
			}
		}))

	cs = append(cs, simple("strings", "strings with quotes, backslashes, control characters, tabs, newlines, UTF-8 and high bytes; empty strings",
		`event { name = "strings"; id = 0; fields := struct {
			string s;
			string { encoding = ASCII; } a;
			uint8_t after;
		}; };`, func(p *pktw) {
			strs := []string{"plain", `q"uo'te\back?slash`, "tab\tnl\ncr\rbell\aesc\x1bdel\x7f\x01\x1f", "héllo wörld \xff\x80", ""}
			for i, s := range strs {
				w := p.event(0, t0+uint64(i))
				w.str(s).str(strings.ToUpper(s)).u8(uint64(i))
			}
		}))

	cs = append(cs, simple("arrays", "fixed arrays: integers, multi-dimensional, structures, char arrays (text, with NUL inside, encoding none)",
		`event { name = "arrays"; id = 0; fields := struct {
			uint16_t a[3];
			integer { size = 8; align = 8; signed = true; } m[2][3];
			struct { uint8_t x; uint32_t y; } st[2];
			integer { size = 8; align = 8; encoding = UTF8; } text[8];
			integer { size = 8; align = 8; encoding = ASCII; } nul[6];
			integer { size = 8; align = 8; encoding = none; } raw[4];
			integer { size = 4; align = 1; } nib[3];
			uint8_t empty[0];
			string strs[2];
		}; };`, func(p *pktw) {
			w := p.event(0, t0)
			w.u16(1).u16(2).u16(65535)
			for i := 0; i < 6; i++ {
				w.u8(uint64(int8(i - 3)))
			}
			w.u8(7).u32(70000).u8(8).u32(80000)
			w.raw([]byte("abcdefgh"))
			w.raw([]byte("ab\x00cd\x00"))
			w.raw([]byte("wxyz"))
			w.put(1, 4, false)
			w.put(2, 4, false)
			w.put(15, 4, false)
			w.str("first").str("second")
		}))

	cs = append(cs, simple("sequences", "sequences: length before it in the payload, in the event context, in the stream event header, in a nested structure; empty, of structures, of strings, of arrays, char sequences",
		`event { name = "seqs"; id = 0;
			context := struct { uint8_t clen; };
			fields := struct {
			uint32_t _len;
			uint16_t seq[_len];
			uint8_t byctx[event.context.clen];
			struct { uint8_t n; } inner;
			uint8_t bynested[inner.n];
			uint64_t zero;
			uint64_t empty[zero];
			struct { uint8_t a; uint16_t b; } structs[_len];
			string names[_len];
			uint8_t pairs[_len][2];
			integer { size = 8; align = 8; encoding = UTF8; } chars[_len];
			uint8_t byabs[event.fields._len];
		}; };`, func(p *pktw) {
			for i, n := range []int{3, 0, 1} {
				w := p.event(0, t0+uint64(i))
				w.u8(2) // context clen
				w.u32(uint64(n))
				for j := 0; j < n; j++ {
					w.u16(uint64(100 + j))
				}
				w.u8(0xA).u8(0xB)
				w.u8(1).u8(9)
				w.u64(0)
				for j := 0; j < n; j++ {
					w.u8(uint64(j)).u16(uint64(j * 1000))
				}
				for j := 0; j < n; j++ {
					w.str(fmt.Sprintf("n%d", j))
				}
				for j := 0; j < n; j++ {
					w.u8(uint64(j)).u8(uint64(j + 10))
				}
				w.raw([]byte("xyz")[:n])
				for j := 0; j < n; j++ {
					w.u8(uint64(j + 50))
				}
			}
		}))

	cs = append(cs, headerRefCase())

	cs = append(cs, simple("variants", "variants: tag before it, tag in a nested structure, untagged variant tagged where used, options of every kind, underscore option names",
		`enum sel : uint8_t { INT, STR, STRUCT, UNDER, SEQ, ARR = 5 ... 6 };
		variant untagged { uint32_t INT; string STR; struct { uint8_t a; uint8_t b; } STRUCT; uint8_t UNDER; uint8_t SEQ[2]; uint16_t ARR[2]; };
		event { name = "variants"; id = 0; fields := struct {
			enum sel tag;
			variant <tag> { uint32_t INT; string STR; struct { uint8_t a; uint8_t b; } STRUCT; uint8_t UNDER; uint8_t SEQ[2]; uint16_t ARR[2]; } v;
			struct { enum sel t2; variant untagged <t2> v2; } holder;
		}; };`, func(p *pktw) {
			for i := 0; i < 7; i++ {
				w := p.event(0, t0+uint64(i))
				w.u8(uint64(i))
				writeSel := func(i int) {
					switch i {
					case 0:
						w.u32(42)
					case 1:
						w.str("hello")
					case 2:
						w.u8(1).u8(2)
					case 3:
						w.u8(3)
					case 4:
						w.u8(4).u8(5)
					default:
						w.u16(6).u16(7)
					}
				}
				writeSel(i)
				j := (i + 1) % 7
				w.u8(uint64(j))
				writeSel(j)
			}
		}))

	cs = append(cs, simple("typedefs", "typedef, typealias of structures and pointers, named structures, scoped typedefs, C type names",
		`typealias integer { size = 64; align = 8; signed = false; base = 16; } := unsigned long;
		typealias integer { size = 32; align = 8; signed = false; base = 16; } := struct page *;
		typedef uint16_t small_t;
		typedef small_t pair_t[2];
		struct point { int32_t x; int32_t y; };
		typedef struct point point_t;
		event { name = "typedefs"; id = 0; fields := struct {
			typedef uint8_t local_t;
			unsigned long ul;
			struct page *page;
			pair_t pair;
			struct point p;
			point_t q;
			local_t l;
			struct inner { typedef int32_t deep_t; deep_t d; } in;
			struct inner again;
		}; };`, func(p *pktw) {
			w := p.event(0, t0)
			w.u64(0xFFFF880012345678).u32(0xC0DE)
			w.u16(1).u16(2)
			w.i32(-1).i32(2).i32(3).i32(-4)
			w.u8(5).i32(-6).i32(7)
		}))

	cs = append(cs, simple("alignment", "structure align(), 64-bit alignment after bit fields, alignment relative to the packet start, alignment of empty sequences",
		`event { name = "align"; id = 0; fields := struct {
			integer { size = 3; align = 1; } b3;
			struct { uint8_t x; } align(64) s64;
			integer { size = 5; align = 1; } b5;
			integer { size = 32; align = 32; } a32;
			integer { size = 1; align = 1; } b1;
			integer { size = 16; align = 64; } a64;
			uint8_t n;
			integer { size = 32; align = 32; } seq32[n];
			uint8_t after;
			struct { } align(16) empty;
			uint8_t last;
		}; };`, func(p *pktw) {
			for i, n := range []int{0, 2} {
				w := p.event(0, t0+uint64(i))
				w.align(64) // the payload is aligned as its most aligned member
				w.put(5, 3, false)
				w.u(9, 8, 64, false)
				w.put(17, 5, false)
				w.u(0x12345678, 32, 32, false)
				w.put(1, 1, false)
				w.u(0xBEEF, 16, 64, false)
				w.u8(uint64(n))
				if n > 0 {
					for j := 0; j < n; j++ {
						w.u(uint64(j+1), 32, 32, false)
					}
				} else {
					w.align(32)
				}
				w.u8(0xAA)
				w.align(16)
				w.u8(0xBB)
			}
		}))

	cs = append(cs, contextsCase())
	cs = append(cs, clockCases()...)
	cs = append(cs, wrapCase())
	cs = append(cs, multiStreamCase())
	cs = append(cs, noSizesCase())
	cs = append(cs, discardedCase())
	cs = append(cs, simple("misc-blocks", "callsite blocks, loglevel, model.emf.uri, env integers, comments of both kinds, event without fields, empty fields",
		`callsite { name = "misc"; func = "f"; file = "x.c"; line = 39; ip = 0x40096c; };
		env { answer = 42; negative = -7; };
		// a line comment
		event { name = "nofields"; id = 0; loglevel = 13; model.emf.uri = "http://example.com/e"; };
		event { name = "emptyfields"; id = 1; fields := struct { }; };
		event { name = misc_ident; id = 2; fields := struct { uint8_t x; }; };`, func(p *pktw) {
			p.event(0, t0)
			p.event(1, t0+1)
			p.event(2, t0+2).u8(3)
		}))

	cs = append(cs, simple("clock-mapped-fields", "payload integers mapped to the clock are not printed; structures left empty by it",
		`event { name = "mapped"; id = 0; fields := struct {
			uint64_clock_t when;
			uint32_t value;
			struct { uint64_clock_t only; } onlyclock;
		}; };`, func(p *pktw) {
			w := p.event(0, t0)
			w.u64(t0 + 500).u32(7).u64(t0 + 600)
			w = p.event(0, t0+700)
			w.u64(t0 + 800).u32(8).u64(t0 + 900)
		}))

	cs = append(cs, noHostnameCase())
	cs = append(cs, packetizedBECase())
	cs = append(cs, perfLikeCase())
	cs = append(cs, nestedTracesCase())
	cs = append(cs, simple("names-underscores", "leading underscores are stripped once when printed; paths use the written names",
		`event { name = "_under"; id = 0; fields := struct {
			uint8_t _a;
			uint8_t __b;
			uint8_t ___c_length;
			uint8_t seq[___c_length];
		}; };`, func(p *pktw) {
			p.event(0, t0).u8(1).u8(2).u8(1).u8(9)
		}))
	cs = append(cs, ctfCase{name: "no-clock", about: "no clock and no timestamp field: events have no time, streams come one after the other",
		files: map[string][]byte{
			"metadata": []byte(`/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
trace { major = 1; minor = 8; byte_order = le; };
stream { event.header := struct { uint8_t id; }; };
event { name = "a"; id = 0; fields := struct { uint8_t x; }; };
event { name = "b"; id = 1; fields := struct { uint8_t y; }; };`),
			"s0": {0, 1, 1, 2, 0, 3},
			"s1": {1, 9},
		}})
	cs = append(cs, simple("comment-at-end", "a comment left open at the end of the metadata (babeltrace2 accepts it)",
		`event { name = "e"; id = 0; fields := struct { uint8_t n; }; }; /* never closed`, func(p *pktw) { p.event(0, t0).u8(1) }))
	c := simple("uuid-mismatch", "a packet whose trace uuid differs from the metadata's (babeltrace2 does not check it)",
		`event { name = "e"; id = 0; fields := struct { uint8_t n; }; };`, func(p *pktw) { p.event(0, t0).u8(1) })
	c.files["stream_0"][5] ^= 0xFF
	cs = append(cs, c)
	cs = append(cs, simple("equal-timestamps", "several events with the same timestamp in one stream keep their order",
		`event { name = "same"; id = 0; fields := struct { uint8_t n; }; };`, func(p *pktw) {
			for i := 0; i < 5; i++ {
				p.event(0, t0).u8(uint64(i))
			}
		}))
	return cs
}

// beCase is a big-endian trace with big-endian bit fields and a
// big-endian packetized metadata.
func beCase() ctfCase {
	meta := strings.ReplaceAll(stdPrelude, "byte_order = le;", "byte_order = be;") + stdStream +
		`event { name = "ints"; id = 0; fields := struct {
			integer { size = 1; align = 1; signed = false; } a1;
			integer { size = 3; align = 1; signed = true; } s3;
			integer { size = 13; align = 1; signed = true; } s13;
			integer { size = 27; align = 1; signed = false; } u27;
			integer { size = 33; align = 1; signed = true; } s33;
			integer { size = 64; align = 1; signed = false; } u64;
			uint16_t aligned16;
			integer { size = 32; align = 32; byte_order = le; } le32;
			floating_point { exp_dig = 11; mant_dig = 53; align = 8; } d;
		}; };`
	w := &bitbuf{}
	be := true
	w.u(0xC1FC1FC1, 32, 8, be).raw(caseUUIDBytes[:]).u(0, 32, 8, be)
	w.u(t0, 64, 8, be)
	tsEnd := w.bytesLen()
	w.u(0, 64, 8, be)
	sizes := w.bytesLen()
	w.u(0, 64, 8, be).u(0, 64, 8, be).u(0, 64, 8, be).u(1, 32, 8, be)
	for i, v := range [][6]uint64{{1, 0b101, 1 << 12, 1<<27 - 1, 1 << 32, 1<<64 - 1}, {0, 3, 4095, 12345, 1<<32 - 1, 42}} {
		w.u(0, 32, 8, be).u(t0+uint64(i), 64, 8, be)
		for j, x := range v {
			w.put(x, []int{1, 3, 13, 27, 33, 64}[j], be)
		}
		w.u(0x1234, 16, 8, be)
		w.u(0x11223344, 32, 32, false)
		w.u(math.Float64bits(1.25), 64, 8, be)
	}
	content := w.pos
	w.align(128)
	binary.BigEndian.PutUint64(w.b[tsEnd:], t0+1)
	binary.BigEndian.PutUint64(w.b[sizes:], uint64(content))
	binary.BigEndian.PutUint64(w.b[sizes+8:], uint64(w.pos))
	return ctfCase{name: "big-endian", about: "big-endian trace: bit fields fill bytes from their high bits; packetized big-endian metadata",
		files: map[string][]byte{"metadata": packetize([]byte(meta), true, 3), "stream_0": w.b}}
}

// packetize splits metadata text into n metadata packets.
func packetize(text []byte, be bool, n int) []byte {
	var order binary.ByteOrder = binary.LittleEndian
	if be {
		order = binary.BigEndian
	}
	var out []byte
	chunk := (len(text) + n - 1) / n
	for len(text) > 0 {
		c := text[:min(chunk, len(text))]
		text = text[len(c):]
		hdr := make([]byte, 37)
		order.PutUint32(hdr, 0x75D11D57)
		copy(hdr[4:], caseUUIDBytes[:])
		content := (37 + len(c)) * 8
		size := (content + 255) &^ 255
		order.PutUint32(hdr[24:], uint32(content))
		order.PutUint32(hdr[28:], uint32(size))
		hdr[35], hdr[36] = 1, 8
		pkt := append(hdr, c...)
		pkt = append(pkt, make([]byte, size/8-len(pkt))...)
		out = append(out, pkt...)
	}
	return out
}

// headerRefCase: sequences and variants whose length or tag is in the
// stream event header, the packet context or the trace packet header.
func headerRefCase() ctfCase {
	meta := strings.Replace(stdPrelude, "uint32_t stream_id;", "uint32_t stream_id;\n\t\tuint8_t hdrlen;", 1) + `
stream {
	id = 0;
	event.header := struct {
		uint32_t id;
		uint64_clock_t timestamp;
		uint8_t n;
		enum : uint8_t { SMALL, LARGE } kind;
	};
	packet.context := struct {
		uint64_clock_t timestamp_begin;
		uint64_clock_t timestamp_end;
		uint64_t content_size;
		uint64_t packet_size;
		uint64_t events_discarded;
		uint32_t cpu_id;
		uint8_t pktlen;
	};
	event.context := struct {
		uint8_t bystream[stream.event.header.n];
	};
};
event { name = "refs"; id = 0; fields := struct {
	uint16_t a[stream.event.header.n];
	uint8_t b[stream.packet.context.pktlen];
	uint8_t c[trace.packet.header.hdrlen];
}; };`
	w := &bitbuf{}
	w.u32(0xC1FC1FC1).raw(caseUUIDBytes[:]).u32(0).u8(1)
	w.u64(t0)
	tsEnd := w.bytesLen()
	w.u64(0)
	sizes := w.bytesLen()
	w.u64(0).u64(0).u64(0).u32(2).u8(2)
	for i := 0; i < 2; i++ {
		w.u32(0).u64(t0 + uint64(i)).u8(uint64(i + 1)).u8(uint64(i))
		for j := 0; j <= i; j++ {
			w.u8(uint64(j + 7))
		}
		for j := 0; j <= i; j++ {
			w.u16(uint64(j))
		}
		w.u8(0xA).u8(0xB)
		w.u8(0xC)
	}
	content := w.pos
	w.align(128)
	w.patch64(tsEnd, t0+1)
	w.patch64(sizes, uint64(content))
	w.patch64(sizes+8, uint64(w.pos))
	return ctfCase{name: "scope-references", about: "sequence lengths found through absolute paths in the stream event header, the packet context and the trace packet header",
		files: map[string][]byte{"metadata": []byte(meta), "stream_0": w.b}}
}

// contextsCase: stream event context, event context and extra packet
// context fields.
func contextsCase() ctfCase {
	meta := stdPrelude + `
stream {
	id = 0;
	event.header := struct { uint32_t id; uint64_clock_t timestamp; };
	packet.context := struct {
		uint64_clock_t timestamp_begin;
		uint64_clock_t timestamp_end;
		uint64_t content_size;
		uint64_t packet_size;
		uint64_t packet_seq_num;
		uint64_t events_discarded;
		uint32_t cpu_id;
		string origin;
		integer { size = 8; align = 8; encoding = UTF8; } label[4];
	};
	event.context := struct {
		int32_t _vtid;
		integer { size = 8; align = 8; encoding = UTF8; } _procname[8];
	};
};
event { name = "ctx"; id = 0;
	context := struct { uint16_t extra; };
	fields := struct { uint8_t x; };
};
event { name = "noctx"; id = 1; fields := struct { uint8_t y; }; };`
	w := &bitbuf{}
	w.u32(0xC1FC1FC1).raw(caseUUIDBytes[:]).u32(0)
	w.u64(t0)
	tsEnd := w.bytesLen()
	w.u64(0)
	sizes := w.bytesLen()
	w.u64(0).u64(0).u64(0).u64(0).u32(3).str("the origin").raw([]byte("ab\x00\x00"))
	w.u32(0).u64(t0).i32(1234).raw([]byte("procnam\x00")).u16(77).u8(1)
	w.u32(1).u64(t0 + 5).i32(-1).raw([]byte("12345678")).u8(2)
	content := w.pos
	w.align(128)
	w.patch64(tsEnd, t0+5)
	w.patch64(sizes, uint64(content))
	w.patch64(sizes+8, uint64(w.pos))
	return ctfCase{name: "contexts", about: "packet context extra fields (string, char array), stream event context, event context; hidden packet_seq_num",
		files: map[string][]byte{"metadata": []byte(meta), "stream_0": w.b}}
}

// clockCases: clock offsets and frequencies.
func clockCases() []ctfCase {
	mk := func(name, about, clock string, stamps []uint64) ctfCase {
		meta := strings.Replace(stdPrelude, "clock {\n\tname = monotonic;\n\tfreq = 1000000000;\n\toffset = 1600000000000000000;\n};", clock, 1) + stdStream +
			`event { name = "tick"; id = 0; fields := struct { uint64_t raw; }; };`
		if !strings.Contains(meta, clock) {
			panic("clock not replaced")
		}
		p := stdPacket(0, stamps[0], 0, 0)
		for _, s := range stamps {
			p.event(0, s).u64(s)
		}
		return ctfCase{name: name, about: about, files: map[string][]byte{"metadata": []byte(meta), "stream_0": p.finish()}}
	}
	return []ctfCase{
		mk("clock-offset-seconds", "offset_s and an offset in cycles larger than the frequency",
			"clock {\n\tname = monotonic;\n\tfreq = 1000000000;\n\toffset_s = 1500000000;\n\toffset = 2500000000;\n\tabsolute = TRUE;\n};",
			[]uint64{0, 1, 999999999, 1000000000}),
		mk("clock-negative-offset", "negative offset_s: times before the epoch print with a minus sign",
			"clock {\n\tname = monotonic;\n\tfreq = 1000000000;\n\toffset_s = -10;\n};",
			[]uint64{0, 1, 5000000000, 9999999999, 10000000000, 12000000001}),
		mk("clock-frequency", "a 2.1 GHz clock: cycles converted with babeltrace2's floating-point rounding",
			"clock {\n\tname = monotonic;\n\tfreq = 2100000000;\n\toffset_s = 1679921155;\n\toffset = 1697611796;\n};",
			[]uint64{0, 1, 2, 3, 2100000000, 123456789012345, 1 << 50}),
		mk("clock-slow", "a 1 kHz clock with a uuid and a description",
			"clock {\n\tname = \"monotonic\";\n\tuuid = \"11111111-2222-3333-4444-555555555555\";\n\tdescription = \"slow clock\";\n\tfreq = 1000;\n\tprecision = 1;\n\toffset = 1500;\n};",
			[]uint64{0, 1, 999, 1000, 1001}),
	}
}

// wrapCase: LTTng compact headers whose 27-bit timestamps wrap, with
// extended headers in between.
func wrapCase() ctfCase {
	meta := strings.Replace(stdPrelude, "typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_t;", `typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_t;
typealias integer { size = 27; align = 1; signed = false; map = clock.monotonic.value; } := uint27_clock_t;
typealias integer { size = 5; align = 1; signed = false; } := uint5_t;`, 1) + `
stream {
	id = 0;
	event.header := struct {
		enum : uint5_t { compact = 0 ... 30, extended = 31 } id;
		variant <id> {
			struct { uint27_clock_t timestamp; } compact;
			struct { uint32_t id; uint64_clock_t timestamp; } extended;
		} v;
	} align(8);
	packet.context := struct {
		uint64_clock_t timestamp_begin;
		uint64_clock_t timestamp_end;
		uint64_t content_size;
		uint64_t packet_size;
		uint64_t events_discarded;
		uint32_t cpu_id;
	};
};
event { name = "a"; id = 0; fields := struct { uint8_t n; }; };
event { name = "b"; id = 40; fields := struct { uint8_t n; }; };`
	var pkts [][]byte
	ts := uint64(1<<27 - 100)
	n := 0
	for k := 0; k < 2; k++ {
		p := stdPacket(0, ts, 0, 0)
		steps := []uint64{10, 50, 100, 1 << 26, 1 << 26, 3 << 25, 5, 1<<27 - 1, 200}
		for i, st := range steps {
			ts += st
			w := &p.w
			if i%4 == 3 {
				w.put(31, 5, false)
				w.u32(40).u64(ts)
			} else {
				w.put(0, 5, false)
				w.put(ts&(1<<27-1), 27, false)
			}
			w.u8(uint64(n))
			n++
			p.lastStamp = ts
		}
		pkts = append(pkts, p.finish())
	}
	return ctfCase{name: "timestamp-wrap", about: "compact headers: 27-bit timestamps wrapping (once per event at most), extended headers with 64-bit timestamps and 32-bit ids",
		files: map[string][]byte{"metadata": []byte(meta), "stream_0": concat(pkts...)}}
}

// multiStreamCase: two stream classes, three data files, equal
// timestamps across streams.
func multiStreamCase() ctfCase {
	meta := stdPrelude + stdStream + `
stream {
	id = 1;
	event.header := struct { uint16_t id; uint64_clock_t timestamp; };
	packet.context := struct {
		uint64_clock_t timestamp_begin;
		uint64_clock_t timestamp_end;
		uint64_t content_size;
		uint64_t packet_size;
		uint32_t cpu_id;
		uint32_t extra;
	};
};
event { name = "s0"; id = 0; stream_id = 0; fields := struct { uint8_t n; }; };
event { name = "s1"; id = 0; stream_id = 1; fields := struct { uint8_t n; }; };
event { name = "s1b"; id = 3; stream_id = 1; fields := struct { string s; }; };`
	s0 := func(cpu uint32, stamps ...uint64) []byte {
		var pkts [][]byte
		for _, half := range [][]uint64{stamps[:len(stamps)/2], stamps[len(stamps)/2:]} {
			p := stdPacket(0, half[0], 0, cpu)
			for _, s := range half {
				p.event(0, s).u8(s % 256)
			}
			pkts = append(pkts, p.finish())
		}
		return concat(pkts...)
	}
	w := &bitbuf{}
	w.u32(0xC1FC1FC1).raw(caseUUIDBytes[:]).u32(1)
	w.u64(t0)
	tsEnd := w.bytesLen()
	w.u64(0)
	sizes := w.bytesLen()
	w.u64(0).u64(0).u32(7).u32(99)
	for i, s := range []uint64{t0, t0 + 2, t0 + 2, t0 + 9} {
		if i%2 == 0 {
			w.u16(0).u64(s).u8(uint64(i))
		} else {
			w.u16(3).u64(s).str(fmt.Sprint("str", i))
		}
	}
	content := w.pos
	w.align(128)
	w.patch64(tsEnd, t0+9)
	w.patch64(sizes, uint64(content))
	w.patch64(sizes+8, uint64(w.pos))
	return ctfCase{name: "several-streams", about: "two stream classes with different headers and packet contexts, three data files, the k-way merge by time",
		files: map[string][]byte{
			"metadata": []byte(meta),
			"chan_0":   s0(0, t0+1, t0+3, t0+5, t0+7),
			"chan_1":   s0(1, t0+2, t0+4, t0+6, t0+8),
			"other_0":  w.b,
			".hidden":  []byte("not a stream"),
			"empty_0":  nil,
		}}
}

// noSizesCase: no stream_id, no packet_size nor content_size: one packet
// per file; no magic.
func noSizesCase() ctfCase {
	meta := `/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
trace { major = 1; minor = 8; byte_order = le; };
clock { name = c; freq = 1000; };
typealias integer { size = 32; align = 8; signed = false; map = clock.c.value; } := clk32;
stream { event.header := struct { uint8_t id; clk32 timestamp; }; };
event { name = "one"; id = 0; fields := struct { uint8_t x; }; };
event { name = "two"; id = 1; fields := struct { uint32_t y; }; };`
	w := &bitbuf{}
	for i := 0; i < 4; i++ {
		w.u8(uint64(i % 2)).u32(uint64(i * 1500))
		if i%2 == 0 {
			w.u8(uint64(i))
		} else {
			w.u32(uint64(i))
		}
	}
	return ctfCase{name: "no-packet-sizes", about: "no packet header, no stream id, no packet sizes: the file is one packet; no uuid, no hostname",
		files: map[string][]byte{"metadata": []byte(meta), "data": w.b}}
}

// discardedCase: events_discarded growing across packets, and packet
// sequence numbers with a gap.
func discardedCase() ctfCase {
	meta := stdPrelude + `
stream {
	id = 0;
	event.header := struct { uint32_t id; uint64_clock_t timestamp; };
	packet.context := struct {
		uint64_clock_t timestamp_begin;
		uint64_clock_t timestamp_end;
		uint64_t content_size;
		uint64_t packet_size;
		uint64_t packet_seq_num;
		uint64_t events_discarded;
		uint32_t cpu_id;
	};
};
event { name = "e"; id = 0; fields := struct { uint8_t n; }; };`
	var pkts [][]byte
	ts := uint64(t0)
	for k, c := range []struct{ seq, disc uint64 }{{0, 0}, {1, 5}, {2, 5}, {5, 12}} {
		w := &bitbuf{}
		w.u32(0xC1FC1FC1).raw(caseUUIDBytes[:]).u32(0)
		w.u64(ts)
		tsEnd := w.bytesLen()
		w.u64(0)
		sizes := w.bytesLen()
		w.u64(0).u64(0).u64(c.seq).u64(c.disc).u32(0)
		for i := 0; i < 2; i++ {
			ts += 10
			w.u32(0).u64(ts).u8(uint64(k*2 + i))
		}
		content := w.pos
		w.align(128)
		ts += 5
		w.patch64(tsEnd, ts)
		w.patch64(sizes, uint64(content))
		w.patch64(sizes+8, uint64(w.pos))
		ts += 100
		pkts = append(pkts, w.b)
	}
	return ctfCase{name: "discarded", about: "events_discarded growing between packets and a gap in packet_seq_num: warnings on stderr",
		files: map[string][]byte{"metadata": []byte(meta), "stream_0": concat(pkts...)}}
}

func noHostnameCase() ctfCase {
	c := simple("no-hostname", "an environment without hostname: lines have no hostname",
		`event { name = "e"; id = 0; fields := struct { uint8_t n; }; };`, func(p *pktw) {
			p.event(0, t0).u8(1)
		})
	c.files["metadata"] = []byte(strings.Replace(string(c.files["metadata"]), `hostname = "testhost";`, `host = "not printed";`, 1))
	return c
}

func packetizedBECase() ctfCase {
	c := simple("packetized-metadata", "little-endian packetized metadata split in 5 packets, one of them cutting a token",
		`event { name = "e"; id = 0; fields := struct { uint8_t n; }; };`, func(p *pktw) {
			p.event(0, t0).u8(1)
		})
	c.files["metadata"] = packetize(c.files["metadata"], false, 5)
	return c
}

// perfLikeCase: no cpu_id in the packet context but a perf_cpu payload
// field, 1-bit aligned fields, hexadecimal names.
func perfLikeCase() ctfCase {
	meta := `/* CTF 1.8 */

trace {
	major = 1;
	minor = 8;
	uuid = "` + caseUUID + `";
	byte_order = le;
	packet.header := struct {
		integer { size = 32; align = 8; signed = false; encoding = none; base = decimal; byte_order = le; } magic;
		integer { size = 8; align = 8; signed = false; encoding = none; base = decimal; byte_order = le; } uuid[16];
		integer { size = 32; align = 8; signed = false; encoding = none; base = decimal; byte_order = le; } stream_id;
	} align(8);
};

env {
	host = "perfhost";
	domain = "kernel";
	tracer_name = "perf";
};

clock {
	name = perf_clock;
	freq = 1000000000;
	offset_s = 0;
	offset = 0;
	absolute = FALSE;
};

stream {
	id = 0;
	event.header := struct {
		integer { size = 32; align = 8; signed = false; encoding = none; base = decimal; byte_order = le; } id;
		integer { size = 64; align = 8; signed = false; encoding = none; base = decimal; byte_order = le; map = clock.perf_clock.value; } timestamp;
	} align(8);
	packet.context := struct {
		integer { size = 64; align = 8; signed = false; encoding = none; base = decimal; byte_order = le; } timestamp_begin;
		integer { size = 64; align = 8; signed = false; encoding = none; base = decimal; byte_order = le; } timestamp_end;
		integer { size = 64; align = 8; signed = false; encoding = none; base = decimal; byte_order = le; } content_size;
		integer { size = 64; align = 8; signed = false; encoding = none; base = decimal; byte_order = le; } packet_size;
		integer { size = 64; align = 8; signed = false; encoding = none; base = decimal; byte_order = le; } events_discarded;
	} align(8);
};

event {
	id = 0;
	name = "sched:sched_switch";
	stream_id = 0;
	fields := struct {
		integer { size = 64; align = 1; signed = false; encoding = none; base = hexadecimal; byte_order = le; } perf_ip;
		integer { size = 32; align = 1; signed = false; encoding = none; base = decimal; byte_order = le; } perf_cpu;
		string { encoding = UTF8; } prev_comm;
		integer { size = 32; align = 1; signed = true; encoding = none; base = decimal; byte_order = le; } prev_pid;
	} align(8);
};`
	p := stdPacket(0, 0, 0, 0) // same layout up to events_discarded; cpu_id is not in this metadata
	p.w.b = p.w.b[:len(p.w.b)-4]
	p.w.pos -= 32
	for i := 0; i < 3; i++ {
		w := p.event(0, uint64(979417057183+i*1000))
		w.u64(0xffffffff81000000 + uint64(i)).u32(uint64(i % 2)).str("swapper/0").i32(int64(i - 1))
	}
	return ctfCase{name: "perf-like", about: "a perf-converted layout: clock at 0, no hostname, timestamps auto-mapped, perf_cpu in the payload",
		files: map[string][]byte{"metadata": []byte(meta), "perf_stream_0": p.finish()}}
}

// nestedTracesCase: a directory of two traces (as an LTTng session's
// kernel and ust traces) merged into one timeline.
func nestedTracesCase() ctfCase {
	files := map[string][]byte{}
	for k, sub := range []string{"kernel", "ust/uid/1000/64-bit"} {
		host := []string{"hostk", "hostu"}[k]
		// Distinct uuids, as LTTng's kernel and ust traces have:
		// babeltrace2 merges traces that share a uuid.
		meta := strings.Replace(stdPrelude, `hostname = "testhost";`, `hostname = "`+host+`";`, 1)
		meta = strings.Replace(meta, caseUUID, caseUUID[:35]+fmt.Sprint(k+5), 1) + stdStream +
			`event { name = "` + strings.ReplaceAll(sub, "/", "_") + `"; id = 0; fields := struct { uint8_t n; }; };`
		p := stdPacket(0, t0, 0, uint32(k))
		p.w.b[20-16+15] = byte(0x60 + k + 5) // the uuid's last byte
		for i := 0; i < 3; i++ {
			p.event(0, t0+uint64(2*i+k)).u8(uint64(i))
		}
		files[sub+"/metadata"] = []byte(meta)
		files[sub+"/channel0_0"] = p.finish()
	}
	files["README.txt"] = []byte("not a trace")
	return ctfCase{name: "nested-traces", about: "a directory holding two traces found recursively (kernel/ and ust/uid/1000/64-bit/) merged into one timeline", files: files}
}

func textNoSignatureCase() ctfCase {
	c := simple("text-no-signature", "plain-text metadata without the /* CTF 1.8 */ signature",
		`event { name = "e"; id = 0; fields := struct { uint8_t n; }; };`, func(p *pktw) {
			p.event(0, t0).u8(1)
		})
	c.files["metadata"] = []byte(strings.Replace(string(c.files["metadata"]), "/* CTF 1.8 */\n", "", 1))
	return c
}
