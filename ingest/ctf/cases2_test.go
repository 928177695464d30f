package ctf_test

import (
	"encoding/binary"
	"strings"
)

// Hand-written CTF 2 traces for what CTF 1.8 cannot express, compared
// with babeltrace2 2.1 (cases2_run_test.go). A case's metadata is a list
// of fragments (each written after the record separator); its data is
// one stream file. Without a packet header or context, the file is one
// packet running to its end (CTF2-SPEC-2.0 "packet bookkeeping").

type ctf2Case struct {
	name, about string
	frags       []string
	data        []byte
	// err: the case is invalid; tracetui's error must contain it.
	err string
	// spec: the output the specification gives where babeltrace2 2.1
	// prints something else (why: in about).
	spec string
}

// Builders of data bytes.

func uleb(v uint64) []byte {
	var b []byte
	for {
		c := byte(v & 0x7F)
		v >>= 7
		if v == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func sleb(v int64) []byte {
	var b []byte
	for {
		c := byte(v & 0x7F)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func le16(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }
func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

const (
	preamble = `{"type":"preamble","version":2}`
	plainDSC = `{"type":"data-stream-class"}`
	u8       = `{"type":"fixed-length-unsigned-integer","length":8,"byte-order":"little-endian","alignment":8}`
	u16      = `{"type":"fixed-length-unsigned-integer","length":16,"byte-order":"little-endian","alignment":8}`
	u32      = `{"type":"fixed-length-unsigned-integer","length":32,"byte-order":"little-endian","alignment":8}`
	str      = `{"type":"null-terminated-string"}`
)

// payloadEvent is an event record class named ev, id 0, with the given
// payload members ("name": class pairs).
func payloadEvent(members ...string) string {
	var ms []string
	for i := 0; i+1 < len(members); i += 2 {
		ms = append(ms, `{"name":"`+members[i]+`","field-class":`+members[i+1]+`}`)
	}
	return `{"type":"event-record-class","name":"ev","payload-field-class":{"type":"structure","member-classes":[` + strings.Join(ms, ",") + `]}}`
}

// idEvents is a data stream class whose event header is an 8-bit id.
const idDSC = `{"type":"data-stream-class","event-record-header-field-class":{"type":"structure","member-classes":[{"name":"id","field-class":{"type":"fixed-length-unsigned-integer","length":8,"byte-order":"little-endian","alignment":8,"roles":["event-record-class-id"]}}]}}`

var ctf2Cases = []ctf2Case{
	{
		name: "worked-example", about: "the reading guide's worked example: packet header with magic, UUID BLOB and stream class id, clock, timestamps, aliases with roles",
		frags: []string{
			`{"type":"preamble","version":2,"uuid":[42,100,34,208,108,238,17,224,140,8,203,7,215,179,165,100]}`,
			`{"type":"field-class-alias","name":"int32_t","field-class":{"type":"fixed-length-signed-integer","length":32,"byte-order":"little-endian","alignment":8}}`,
			`{"type":"field-class-alias","name":"uint64_clock_monotonic_t","field-class":{"type":"fixed-length-unsigned-integer","length":64,"byte-order":"little-endian","alignment":8,"roles":["default-clock-timestamp"]}}`,
			`{"type":"trace-class","environment":{"hostname":"demo-host"},"packet-header-field-class":{"type":"structure","member-classes":[{"name":"magic","field-class":{"type":"fixed-length-unsigned-integer","length":32,"byte-order":"little-endian","alignment":8,"roles":["packet-magic-number"]}},{"name":"uuid","field-class":{"type":"static-length-blob","length":16,"roles":["metadata-stream-uuid"]}},{"name":"stream_id","field-class":{"type":"fixed-length-unsigned-integer","length":32,"byte-order":"little-endian","alignment":8,"roles":["data-stream-class-id"]}}]}}`,
			`{"type":"clock-class","id":"monotonic","name":"monotonic","frequency":1000000000,"offset-from-origin":{"seconds":1700000000,"cycles":0}}`,
			`{"type":"data-stream-class","id":0,"default-clock-class-id":"monotonic","packet-context-field-class":{"type":"structure","member-classes":[{"name":"timestamp_begin","field-class":"uint64_clock_monotonic_t"},{"name":"timestamp_end","field-class":{"type":"fixed-length-unsigned-integer","length":64,"byte-order":"little-endian","alignment":8,"roles":["packet-end-default-clock-timestamp"]}},{"name":"content_size","field-class":{"type":"fixed-length-unsigned-integer","length":64,"byte-order":"little-endian","alignment":8,"roles":["packet-content-length"]}},{"name":"packet_size","field-class":{"type":"fixed-length-unsigned-integer","length":64,"byte-order":"little-endian","alignment":8,"roles":["packet-total-length"]}}]},"event-record-header-field-class":{"type":"structure","member-classes":[{"name":"id","field-class":{"type":"fixed-length-unsigned-integer","length":32,"byte-order":"little-endian","alignment":8,"roles":["event-record-class-id"]}},{"name":"timestamp","field-class":"uint64_clock_monotonic_t"}]}}`,
			`{"type":"event-record-class","id":0,"data-stream-class-id":0,"name":"demo:sample","payload-field-class":{"type":"structure","member-classes":[{"name":"value","field-class":"int32_t"},{"name":"msg","field-class":{"type":"null-terminated-string"}}]}}`,
		},
		data: workedExampleData(),
	},
	{
		name: "leb128", about: "LEB128 integers at the 64-bit limits, signed and unsigned, with a display base and mappings",
		frags: []string{preamble, plainDSC, payloadEvent(
			"u", `{"type":"variable-length-unsigned-integer"}`,
			"s", `{"type":"variable-length-signed-integer"}`,
			"h", `{"type":"variable-length-unsigned-integer","preferred-display-base":16}`,
			"m", `{"type":"variable-length-unsigned-integer","mappings":{"LOW":[[0,127]],"HIGH":[[128,18446744073709551615]]}}`,
		)},
		data: cat(
			uleb(0), sleb(0), uleb(0), uleb(0),
			uleb(127), sleb(-1), uleb(0xBEEF), uleb(128),
			uleb(128), sleb(63), uleb(1<<63), uleb(1<<63),
			uleb(300), sleb(-64), uleb(1), uleb(5),
			uleb(1<<64-1), sleb(1<<63-1), uleb(1<<64-1), uleb(1<<64-1),
			uleb(1<<63), sleb(-1<<63), uleb(2), uleb(127),
			[]byte{0x80, 0x80, 0x00}, []byte{0xFF, 0x7F}, []byte{0x81, 0x00}, []byte{0x00}, // padded encodings
		),
	},
	{
		name: "leb128-wide", about: "an unsigned LEB128 integer of 65 bits is refused",
		frags: []string{preamble, plainDSC, payloadEvent("u", `{"type":"variable-length-unsigned-integer"}`)},
		data:  []byte{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x03},
		err:   "variable-length integer holds more than 64 bits",
	},
	{
		name: "leb128-wide-signed", about: "a signed LEB128 integer below -2^63 is refused",
		frags: []string{preamble, plainDSC, payloadEvent("s", `{"type":"variable-length-signed-integer"}`)},
		data:  []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7E},
		err:   "variable-length integer holds more than 64 bits",
	},
	{
		name: "blobs", about: "static- and dynamic-length BLOBs, an empty one, lengths from a LEB128 and a fixed-length integer",
		frags: []string{preamble, plainDSC, payloadEvent(
			"s", `{"type":"static-length-blob","length":4,"media-type":"application/x-test"}`,
			"n", `{"type":"variable-length-unsigned-integer"}`,
			"d", `{"type":"dynamic-length-blob","length-field-location":{"path":["n"]}}`,
			"k", u8,
			"e", `{"type":"dynamic-length-blob","length-field-location":{"origin":"event-record-payload","path":["k"]}}`,
		)},
		data: cat(
			[]byte{0xDE, 0xAD, 0xBE, 0xEF}, uleb(3), []byte{0, 0x7F, 0xFF}, []byte{0},
			[]byte{1, 2, 3, 4}, uleb(0), []byte{2}, []byte{0xAB, 0xCD},
		),
	},
	{
		name: "optionals", about: "optionals with a boolean selector, an unsigned integer selector with ranges, a signed one with negative ranges",
		frags: []string{preamble, plainDSC, payloadEvent(
			"b", `{"type":"fixed-length-boolean","length":8,"byte-order":"little-endian","alignment":8}`,
			"ob", `{"type":"optional","selector-field-location":{"path":["b"]},"field-class":`+str+`}`,
			"u", u8,
			"ou", `{"type":"optional","selector-field-location":{"path":["u"]},"selector-field-ranges":[[1,3],[10,10]],"field-class":`+u32+`}`,
			"s", `{"type":"variable-length-signed-integer"}`,
			"os", `{"type":"optional","selector-field-location":{"origin":"event-record-payload","path":["s"]},"selector-field-ranges":[[-5,-2]],"field-class":{"type":"structure","member-classes":[{"name":"x","field-class":`+u8+`}]}}`,
		)},
		data: cat(
			[]byte{1}, []byte("maybe\x00"), []byte{2}, le32(7), sleb(-3), []byte{9},
			[]byte{0}, []byte{4}, sleb(-1),
			[]byte{0x10}, []byte("\x00"), []byte{10}, le32(1<<32-1), sleb(-5), []byte{0},
		),
	},
	{
		name: "bit-arrays", about: "bit arrays, booleans and bit maps with overlapping flags, none active, big-endian and bit-packed",
		frags: []string{preamble, plainDSC, payloadEvent(
			"ba", `{"type":"fixed-length-bit-array","length":16,"byte-order":"little-endian","alignment":8}`,
			"bm", `{"type":"fixed-length-bit-map","length":8,"byte-order":"little-endian","alignment":8,"flags":{"READ":[[0,0]],"WRITE":[[1,1]],"EXEC":[[2,2]],"HIGH":[[4,7]],"ANY":[[0,7]]}}`,
			"bb", `{"type":"fixed-length-bit-map","length":12,"byte-order":"big-endian","flags":{"TOP":[[11,11]],"LOW":[[0,3]]}}`,
			"t", `{"type":"fixed-length-boolean","length":1,"byte-order":"big-endian"}`,
			"f", `{"type":"fixed-length-boolean","length":3,"byte-order":"big-endian"}`,
		)},
		data: cat(
			[]byte{0xAB, 0xCD}, []byte{0x15}, []byte{0x80, 0x1A}, // bb = 0x801, t = 1, f = 0b010
			[]byte{0, 0}, []byte{0}, []byte{0x00, 0x00},
		),
	},
	{
		name: "mappings-overlap", about: "integer mappings that overlap: a value with several labels, none, negative ranges",
		frags: []string{preamble, plainDSC, payloadEvent(
			"u", `{"type":"fixed-length-unsigned-integer","length":8,"byte-order":"little-endian","alignment":8,"mappings":{"zeta":[[0,10]],"alpha":[[5,6]],"Mid":[[1,20]],"b":[[6,6],[30,31]]}}`,
			"s", `{"type":"fixed-length-signed-integer","length":8,"byte-order":"little-endian","alignment":8,"mappings":{"neg":[[-10,-1]],"all":[[-128,127]]}}`,
		)},
		data: []byte{6, 0xFB, 0, 0, 25, 3, 31, 0x80, 1, 0xFF},
	},
	{
		name: "aliases", about: "field-class aliases: chained, carrying roles and mappings, used as scopes, members, elements and options",
		frags: []string{preamble,
			`{"type":"field-class-alias","name":"byte","field-class":` + u8 + `}`,
			`{"type":"field-class-alias","name":"octet","field-class":"byte"}`,
			`{"type":"field-class-alias","name":"ev-id","field-class":{"type":"fixed-length-unsigned-integer","length":8,"byte-order":"little-endian","alignment":8,"roles":["event-record-class-id"]}}`,
			`{"type":"field-class-alias","name":"hdr","field-class":{"type":"structure","member-classes":[{"name":"id","field-class":"ev-id"}]}}`,
			`{"type":"field-class-alias","name":"pair","field-class":{"type":"structure","member-classes":[{"name":"a","field-class":"octet"},{"name":"b","field-class":"byte"}]}}`,
			`{"type":"data-stream-class","event-record-header-field-class":"hdr"}`,
			`{"type":"event-record-class","id":0,"name":"first","payload-field-class":"pair"}`,
			`{"type":"event-record-class","id":1,"name":"second","payload-field-class":{"type":"structure","member-classes":[{"name":"arr","field-class":{"type":"static-length-array","length":2,"element-field-class":"pair"}},{"name":"sel","field-class":"octet"},{"name":"v","field-class":{"type":"variant","selector-field-location":{"path":["sel"]},"options":[{"name":"x","selector-field-ranges":[[0,0]],"field-class":"octet"},{"name":"y","selector-field-ranges":[[1,5]],"field-class":"pair"}]}}]}}`,
		},
		data: []byte{0, 1, 2, 1, 3, 4, 5, 6, 0, 7, 1, 8, 9, 10, 11, 1, 12, 13},
	},
	{
		name: "user-attributes", about: "user attributes on every kind of object are kept and do not change decoding; LTTng's log level",
		frags: []string{
			`{"type":"preamble","version":2,"attributes":{"example.com,2026":{"note":[1,2,{"x":null}]}}}`,
			`{"type":"trace-class","attributes":{"lttng.org,2009":{"x":1}},"environment":{"hostname":"attr-host","domain":"ust","tracer_major":2}}`,
			`{"type":"data-stream-class","attributes":{"a":true}}`,
			`{"type":"event-record-class","name":"ev","attributes":{"lttng.org,2009":{"log-level":"warning","emf-uri":"http://example.com"}},"payload-field-class":{"type":"structure","attributes":{"b":"c"},"member-classes":[{"name":"_x","attributes":{"d":{}},"field-class":{"type":"fixed-length-unsigned-integer","length":8,"byte-order":"little-endian","alignment":8,"attributes":{"e":[]}}}]}}`,
		},
		data: []byte{1, 2},
	},
	{
		name: "leb128-timestamps", about: "LEB128 event ids and partial timestamps (7 bits per byte read) updating a clock with a negative offset and a 1 kHz frequency; babeltrace2 2.1.2 ORs a LEB128 timestamp into the clock instead (100 after 50 gives 118), the output is CTF2-SPEC-2.0 section 6.3's",
		spec: "[-1.400000000] a: { x = 1 }\n[-1.380000000] b: \n[-1.367000000] a: { x = 2 }\n[18.500000000] a: { x = 3 }\n[1099511626.276000000] b: \n",
		frags: []string{preamble,
			`{"type":"clock-class","id":"c","frequency":1000,"offset-from-origin":{"seconds":-2,"cycles":500},"origin":"unix-epoch"}`,
			`{"type":"data-stream-class","default-clock-class-id":"c","packet-context-field-class":{"type":"structure","member-classes":[{"name":"begin","field-class":{"type":"fixed-length-unsigned-integer","length":64,"byte-order":"little-endian","alignment":8,"roles":["default-clock-timestamp"]}},{"name":"end","field-class":{"type":"fixed-length-unsigned-integer","length":64,"byte-order":"little-endian","alignment":8,"roles":["packet-end-default-clock-timestamp"]}}]},"event-record-header-field-class":{"type":"structure","member-classes":[{"name":"id","field-class":{"type":"variable-length-unsigned-integer","roles":["event-record-class-id"]}},{"name":"ts","field-class":{"type":"variable-length-unsigned-integer","roles":["default-clock-timestamp"]}}]}}`,
			`{"type":"event-record-class","id":0,"name":"a","payload-field-class":{"type":"structure","member-classes":[{"name":"x","field-class":` + u8 + `}]}}`,
			`{"type":"event-record-class","id":300,"name":"b"}`,
		},
		data: cat(
			le64(50), le64(1<<40+10),
			uleb(0), uleb(100), []byte{1}, // ts 100
			uleb(300), uleb(120), // 7-bit timestamp 120 >= 100: 120
			uleb(0), uleb(5), []byte{2}, // 5 < 120: wraps at 2^7: 128+5
			uleb(0), uleb(20000), []byte{3}, // 14 bits: 20000
			uleb(300), uleb(1<<40), // 42 bits
		),
	},
	{
		name: "optional-after-bit-array", about: "an optional whose boolean selector is followed by a bit array: babeltrace2 2.1.2 dies (SIGSEGV); the output is the specification's",
		frags: []string{preamble, plainDSC, payloadEvent(
			"b", `{"type":"fixed-length-boolean","length":8,"byte-order":"little-endian","alignment":8}`,
			"ba", `{"type":"fixed-length-bit-array","length":8,"byte-order":"little-endian","alignment":8}`,
			"opt", `{"type":"optional","selector-field-location":{"path":["b"]},"field-class":`+str+`}`,
		)},
		data: cat([]byte{1, 3}, []byte("maybe\x00"), []byte{0, 0xF0}),
		spec: "ev: { b = true, ba = 0x3, opt = { \"maybe\" } }\nev: { b = false, ba = 0xF0, opt = <none> }\n",
	},
	{
		name: "string-encodings", about: "null-terminated, static- and dynamic-length strings in UTF-8, UTF-16 and UTF-32 of both byte orders: surrogate pairs, NUL code units, padding after the terminator",
		frags: []string{preamble, plainDSC, payloadEvent(
			"a", `{"type":"null-terminated-string","encoding":"utf-16le"}`,
			"b", `{"type":"null-terminated-string","encoding":"utf-32be"}`,
			"c", `{"type":"static-length-string","length":8,"encoding":"utf-16be"}`,
			"n", u8,
			"d", `{"type":"dynamic-length-string","length-field-location":{"path":["n"]},"encoding":"utf-32le"}`,
			"e", `{"type":"static-length-string","length":6}`,
			"f", `{"type":"null-terminated-string","encoding":"utf-16be"}`,
		)},
		data: cat(
			[]byte{'h', 0, 0xE9, 0, 0xAC, 0x20, 0x3D, 0xD8, 0x00, 0xDE, 0, 0}, // "hé€😀" UTF-16LE, a surrogate pair
			[]byte{0, 0, 0, 'x', 0, 1, 0xF6, 0x00, 0, 0, 0, 0},                // "x😀" UTF-32BE
			[]byte{0, 'a', 0, 'b', 0, 0, 'z', 'z'},                            // "ab", NUL, padding
			[]byte{8}, []byte{'o', 0, 0, 0, 'k', 0, 0, 0},                     // "ok"
			[]byte("caf\xc3\xa9\x00"), // "café" UTF-8
			[]byte{0x01, 0x00, 0, 0},  // U+0100 UTF-16BE
		),
	},
	{
		name: "bit-orders", about: "integers and bit maps whose bit order is not their byte order's default: the bits read are reversed, bit-packed and aligned, signed",
		frags: []string{preamble, plainDSC, payloadEvent(
			"a", `{"type":"fixed-length-unsigned-integer","length":8,"byte-order":"little-endian","bit-order":"last-to-first","alignment":8}`,
			"b", `{"type":"fixed-length-unsigned-integer","length":4,"byte-order":"big-endian","bit-order":"first-to-last"}`,
			"c", `{"type":"fixed-length-signed-integer","length":12,"byte-order":"big-endian","bit-order":"first-to-last"}`,
			"d", `{"type":"fixed-length-unsigned-integer","length":16,"byte-order":"little-endian","bit-order":"last-to-first","alignment":8}`,
			"m", `{"type":"fixed-length-bit-map","length":8,"byte-order":"little-endian","bit-order":"last-to-first","alignment":8,"flags":{"B0":[[0,0]],"B7":[[7,7]]}}`,
		)},
		data: []byte{0x01, 0x1E, 0x01, 0x34, 0x12, 0x01, 0x80, 0x0F, 0xF0, 0, 0, 0x01},
	},
	{
		name: "field-locations", about: "field locations: relative with steps up, absolute into the header and the current scope, into the structure being decoded, from inside an array element, an optional and a variant option",
		frags: []string{preamble,
			`{"type":"data-stream-class","event-record-header-field-class":{"type":"structure","member-classes":[{"name":"hn","field-class":` + u8 + `}]}}`,
			payloadEvent(
				"n", u8,
				"outer", `{"type":"structure","member-classes":[`+
					`{"name":"m","field-class":`+u8+`},`+
					`{"name":"inner","field-class":{"type":"structure","member-classes":[`+
					`{"name":"a","field-class":{"type":"dynamic-length-array","length-field-location":{"path":[null,"m"]},"element-field-class":`+u8+`}},`+
					`{"name":"b","field-class":{"type":"dynamic-length-array","length-field-location":{"path":[null,"m"]},"element-field-class":`+u8+`}},`+
					`{"name":"c","field-class":{"type":"dynamic-length-array","length-field-location":{"origin":"event-record-header","path":["hn"]},"element-field-class":`+u8+`}},`+
					`{"name":"d","field-class":{"type":"dynamic-length-array","length-field-location":{"origin":"event-record-payload","path":["outer","m"]},"element-field-class":`+u8+`}}`+
					`]}}]}`,
				"arr", `{"type":"static-length-array","length":2,"element-field-class":{"type":"structure","member-classes":[{"name":"k","field-class":`+u8+`},{"name":"s","field-class":{"type":"dynamic-length-string","length-field-location":{"origin":"event-record-payload","path":["arr","k"]}}}]}}`,
				"o", `{"type":"optional","selector-field-location":{"path":["n"]},"selector-field-ranges":[[1,255]],"field-class":{"type":"structure","member-classes":[{"name":"q","field-class":`+u8+`},{"name":"r","field-class":{"type":"dynamic-length-blob","length-field-location":{"origin":"event-record-payload","path":["o","q"]}}}]}}`,
				"v", `{"type":"variant","selector-field-location":{"path":["n"]},"options":[{"name":"zero","selector-field-ranges":[[0,0]],"field-class":`+u8+`},{"name":"more","selector-field-ranges":[[1,255]],"field-class":{"type":"structure","member-classes":[{"name":"w","field-class":`+u8+`},{"name":"t","field-class":{"type":"dynamic-length-string","length-field-location":{"path":["w"]}}}]}}]}`,
			)},
		data: cat(
			[]byte{1}, // hn
			[]byte{2}, // n
			[]byte{1}, // outer.m
			[]byte{10}, []byte{12}, []byte{13}, []byte{14},
			[]byte{1}, []byte("x"), []byte{2}, []byte("yz"),
			[]byte{2}, []byte{0xAA, 0xBB},
			[]byte{3}, []byte("abc"),
		),
	},
	{
		name: "field-location-two-up", about: "a field location stepping up twice ([null, null, \"n\"] from a structure in a structure: the payload's n); babeltrace2 2.1.2 resolves it to outer.inner.n and refuses the metadata, the output is the specification's",
		frags: []string{preamble, plainDSC, payloadEvent(
			"n", u8,
			"outer", `{"type":"structure","member-classes":[{"name":"inner","field-class":{"type":"structure","member-classes":[{"name":"a","field-class":{"type":"dynamic-length-array","length-field-location":{"path":[null,null,"n"]},"element-field-class":`+u8+`}}]}}]}`,
		)},
		data: []byte{2, 10, 11, 0},
		spec: "ev: { n = 2, outer = { inner = { a = [ [0] = 10, [1] = 11 ] } } }\nev: { n = 0, outer = { inner = { a = [ ] } } }\n",
	},
	{
		name: "unnamed-event", about: "an event record class without a name (optional in CTF 2) and with no id (0 by default), no header, no packet context",
		frags: []string{preamble, plainDSC, `{"type":"event-record-class","payload-field-class":{"type":"structure","member-classes":[{"name":"x","field-class":{"type":"fixed-length-unsigned-integer","length":8,"byte-order":"little-endian"}}]}}`},
		data:  []byte("ab"),
	},
	{
		name: "locations-through-variants", about: "field locations through complete variants: a variant of 8-, 16- and 32-bit integers as a length, options each holding a member of the same name; two dependents of one location",
		frags: []string{preamble, plainDSC, payloadEvent(
			"sel", u8,
			"v", `{"type":"variant","selector-field-location":{"path":["sel"]},"options":[{"selector-field-ranges":[[0,0]],"field-class":`+u8+`},{"selector-field-ranges":[[1,1]],"field-class":`+u16+`},{"selector-field-ranges":[[2,2]],"field-class":`+u32+`}]}`,
			"a", `{"type":"dynamic-length-array","length-field-location":{"path":["v"]},"element-field-class":`+u8+`}`,
			"w", `{"type":"variant","selector-field-location":{"path":["sel"]},"options":[{"name":"p","selector-field-ranges":[[0,0]],"field-class":{"type":"structure","member-classes":[{"name":"len","field-class":`+u8+`}]}},{"name":"q","selector-field-ranges":[[1,2]],"field-class":{"type":"structure","member-classes":[{"name":"x","field-class":`+u8+`},{"name":"len","field-class":`+u16+`}]}}]}`,
			"s", `{"type":"dynamic-length-string","length-field-location":{"path":["w","len"]}}`,
			"t", `{"type":"dynamic-length-blob","length-field-location":{"origin":"event-record-payload","path":["w","len"]}}`,
		)},
		data: cat(
			[]byte{0}, []byte{1}, []byte{7}, []byte{2}, []byte("hi"), []byte{0xAB, 0xCD},
			[]byte{1}, le16(2), []byte{8, 9}, []byte{5}, le16(1), []byte("z"), []byte{0xEE},
			[]byte{2}, le32(0), []byte{6}, le16(0),
		),
	},
	{
		name: "unknown-extension", about: "a declared extension makes the trace refused",
		frags: []string{`{"type":"preamble","version":2,"extensions":{"example.com,2026":{"compression":true}}}`, plainDSC, payloadEvent("x", u8)},
		data:  []byte{1},
		err:   `the metadata declares extension "compression" (namespace "example.com,2026"), which tracetui does not implement`,
	},
}

// workedExampleData is the data stream of the reading guide's worked
// example: one 112-byte packet of two events.
func workedExampleData() []byte {
	uuid := []byte{42, 100, 34, 208, 108, 238, 17, 224, 140, 8, 203, 7, 215, 179, 165, 100}
	d := cat(le32(0xC1FC1FC1), uuid, le32(0), le64(1000), le64(2500), le64(800), le64(896),
		le32(0), le64(1000), le32(42), []byte("hello\x00"),
		le32(0), le64(2500), le32(uint32(0xFFFFFFF9)), []byte("world\x00"))
	return append(d, make([]byte, 112-len(d))...)
}
