package tsdl

import (
	"encoding/binary"
	"errors"
	"reflect"
	"strings"
	"testing"
)

const prelude = `/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
trace { major = 1; minor = 8; byte_order = be; };
`

func mustParse(t *testing.T, text string) *Trace {
	t.Helper()
	tr, err := Parse([]byte(text))
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, text)
	}
	return tr
}

func payload(t *testing.T, tr *Trace, name string) *Type {
	t.Helper()
	for _, s := range tr.Streams {
		for _, e := range s.Events {
			if e.Name == name {
				return e.Payload
			}
		}
	}
	t.Fatalf("no event %q", name)
	return nil
}

func field(t *testing.T, st *Type, name string) *Type {
	t.Helper()
	for _, f := range st.Fields {
		if f.Name == name {
			return f.Type
		}
	}
	t.Fatalf("no field %q", name)
	return nil
}

func TestParseConstructs(t *testing.T) {
	tr := mustParse(t, `/* CTF 1.8 */
// native types declared before the trace block take its byte order
typealias integer { size = 16; align = 8; byte_order = native; } := u16;
typealias integer { size = 32; align = 32; signed = true; } := int;
trace { major = 1; minor = 8; uuid = "2a6422d0-6cee-11e0-8c08-cb07d7b3a564"; byte_order = be; };
env { hostname = "h"; answer = -42; };
clock { name = "c"; freq = 1000; offset_s = -5; offset = 7; absolute = TRUE; description = "d"; };
typedef struct { u16 a; } pair_t;
struct outer { u16 x; } align(64);
enum e : u16 { A, B, C = 10 ... 12, D, "E F" = 3, A = 20 };
variant v { u16 A; pair_t B; };
callsite { name = "x"; func = "f"; file = "f.c"; line = 1; ip = 0x1; };
stream {
	typedef u16 local_t;
	packet.context := struct { local_t n; };
	event.header := struct { integer { size = 5; align = 1; map = clock.c.value; } ts; };
};
event {
	name = "ev";
	loglevel = -1;
	model.emf.uri = "u";
	fields := struct {
		enum e tag;
		variant v <tag> var;
		struct outer o;
		int arr[2][3];
		u16 len;
		u16 seq[len];
		u16 abs[stream.packet.context.n];
		string { encoding = ASCII; } s;
		enum { X, Y } anon;
		integer { size = 8; encoding = UTF8; byte_order = le; base = x; } ch;
		floating_point { exp_dig = 11; mant_dig = 53; align = 64; } d;
	};
};`)
	if !tr.BigEndian || !tr.HasUUID || tr.UUID[0] != 0x2a || tr.UUID[15] != 0x64 {
		t.Errorf("trace: be=%v uuid=%x", tr.BigEndian, tr.UUID)
	}
	if h, ok := tr.EnvString("hostname"); !ok || h != "h" {
		t.Errorf("hostname %q %v", h, ok)
	}
	if tr.Env[1].IsStr || tr.Env[1].Int != -42 {
		t.Errorf("env answer = %+v", tr.Env[1])
	}
	c := tr.Clocks[0]
	if c.Name != "c" || c.Freq != 1000 || c.OffsetS != -5 || c.Offset != 7 || !c.Absolute || c.Description != "d" {
		t.Errorf("clock %+v", c)
	}
	p := payload(t, tr, "ev")
	if tag := field(t, p, "tag"); tag.Kind != KindEnum || !tag.BigEndian || tag.Size != 16 {
		t.Errorf("tag %+v", tag)
	} else {
		want := []Mapping{{"A", []Range{{0, 0}, {20, 20}}}, {"B", []Range{{1, 1}}}, {"C", []Range{{10, 12}}}, {"D", []Range{{13, 13}}}, {"E F", []Range{{3, 3}}}}
		if len(tag.Mappings) != len(want) {
			t.Fatalf("mappings %+v", tag.Mappings)
		}
		for i, m := range want {
			got := tag.Mappings[i]
			if got.Label != m.Label || len(got.Ranges) != len(m.Ranges) || got.Ranges[0] != m.Ranges[0] {
				t.Errorf("mapping %d = %+v, want %+v", i, got, m)
			}
		}
	}
	if v := field(t, p, "var"); v.Kind != KindVariant || v.Tag != "tag" || len(v.Fields) != 2 {
		t.Errorf("variant %+v", v)
	}
	if o := field(t, p, "o"); o.Align != 64 {
		t.Errorf("struct outer align %d, want 64", o.Align)
	}
	arr := field(t, p, "arr")
	if arr.Kind != KindArray || arr.Len != 2 || arr.Elem.Kind != KindArray || arr.Elem.Len != 3 || arr.Elem.Elem.Align != 32 {
		t.Errorf("arr[2][3] = %+v", arr)
	}
	if s := field(t, p, "seq"); s.Kind != KindSequence || s.LengthPath != "len" {
		t.Errorf("seq %+v", s)
	}
	if s := field(t, p, "abs"); s.LengthPath != "stream.packet.context.n" {
		t.Errorf("abs %+v", s)
	}
	if s := field(t, p, "s"); s.Kind != KindString || s.Encoding != EncodingASCII {
		t.Errorf("string %+v", s)
	}
	if ch := field(t, p, "ch"); ch.Encoding != EncodingUTF8 || ch.BigEndian || ch.Base != 16 || ch.Align != 8 {
		t.Errorf("char %+v", ch)
	}
	if d := field(t, p, "d"); d.Kind != KindFloat || d.Size != 64 || d.Align != 64 || !d.BigEndian {
		t.Errorf("double %+v", d)
	}
	hdr := tr.Streams[0].EventHeader
	if ts := field(t, hdr, "ts"); ts.Clock != c || ts.Align != 1 {
		t.Errorf("ts %+v", ts)
	}
	ev := tr.Streams[0].Events[0]
	if ev.LogLevel != -1 || !ev.HasLogLevel || ev.EMFURI != "u" {
		t.Errorf("event %+v", ev)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		text string
		line int
		want string
	}{
		{prelude + "event { name = \"e\"; fields := struct { uint33_t x; }; };", 5, `unknown type "uint33_t"`},
		{prelude + "event { name = \"e\"; fields := struct { uint8_t x; uint8_t x; }; };", 5, "duplicate field"},
		{prelude + "event { name = \"e\"; fields := struct { integer { size = 0; } x; }; };", 5, "size 0 out of range"},
		{prelude + "event { name = \"e\"; fields := struct { integer { size = 65537; } x; }; };", 5, "size 65537 out of range"},
		{prelude + "clock { name = c; };\nevent { name = \"e\"; fields := struct { integer { size = 128; map = clock.c.value; } x; }; };", 6, "cannot be mapped to a clock"},
		{prelude + "event { name = \"e\"; fields := struct { enum : integer { size = 72; } { A } x; }; };", 5, "enumerations hold 64 bits at most"},
		{prelude + "event { name = \"e\"; fields := struct { integer { size = 8; align = 6; } x; }; };", 5, "not a power of two"},
		{prelude + "event { name = \"e\"; fields := struct { integer { size = 8; size = 8; } x; }; };", 5, "duplicate attribute"},
		{prelude + "event { name = \"e\"; fields := struct { integer { size = 8; byte_order = middle; } x; }; };", 5, "byte_order"},
		{prelude + "event { name = \"e\"; fields := struct { integer { size = 8; map = clock.x.value; } x; }; };", 5, "undeclared clock"},
		{prelude + "event { name = \"e\"; fields := struct { floating_point { exp_dig = 5; mant_dig = 11; } h; }; };", 5, "not supported"},
		{prelude + "event { name = \"e\"; fields := struct { enum : uint8_t { } x; }; };", 5, "without labels"},
		{prelude + "typealias string { encoding = ASCII; } := str_t;\nevent { name = \"e\"; fields := struct { enum : str_t { A } x; }; };", 6, "container must be an integer"},
		{prelude + "event { name = \"e\"; fields := struct { uint8_t x : 3; }; };", 5, "bitfield"},
		{prelude + "event { name = \"e\"; fields := struct { uint8_t x[-1]; }; };", 5, "negative array length"},
		{prelude + "event { name = \"e\"; fields := uint8_t; };", 5, "must be a structure"},
		{prelude + "event { name = \"e\"; stream_id = 3; };", 5, "which is not declared"},
		{prelude + "event { id = 0; };", 5, "without a name"},
		{prelude + "event { name = \"e\"; };\nevent { name = \"f\"; };", 6, "duplicate event id"},
		{prelude + "stream { id = 1; };\nstream { id = 1; };", 6, "duplicate stream id"},
		{prelude + "clock { name = c; };\nclock { name = c; };", 6, "duplicate clock"},
		{prelude + "clock { freq = 0; name = c; };", 5, "frequency must not be 0"},
		{prelude + "trace { major = 1; minor = 8; byte_order = be; };", 5, "duplicate trace"},
		{prelude + "typealias integer { size = 8; } := uint8_t;", 5, "already declared"},
		{prelude + "struct s { uint8_t a; };\nstruct s { uint8_t b; };", 6, "already declared"},
		{prelude + "event { name = \"e\"; fields := struct { uint8_t a }; };", 5, "expected ';'"},
		{prelude + "event { name = \"e\" };", 5, "expected ';'"},
		{prelude + "event { name = \"e; };\n", 5, "newline in literal"},
		{prelude + "event { name = \"e; };", 5, "unterminated literal"},
		{prelude + "event { name = 0x; };", 5, "hexadecimal constant without digits"},
		{prelude + "event { name = 99999999999999999999; };", 5, "does not fit 64 bits"},
		{prelude + "event { name = \"e\"; } ;\n@", 6, "unexpected character"},
		{"/* CTF 1.8 */ trace { major = 2; minor = 0; byte_order = le; };", 1, "unsupported CTF version 2.0"},
		{"/* CTF 1.8 */ trace { major = 1; minor = 8; };", 0, "no trace block with a byte_order"},
		{"/* CTF 1.8 */ trace { major = 1; minor = 8; byte_order = native; };", 1, "byte_order must be be, le or network"},
		{"/* CTF 1.8 */ trace { major = 1; minor = 8; byte_order = le; uuid = \"nope\"; };", 1, "malformed uuid"},
		{prelude + strings.Repeat("typedef struct { ", 100), 5, "nested more than"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.text))
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrInvalid) {
			t.Errorf("%q: error %v, want a *tsdl.Error", tail(c.text), err)
			continue
		}
		if e.Line != c.line || !strings.Contains(e.Reason, c.want) {
			t.Errorf("%q:\n got  line %d: %s\n want line %d: ...%s...", tail(c.text), e.Line, e.Reason, c.line, c.want)
		}
	}
}

