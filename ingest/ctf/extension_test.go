package ctf

import (
	"io"
	"testing"
)

// TestAbsoluteVariantTag: variant tags given as absolute paths
// (<stream.event.header.kind>, CTF 1.8.3 section 7.3.2), which babeltrace2's
// parser refuses, and a sequence whose length is in the stream event
// context. The expected text follows babeltrace2's format.
func TestAbsoluteVariantTag(t *testing.T) {
	meta := []byte(`/* CTF 1.8 */
typealias integer { size = 8; align = 8; } := u8;
typealias integer { size = 16; align = 8; } := u16;
trace { major = 1; minor = 8; byte_order = le; };
stream {
	event.header := struct { u8 id; enum : u8 { SMALL, LARGE } kind; };
	event.context := struct { u8 n; };
};
event { name = "e"; id = 0; fields := struct {
	variant <stream.event.header.kind> { u8 SMALL; u16 LARGE; } v;
	u8 seq[stream.event.context.n];
}; };`)
	data := []byte{
		0, 0, 2, 7, 1, 2, // id 0, SMALL, n = 2, v = 7, seq = [1, 2]
		0, 1, 1, 0x34, 0x12, 9, // id 0, LARGE, n = 1, v = 0x1234, seq = [9]
	}
	r, err := openMem(meta, data)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"{ n = 2 }, { v = { 7 }, seq = [ [0] = 1, [1] = 2 ] }",
		"{ n = 1 }, { v = { 4660 }, seq = [ [0] = 9 ] }",
	}
	for i, w := range want {
		ev, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if got := string(r.AppendContents(nil, ev)); got != w {
			t.Errorf("event %d: %s\nwant %s", i, got, w)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after the last event: %v", err)
	}
}
