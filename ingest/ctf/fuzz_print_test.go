package ctf

import (
	"io"
	"strings"
	"testing"
)

// FuzzPrint decodes and prints events of arbitrary field declarations
// over arbitrary payload bytes, as dump does (issue 32: the printers met
// shapes of metadata FuzzStream's fixed metadata never has, such as
// arrays of billions of empty elements). The reader must return events
// or a clean error, and print each event in text bounded by the bytes it
// read and its declaration, plus the budget of repeated text
// (maxRepeatText).
func FuzzPrint(f *testing.F) {
	for _, s := range printSeeds {
		f.Add(s.fields, s.payload)
	}
	f.Fuzz(func(t *testing.T, fields string, payload []byte) {
		if len(fields) > 4096 || len(payload) > 4096 {
			return
		}
		meta := stdPrelude + stdStream + `event { name = "e"; id = 0; fields := struct { ` + fields + ` }; };`
		p := stdPacket(0, t0, 0, 0)
		p.event(0, t0).raw(payload)
		r, err := openMem([]byte(meta), p.finish())
		if err != nil {
			return
		}
		// Each element that reads something prints at most the text of
		// its declaration; the ones that read nothing share the budget.
		bound := maxRepeatText + 64*(len(fields)+64)*(8*len(payload)+8)
		var buf []byte
		for {
			ev, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				if strings.Contains(err.Error(), "\n") {
					t.Fatalf("multi-line error: %v", err)
				}
				break
			}
			buf = r.AppendContents(buf[:0], ev)
			if len(buf) > bound {
				t.Fatalf("printed %d bytes for %d bytes of payload (bound %d)", len(buf), len(payload), bound)
			}
		}
	})
}

// printSeeds are declarations of every kind the printer formats, with
// payloads: the hostile shapes of emptyCases among them.
var printSeeds = []struct {
	fields  string
	payload []byte
}{
	{`uint32_t n; struct { uint8_t z[0]; } s[n];`, []byte{0xff, 0xff, 0xff, 0xff}},
	{`uint32_t k; uint32_t n; struct { struct { uint8_t z[event.fields.k]; } c[event.fields.n]; } a[n];`, []byte{0, 0, 0, 0, 0, 0, 0x10, 0}},
	{`enum : uint8_t { A = 0, B = 1 } t; uint32_t n; variant <t> { struct { } A; uint8_t B; } v[n];`, []byte{0, 0, 0, 0x10, 0}},
	{`uint32_t n; struct { struct { } e[4294967295]; } s[n];`, []byte{0xff, 0xff, 0xff, 0xff}},
	{`uint8_t a; int32_t b; uint64_t c; string s; uint8_t t[4];`, []byte("\x01\xff\xff\xff\xff\x02\x00\x00\x00\x00\x00\x00\x00hi\x00abc\x00")},
	{`integer { size = 3; base = 16; } x; integer { size = 5; signed = true; base = 8; } y; integer { size = 7; base = 2; } z;`, []byte{0xde, 0xad}},
	{`enum : uint8_t { A = 0, B = 1 ... 3, C = 2 } e; floating_point { exp_dig = 8; mant_dig = 24; align = 8; } f;`, []byte{2, 0, 0, 0x80, 0x3f}},
	{`uint8_t n; integer { size = 8; encoding = UTF8; } s[n]; uint16_t m[n];`, []byte{3, 'a', 0, 'b', 1, 0, 2, 0, 3, 0}},
	{`integer { size = 128; } w; uint8_t n; struct { uint8_t a; string b; } s[n];`, append(make([]byte, 16), 2, 1, 'x', 0, 2, 0)},
}

// TestPrintSeeds checks that every seed of FuzzPrint compiles and
// decodes at least one event, so the fuzzer starts from each shape.
func TestPrintSeeds(t *testing.T) {
	for i, s := range printSeeds {
		meta := stdPrelude + stdStream + `event { name = "e"; id = 0; fields := struct { ` + s.fields + ` }; };`
		p := stdPacket(0, t0, 0, 0)
		p.event(0, t0).raw(s.payload)
		r, err := openMem([]byte(meta), p.finish())
		if err != nil {
			t.Errorf("seed %d: %v", i, err)
			continue
		}
		ev, err := r.Next()
		if err != nil {
			t.Errorf("seed %d: %v", i, err)
			continue
		}
		t.Logf("seed %d: %.120s", i, r.AppendContents(nil, ev))
	}
}
