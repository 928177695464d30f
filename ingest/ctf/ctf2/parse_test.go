package ctf2

import (
	"errors"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

const minimal = "\x1e{\"type\":\"preamble\",\"version\":2}\n\x1e{\"type\":\"data-stream-class\"}\n"

// TestErrorOffsets: each error names the byte offset of the value at
// fault, counted from the start of the metadata stream.
func TestErrorOffsets(t *testing.T) {
	for _, c := range []struct {
		meta string
		at   string // the error is at the first occurrence of this text
		msg  string
	}{
		{minimal + "\x1e{\"type\":\"event-record-class\",\"payload-field-class\":{\"type\":\"structure\",\"member-classes\":[{\"name\":\"x\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":8,\"byte-order\":\"little-endian\",\"alignment\":6}}]}}",
			`6}`, "alignment: 6 is not a power of two"},
		{minimal + "\x1e{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":1e9}", `1e9`, "not a 64-bit unsigned integer"},
		{minimal + "\x1e{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":1,\"colour\":2}", `"colour"`, `unknown property "colour"`},
		{"\x1e{\"type\":\"preamble\",\"version\":2,\"uuid\":[1,2]}", `[1,2]`, "expecting 16 integers, not 2"},
		{"\x1e{\"type\":\"preamble\",\"version\":2} x", ` x`, "unexpected 'x' after the JSON value"},
	} {
		_, err := Parse([]byte(c.meta))
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%q: error %v is not an *Error", c.meta, err)
		}
		want := int64(strings.Index(c.meta, c.at))
		if c.at == ` x` {
			want++ // the white space is skipped
		}
		if e.Offset != want || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q:\nerror %v\nwant byte %d: ...%s", c.meta, err, want, c.msg)
		}
		if !errors.Is(err, tsdl.ErrInvalid) {
			t.Errorf("%v does not wrap tsdl.ErrInvalid", err)
		}
	}
}

// TestSequenceForms: runs of record separators, no final line feed,
// escaped strings and 64-bit bounds are accepted.
func TestSequenceForms(t *testing.T) {
	meta := "\x1e\x1e{\"type\":\"preamble\",\"version\":2}\x1e\x1e\n\x1e {\"type\":\"trace-class\",\"environment\":{\"host\\u006eame\":\"h\\\"\\u00e9\",\"n\":-3}}" +
		"\x1e{\"type\":\"data-stream-class\"}\x1e{\"type\":\"event-record-class\",\"payload-field-class\":{\"type\":\"structure\",\"member-classes\":[{\"name\":\"x\",\"field-class\":{\"type\":\"fixed-length-unsigned-integer\",\"length\":64,\"byte-order\":\"big-endian\",\"mappings\":{\"all\":[[0,18446744073709551615]]}}}]}}"
	tr, err := Parse([]byte(meta))
	if err != nil {
		t.Fatal(err)
	}
	if h, _ := tr.EnvString("hostname"); h != "h\"é" || len(tr.Env) != 2 || tr.Env[1].Int != -3 {
		t.Errorf("environment %+v", tr.Env)
	}
	x := tr.Streams[0].Events[0].Payload.Fields[0].Type
	if x.Kind != tsdl.KindEnum || !x.BigEndian || x.Align != 1 || x.Mappings[0].Ranges[0].Hi != 1<<64-1 {
		t.Errorf("field class %+v", x)
	}
}