func tail(s string) string {
	if i := strings.LastIndex(s, "};\n"); i >= 0 && i+3 < len(s) {
		return s[i+3:]
	}
	return s
}

func TestCommentLeftOpenAtEnd(t *testing.T) {
	mustParse(t, prelude+"/* never closed\n\n")
}

func TestEscapes(t *testing.T) {
	tr := mustParse(t, prelude+`env { s = "a\tb\n\x41\101\u00e9\"\\"; c = 'A'; };`)
	if got := tr.Env[0].Str; got != "a\tb\nAAé\"\\" {
		t.Errorf("escapes: %q", got)
	}
	if tr.Env[1].Int != 'A' {
		t.Errorf("char constant: %d", tr.Env[1].Int)
	}
}

func packet(order binary.ByteOrder, text string, pad int, version byte) []byte {
	hdr := make([]byte, metadataHeaderSize)
	order.PutUint32(hdr, metadataMagic)
	content := (metadataHeaderSize + len(text)) * 8
	order.PutUint32(hdr[24:], uint32(content))
	order.PutUint32(hdr[28:], uint32(content+pad*8))
	hdr[35], hdr[36] = 1, version
	return append(append(hdr, text...), make([]byte, pad)...)
}

func TestDecodePacketized(t *testing.T) {
	text := prelude + `event { name = "e"; };`
	for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		data := append(packet(order, text[:50], 13, 8), packet(order, text[50:], 0, 8)...)
		if !IsPacketized(data) {
			t.Fatalf("%v: not detected as packetized", order)
		}
		got, err := Decode(data)
		if err != nil || string(got) != text {
			t.Fatalf("%v: Decode = %q, %v", order, got, err)
		}
	}
	good := packet(binary.LittleEndian, text, 0, 8)
	bad := map[string][]byte{
		"truncated header":   good[:20],
		"past end":           good[:len(good)-1],
		"version":            packet(binary.LittleEndian, text, 0, 9),
		"second bad magic":   append(append([]byte(nil), good...), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37),
		"content below hdr":  func() []byte { b := append([]byte(nil), good...); binary.LittleEndian.PutUint32(b[24:], 8); return b }(),
		"size below content": func() []byte { b := append([]byte(nil), good...); binary.LittleEndian.PutUint32(b[28:], 300); return b }(),
		"compressed":         func() []byte { b := append([]byte(nil), good...); b[32] = 1; return b }(),
	}
	for name, data := range bad {
		if _, err := Decode(data); err == nil {
			t.Errorf("%s: Decode accepted it", name)
		}
	}
}

