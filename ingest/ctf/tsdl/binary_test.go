package tsdl

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/gen"
)

// roundTrip checks that t's binary form decodes to an equal model, with
// the same types shared, and that every truncation of it is refused.
func roundTrip(t *testing.T, name string, tr *Trace) {
	t.Helper()
	b, err := tr.AppendBinary(nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	got, err := DecodeBinary(b)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !reflect.DeepEqual(got, tr) {
		t.Fatalf("%s: the decoded model differs from the parsed one", name)
	}
	if a, b := distinctTypes(tr), distinctTypes(got); a != b {
		t.Fatalf("%s: %d distinct types parsed, %d decoded", name, a, b)
	}
	for _, n := range []int{0, 4, 5, len(b) / 3, len(b) / 2, len(b) - 1} {
		if _, err := DecodeBinary(b[:n]); !errors.Is(err, ErrBinary) {
			t.Fatalf("%s: %d of %d bytes decoded: %v", name, n, len(b), err)
		}
	}
}

func distinctTypes(tr *Trace) int {
	seen := map[*Type]bool{}
	var walk func(*Type)
	walk = func(ty *Type) {
		if ty == nil || seen[ty] {
			return
		}
		seen[ty] = true
		for _, f := range ty.Fields {
			walk(f.Type)
		}
		walk(ty.Elem)
	}
	walk(tr.PacketHeader)
	for _, s := range tr.Streams {
		walk(s.PacketContext)
		walk(s.EventHeader)
		walk(s.EventContext)
		for _, e := range s.Events {
			walk(e.Context)
			walk(e.Payload)
		}
	}
	return len(seen)
}

// TestBinaryRoundTrip: generated and real metadata, and the fuzz seeds'
// texts, decode from their binary form to the model parsed from text.
func TestBinaryRoundTrip(t *testing.T) {
	for p, text := range metadataTexts(t) {
		tr, err := Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		roundTrip(t, p, tr)
	}
	for _, text := range []string{
		prelude + `event { name = "e"; fields := struct { uint8_t a[2]; uint32_t n; uint8_t s[n]; }; };`,
		prelude + `enum x : uint8_t { A, B = 3 ... 5 }; variant v { uint8_t A; string B; };
		event { name = "e"; fields := struct { enum x t; variant v <t> v; struct { } align(64) e; floating_point { exp_dig = 11; mant_dig = 53; } f; integer { size = 128; } w; }; };`,
	} {
		tr, err := Parse([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, "literal", tr)
	}
}

// TestBinaryRefusesWhatTextCannot: decoded types obey the builder's rules.
func TestBinaryRefusesWhatTextCannot(t *testing.T) {
	tr, err := Parse([]byte(prelude + `event { name = "e"; fields := struct { uint32_t n; uint8_t s[n]; }; };`))
	if err != nil {
		t.Fatal(err)
	}
	orig := tr.Streams[0].Events[0].Payload.Fields[0].Type
	for name, spoil := range map[string]func(*Type){
		"int of 0 bits":       func(ty *Type) { ty.Size = 0 },
		"alignment 3":         func(ty *Type) { ty.Align = 3 },
		"base 7":              func(ty *Type) { ty.Base = 7 },
		"int with mappings":   func(ty *Type) { ty.Mappings = []Mapping{{Label: "A"}} },
		"int with an element": func(ty *Type) { ty.Elem = &Type{Kind: KindString, Align: 8} },
	} {
		c := *orig
		spoil(&c)
		tr.Streams[0].Events[0].Payload.Fields[0].Type = &c
		b, err := tr.AppendBinary(nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := DecodeBinary(b); !errors.Is(err, ErrBinary) {
			t.Errorf("%s: decoded (%v)", name, err)
		}
	}
}

// FuzzDecodeBinary: any bytes decode to an error or to a model whose own
// binary form decodes to it again.
func FuzzDecodeBinary(f *testing.F) {
	for _, text := range []string{
		prelude + `event { name = "e"; fields := struct { uint8_t a[2]; uint32_t n; uint8_t s[n]; }; };`,
		prelude + `enum x : uint8_t { A, B = 3 ... 5 }; variant v { uint8_t A; string B; };
		event { name = "e"; fields := struct { enum x t; variant v <t> v; }; };`,
	} {
		tr, err := Parse([]byte(text))
		if err != nil {
			f.Fatal(err)
		}
		b, err := tr.AppendBinary(nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := DecodeBinary(data)
		if err != nil {
			if !errors.Is(err, ErrBinary) {
				t.Fatalf("error does not wrap ErrBinary: %v", err)
			}
			return
		}
		b, err := tr.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		again, err := DecodeBinary(b)
		if err != nil || !reflect.DeepEqual(again, tr) {
			t.Fatalf("re-encoded model does not decode to itself: %v", err)
		}
	})
}

// BenchmarkDecodeBinary decodes bug446190's model (541 event classes)
// from its binary form; BenchmarkParseText parses its text, for the
// ratio.
func BenchmarkDecodeBinary(b *testing.B) {
	text := sharedMetadata(b, "bug446190")
	tr, err := Parse(text)
	if err != nil {
		b.Fatal(err)
	}
	bin, err := tr.AppendBinary(nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(bin)))
	for b.Loop() {
		if _, err := DecodeBinary(bin); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseText(b *testing.B) {
	text := sharedMetadata(b, "bug446190")
	b.ReportAllocs()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}

// sharedMetadata returns the metadata text of a shared trace; the
// benchmark is skipped without the shared traces.
func sharedMetadata(b *testing.B, name string) []byte {
	text, ok := metadataTexts(b)[name]
	if !ok {
		b.Skip("shared traces not found")
	}
	return text
}

// metadataTexts returns, by name, the texts of generated LTTng kernel
// metadata ("gen") and of the shared real traces' when present.
func metadataTexts(t testing.TB) map[string][]byte {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "gen")
	if _, err := gen.Write(dir, gen.Config{Threads: 3, CPUs: 2, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{"gen": filepath.Join(dir, "metadata")}
	if d := coretest.SharedDir(); d != "" {
		for _, name := range []string{"bug446190", "dpdk_service_cores", "hello-lost", "cyg-profile/glxgears-cyg-profile", "flipping-endianness", "perf-taskset2", "debuginfo-test-app3"} {
			paths[name] = filepath.Join(d, "traces", "ctf", name, "metadata")
		}
	} else {
		t.Log("shared traces not found: generated metadata only")
	}
	texts := map[string][]byte{}
	for name, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if texts[name], err = Decode(data); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	return texts
}
