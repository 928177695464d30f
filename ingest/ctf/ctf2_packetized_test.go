package ctf_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// workedExample18 is the reading guide's worked example in TSDL: the
// same data stream as the CTF 2 case "worked-example".
const workedExample18 = `/* CTF 1.8 */
typealias integer { size = 8;  align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
trace {
	major = 1; minor = 8;
	uuid = "2a6422d0-6cee-11e0-8c08-cb07d7b3a564";
	byte_order = le;
	packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id; };
};
env { hostname = "demo-host"; };
clock { name = monotonic; freq = 1000000000; offset_s = 1700000000; offset = 0; };
typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_monotonic_t;
stream {
	id = 0;
	packet.context := struct { uint64_clock_monotonic_t timestamp_begin; uint64_clock_monotonic_t timestamp_end; uint64_t content_size; uint64_t packet_size; };
	event.header := struct { uint32_t id; uint64_clock_monotonic_t timestamp; };
};
event {
	name = "demo:sample"; id = 0; stream_id = 0;
	fields := struct { integer { size = 32; align = 8; signed = true; } value; string msg; };
};
`

// packetize wraps metadata text in metadata packets of the given version
// (CTF2-PMETA-1.0: the CTF 1.8 packet header, version 2.0), chunk bytes
// of text per packet.
func packetize(text []byte, major, minor byte, chunk int) []byte {
	var out []byte
	for len(text) > 0 {
		n := min(chunk, len(text))
		h := make([]byte, 37)
		binary.LittleEndian.PutUint32(h, 0x75D11D57)
		binary.LittleEndian.PutUint32(h[24:], uint32(37+n)*8)
		binary.LittleEndian.PutUint32(h[28:], uint32(37+n+3)*8)
		h[35], h[36] = major, minor
		out = append(append(append(out, h...), text[:n]...), 0, 0, 0)
		text = text[n:]
	}
	return out
}

// TestCTF2MetadataForms reads the worked example's data stream with its
// CTF 2 metadata plain and packetized (version 2.0 packets), and with its
// CTF 1.8 metadata: the three print the same events.
func TestCTF2MetadataForms(t *testing.T) {
	var c ctf2Case
	for _, x := range ctf2Cases {
		if x.name == "worked-example" {
			c = x
		}
	}
	dir := filepath.Join(t.TempDir(), "t")
	writeCase(t, dir, c)
	want, _, err := dump(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want == "" {
		t.Fatal("no event")
	}
	plain, err := os.ReadFile(filepath.Join(dir, "metadata"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		name string
		meta []byte
	}{
		{"CTF 2 packetized", packetize(plain, 2, 0, 100)},
		{"CTF 1.8 plain", []byte(workedExample18)},
		{"CTF 1.8 packetized", packetize([]byte(workedExample18), 1, 8, 64)},
	} {
		if err := os.WriteFile(filepath.Join(dir, "metadata"), f.meta, 0o644); err != nil {
			t.Fatal(err)
		}
		got, _, err := dump(dir)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if got != want {
			t.Errorf("%s:\n%s\nwant (CTF 2 plain):\n%s", f.name, got, want)
		}
	}
}