func TestPlainTextSignature(t *testing.T) {
	for _, text := range []string{"trace { };", "/* CTF 2.0 */", "/* CTF x */", "/* CTF 1.", ""} {
		if _, err := Decode([]byte(text)); err == nil {
			t.Errorf("Decode(%q) accepted a text without a valid signature", text)
		}
	}
	if _, err := Decode([]byte("/* CTF 1.8 */ trace {};")); err != nil {
		t.Errorf("valid signature refused: %v", err)
	}
}

// FuzzParse checks that no metadata, plain or packetized, makes the
// parser panic or hang: it either returns a trace or an *Error.
func FuzzParse(f *testing.F) {
	f.Add([]byte(prelude + `event { name = "e"; fields := struct { uint8_t a[2]; uint32_t n; uint8_t s[n]; }; };`))
	f.Add([]byte(prelude + `enum x : uint8_t { A, B = 3 ... 5 }; variant v { uint8_t A; string B; };
		event { name = "e"; fields := struct { enum x t; variant v <t> v; struct { } align(64) e; }; };`))
	f.Add(packet(binary.BigEndian, prelude, 3, 8))
	f.Fuzz(func(t *testing.T, data []byte) {
		text, err := Decode(data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Decode error is not a *tsdl.Error: %v", err)
			}
			return
		}
		tr, err := Parse(text)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse error is not a *tsdl.Error: %v", err)
			}
			return
		}
		if b, err := tr.AppendBinary(nil); err == nil { // too deep: no binary form
			if got, err := DecodeBinary(b); err != nil || !reflect.DeepEqual(got, tr) {
				t.Fatalf("the binary form does not decode to the parsed model: %v", err)
			}
		}
	})
}

// TestWideIntegers: integers over 64 bits, up to MaxIntBits, are a kind
// of their own, with their attributes; 64 bits is still an integer.
func TestWideIntegers(t *testing.T) {
	tr := mustParse(t, prelude+`event { name = "e"; fields := struct {
		integer { size = 64; } i64;
		integer { size = 65; align = 1; signed = true; byte_order = le; } w65;
		integer { size = 65536; } wmax;
	}; };`)
	p := payload(t, tr, "e")
	if i := field(t, p, "i64"); i.Kind != KindInt || i.Size != 64 {
		t.Errorf("i64: %v of %d bits", i.Kind, i.Size)
	}
	if w := field(t, p, "w65"); w.Kind != KindWideInt || w.Size != 65 || w.Align != 1 || !w.Signed || w.BigEndian {
		t.Errorf("w65: %+v", w)
	}
	if w := field(t, p, "wmax"); w.Kind != KindWideInt || w.Size != MaxIntBits || w.Align != 8 || !w.BigEndian {
		t.Errorf("wmax: %+v", w)
	}
	if KindWideInt.String() != "wide integer" {
		t.Errorf("KindWideInt prints as %q", KindWideInt)
	}
}
