package ctf_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// ctf2Rejects are the metadata rejections of the CTF 2 reading guide's
// checklist, each with the message tracetui gives (pinned: a change of
// wording is a change of behaviour users see). Fragments are separated by
// "|" and each gets its record separator.
var ctf2Rejects = []struct {
	name, meta, msg string
}{
	{"not-object", `[1,2]`, "fragment #1: expecting an object, not an array"},
	{"bad-json", `{"type":"preamble","version":2`, "invalid fragment #1: CTF 2 metadata, byte 32: want ',' or '}' in an object"},
	{"first-not-preamble", plainDSC + `|` + preamble, `the first fragment is a "data-stream-class": it must be the preamble`},
	{"second-preamble", preamble + `|` + preamble + `|` + plainDSC, "a second preamble fragment"},
	{"version-3", `{"type":"preamble","version":3}|` + plainDSC, "unexpected version 3: expecting 2"},
	{"version-float", `{"type":"preamble","version":2.0}|` + plainDSC, "preamble version: 2.0 is not a 64-bit unsigned integer"},
	{"extension-declared", `{"type":"preamble","version":2,"extensions":{"ns":{"x":1}}}|` + plainDSC, `the metadata declares extension "x" (namespace "ns"), which tracetui does not implement: the trace cannot be read`},
	{"extension-undeclared", preamble + `|{"type":"data-stream-class","extensions":{"ns":{"x":1}}}`, `data-stream-class fragment uses extension "x" of namespace "ns", which the preamble does not declare`},
	{"unknown-fragment", preamble + `|{"type":"colour"}`, `unknown fragment type "colour"`},
	{"unknown-field-class", preamble + `|` + plainDSC + `|` + payloadEvent("x", `{"type":"fixed-length-complex"}`), `unknown field class type "fixed-length-complex"`},
	{"missing-property", preamble + `|` + plainDSC + `|` + payloadEvent("x", `{"type":"fixed-length-unsigned-integer","length":8}`), `missing required property "byte-order"`},
	{"wrong-json-type", preamble + `|{"type":"data-stream-class","id":"0"}`, "data stream class id: expecting an integer, not a string"},
	{"unknown-property", preamble + `|{"type":"data-stream-class","colour":1}`, `data-stream-class fragment: unknown property "colour"`},
	{"two-trace-classes", preamble + `|{"type":"trace-class"}|{"type":"trace-class"}|` + plainDSC, "a second trace class fragment"},
	{"trace-class-late", preamble + `|` + plainDSC + `|{"type":"trace-class"}`, "the trace class fragment comes after a data stream class fragment"},
	{"no-stream-class", preamble, "missing data stream class fragment in the metadata stream"},
	{"duplicate-clock", preamble + `|{"type":"clock-class","id":"c","frequency":1}|{"type":"clock-class","id":"c","frequency":1}|` + plainDSC, `duplicate clock class id "c"`},
	{"duplicate-stream", preamble + `|` + plainDSC + `|` + plainDSC, "duplicate data stream class id 0"},
	{"duplicate-event", preamble + `|` + plainDSC + `|` + payloadEvent() + `|` + payloadEvent(), "duplicate event record class id 0 in data stream class 0"},
	{"duplicate-alias", preamble + `|{"type":"field-class-alias","name":"a","field-class":` + u8 + `}|{"type":"field-class-alias","name":"a","field-class":` + u8 + `}|` + plainDSC, `duplicate field-class alias "a"`},
	{"duplicate-member", preamble + `|` + plainDSC + `|` + payloadEvent("x", u8, "x", u8), `duplicate structure member class name "x"`},
	{"duplicate-option", preamble + `|` + plainDSC + `|` + payloadEvent("s", u8, "v", `{"type":"variant","selector-field-location":{"path":["s"]},"options":[{"name":"a","selector-field-ranges":[[0,0]],"field-class":`+u8+`},{"name":"a","selector-field-ranges":[[1,1]],"field-class":`+u8+`}]}`), `duplicate option name "a"`},
	{"clock-undefined", preamble + `|{"type":"data-stream-class","default-clock-class-id":"c"}`, `default-clock-class-id "c" names no clock class defined before`},
	{"stream-undefined", preamble + `|` + plainDSC + `|{"type":"event-record-class","data-stream-class-id":1}`, "no data stream class fragment exists with numeric ID 1"},
	{"alias-undefined", preamble + `|` + plainDSC + `|` + payloadEvent("x", `"u8"`), `field-class alias "u8" is not defined before its use`},
	{"clock-frequency-0", preamble + `|{"type":"clock-class","id":"c","frequency":0}|` + plainDSC, "clock class frequency is 0"},
	{"clock-cycles", preamble + `|{"type":"clock-class","id":"c","frequency":10,"offset-from-origin":{"cycles":10}}|` + plainDSC, "offset-from-origin cycles 10 is not less than the frequency 10"},
	{"clock-cycles-negative", preamble + `|{"type":"clock-class","id":"c","frequency":10,"offset-from-origin":{"cycles":-1}}|` + plainDSC, "offset-from-origin cycles: -1 is negative: expecting an unsigned integer"},
	{"clock-precision-negative", preamble + `|{"type":"clock-class","id":"c","frequency":10,"precision":-1}|` + plainDSC, "clock class precision: -1 is negative"},
	{"clock-origin-no-uid", preamble + `|{"type":"clock-class","id":"c","frequency":10,"origin":{"name":"x"}}|` + plainDSC, `clock class origin: missing required property "uid"`},
	{"alignment-3", preamble + `|` + plainDSC + `|` + payloadEvent("x", `{"type":"fixed-length-unsigned-integer","length":8,"byte-order":"little-endian","alignment":3}`), "alignment: 3 is not a power of two"},
	{"length-0", preamble + `|` + plainDSC + `|` + payloadEvent("x", `{"type":"fixed-length-bit-array","length":0,"byte-order":"little-endian"}`), "fixed-length-bit-array field class length is 0"},
	{"float-16", preamble + `|` + plainDSC + `|` + payloadEvent("x", `{"type":"fixed-length-floating-point-number","length":16,"byte-order":"little-endian"}`), "16-bit floating point numbers are not supported (32 or 64)"},
	{"bad-encoding", preamble + `|` + plainDSC + `|` + payloadEvent("x", `{"type":"null-terminated-string","encoding":"latin-1"}`), `unknown encoding "latin-1"`},
	{"bad-byte-order", preamble + `|` + plainDSC + `|` + payloadEvent("x", `{"type":"fixed-length-unsigned-integer","length":8,"byte-order":"middle-endian"}`), `byte-order: expecting "big-endian" or "little-endian"`},
	{"bad-bit-order", preamble + `|` + plainDSC + `|` + payloadEvent("x", `{"type":"fixed-length-unsigned-integer","length":8,"byte-order":"little-endian","bit-order":"middle-out"}`), `bit-order: expecting "first-to-last" or "last-to-first"`},
	{"unsigned-bounds-signed", preamble + `|` + plainDSC + `|` + payloadEvent("x", `{"type":"fixed-length-signed-integer","length":8,"byte-order":"little-endian","mappings":{"A":[[0,9223372036854775808]]}}`), "upper bound: 9223372036854775808 is not a 64-bit signed integer"},
	{"bad-display-base", preamble + `|` + plainDSC + `|` + payloadEvent("x", `{"type":"fixed-length-unsigned-integer","length":8,"byte-order":"little-endian","preferred-display-base":3}`), "preferred-display-base 3: expecting 2, 8, 10 or 16"},
	{"range-reversed", preamble + `|` + plainDSC + `|` + payloadEvent("x", `{"type":"fixed-length-unsigned-integer","length":8,"byte-order":"little-endian","mappings":{"A":[[5,1]]}}`), "lower bound 5 is greater than upper bound 1"},
	{"range-set-empty", preamble + `|` + plainDSC + `|` + payloadEvent("x", `{"type":"fixed-length-unsigned-integer","length":8,"byte-order":"little-endian","mappings":{"A":[]}}`), "empty integer range set"},
	{"bit-map-no-flag", preamble + `|` + plainDSC + `|` + payloadEvent("x", `{"type":"fixed-length-bit-map","length":8,"byte-order":"little-endian","flags":{}}`), "fixed-length-bit-map field class: no flag"},
	{"bit-map-flag-past", preamble + `|` + plainDSC + `|` + payloadEvent("x", `{"type":"fixed-length-bit-map","length":8,"byte-order":"little-endian","flags":{"A":[[8,8]]}}`), "bit index 8 is not less than the length 8"},
	{"signed-bounds-unsigned", preamble + `|` + plainDSC + `|` + payloadEvent("x", `{"type":"fixed-length-unsigned-integer","length":8,"byte-order":"little-endian","mappings":{"A":[[-1,1]]}}`), "-1 is negative: expecting an unsigned integer"},
	{"role-signed", preamble + `|{"type":"data-stream-class","event-record-header-field-class":{"type":"structure","member-classes":[{"name":"id","field-class":{"type":"fixed-length-signed-integer","length":8,"byte-order":"little-endian","roles":["event-record-class-id"]}}]}}`, "a signed integer cannot have roles"},
	{"role-scope", preamble + `|` + plainDSC + `|` + payloadEvent("x", `{"type":"fixed-length-unsigned-integer","length":8,"byte-order":"little-endian","roles":["packet-content-length"]}`), "`packet-content-length` role here: not valid within this scope"},
	{"role-nested", preamble + `|{"type":"data-stream-class","packet-context-field-class":{"type":"structure","member-classes":[{"name":"s","field-class":{"type":"structure","member-classes":[{"name":"n","field-class":{"type":"fixed-length-unsigned-integer","length":64,"byte-order":"little-endian","roles":["packet-content-length"]}}]}}]}}`, "`packet-content-length` role on a nested field class: tracetui reads packet header and packet context roles on the scope's direct members only"},
	{"magic-not-first", preamble + `|{"type":"trace-class","packet-header-field-class":{"type":"structure","member-classes":[{"name":"a","field-class":` + u8 + `},{"name":"m","field-class":{"type":"fixed-length-unsigned-integer","length":32,"byte-order":"little-endian","roles":["packet-magic-number"]}}]}}|` + plainDSC, "the `packet-magic-number` role is only valid on the first member of the packet header"},
	{"magic-16", preamble + `|{"type":"trace-class","packet-header-field-class":{"type":"structure","member-classes":[{"name":"m","field-class":{"type":"fixed-length-unsigned-integer","length":16,"byte-order":"little-endian","roles":["packet-magic-number"]}}]}}|` + plainDSC, "the `packet-magic-number` role needs a 32-bit fixed-length unsigned integer"},
	{"uuid-not-16", `{"type":"preamble","version":2,"uuid":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}|{"type":"trace-class","packet-header-field-class":{"type":"structure","member-classes":[{"name":"u","field-class":{"type":"static-length-blob","length":8,"roles":["metadata-stream-uuid"]}}]}}|` + plainDSC, "the `metadata-stream-uuid` role needs a 16-byte BLOB, not 8 bytes"},
	{"uuid-no-preamble-uuid", preamble + `|{"type":"trace-class","packet-header-field-class":{"type":"structure","member-classes":[{"name":"u","field-class":{"type":"static-length-blob","length":16,"roles":["metadata-stream-uuid"]}}]}}|` + plainDSC, "the `metadata-stream-uuid` role, but the preamble has no uuid"},
	{"timestamp-no-clock", preamble + `|{"type":"data-stream-class","event-record-header-field-class":{"type":"structure","member-classes":[{"name":"t","field-class":{"type":"fixed-length-unsigned-integer","length":64,"byte-order":"little-endian","roles":["default-clock-timestamp"]}}]}}`, "a timestamp role needs a data stream class with a default clock class"},
	{"scope-not-struct", preamble + `|{"type":"data-stream-class","packet-context-field-class":` + u8 + `}`, "the packet context field class is a integer: it must be a structure"},
	{"path-empty", preamble + `|` + plainDSC + `|` + payloadEvent("d", `{"type":"dynamic-length-string","length-field-location":{"path":[]}}`), "empty path"},
	{"path-ends-null", preamble + `|` + plainDSC + `|` + payloadEvent("d", `{"type":"dynamic-length-string","length-field-location":{"path":["x",null]}}`), "path ends with `null`"},
	{"origin-unknown", preamble + `|` + plainDSC + `|` + payloadEvent("d", `{"type":"dynamic-length-string","length-field-location":{"origin":"elsewhere","path":["x"]}}`), `unknown origin "elsewhere"`},
	{"origin-later", preamble + `|{"type":"data-stream-class","packet-context-field-class":{"type":"structure","member-classes":[{"name":"d","field-class":{"type":"dynamic-length-string","length-field-location":{"origin":"event-record-payload","path":["n"]}}}]}}|` + payloadEvent("n", u8), "the field location's origin event.fields is decoded after stream.packet.context"},
	{"path-forward", preamble + `|` + plainDSC + `|` + payloadEvent("d", `{"type":"dynamic-length-string","length-field-location":{"path":["n"]}}`, "n", u8), `field location doesn't locate anything ("n" is not decoded before the field that uses it)`},
	{"path-above-root", preamble + `|` + plainDSC + `|` + payloadEvent("n", u8, "d", `{"type":"dynamic-length-string","length-field-location":{"path":[null,"n"]}}`), "field location climbs above its scope's root"},
	{"path-not-integer", preamble + `|` + plainDSC + `|` + payloadEvent("n", str, "d", `{"type":"dynamic-length-string","length-field-location":{"path":["n"]}}`), `"n" is a string, not an integer`},
	{"path-through-optional", preamble + `|` + plainDSC + `|` + payloadEvent("s", u8, "o", `{"type":"optional","selector-field-location":{"path":["s"]},"selector-field-ranges":[[1,1]],"field-class":{"type":"structure","member-classes":[{"name":"n","field-class":`+u8+`}]}}`, "d", `{"type":"dynamic-length-string","length-field-location":{"path":["o","n"]}}`), `field location goes through an optional ("o") already decoded, which may be absent`},
	{"path-mixed-kinds", preamble + `|` + plainDSC + `|` + payloadEvent("s", u8, "v", `{"type":"variant","selector-field-location":{"path":["s"]},"options":[{"selector-field-ranges":[[0,0]],"field-class":`+u8+`},{"selector-field-ranges":[[1,1]],"field-class":{"type":"fixed-length-signed-integer","length":8,"byte-order":"little-endian"}}]}`, "d", `{"type":"dynamic-length-string","length-field-location":{"path":["v"]}}`), "field location reaches fields of different kinds"},
	{"length-signed", preamble + `|` + plainDSC + `|` + payloadEvent("n", `{"type":"fixed-length-signed-integer","length":8,"byte-order":"little-endian"}`, "d", `{"type":"dynamic-length-string","length-field-location":{"path":["n"]}}`), "the length of a dynamic-length field is a signed integer"},
	{"variant-bool-selector", preamble + `|` + plainDSC + `|` + payloadEvent("b", `{"type":"fixed-length-boolean","length":8,"byte-order":"little-endian"}`, "v", `{"type":"variant","selector-field-location":{"path":["b"]},"options":[{"selector-field-ranges":[[0,0]],"field-class":`+u8+`}]}`), "the selector of a variant is an integer"},
	{"optional-no-ranges", preamble + `|` + plainDSC + `|` + payloadEvent("n", u8, "o", `{"type":"optional","selector-field-location":{"path":["n"]},"field-class":`+u8+`}`), "an optional with an integer selector needs selector-field-ranges"},
	{"variant-no-option", preamble + `|` + plainDSC + `|` + payloadEvent("n", u8, "v", `{"type":"variant","selector-field-location":{"path":["n"]},"options":[]}`), "variant field class: no option"},
	{"variant-ranges-intersect", preamble + `|` + plainDSC + `|` + payloadEvent("n", u8, "v", `{"type":"variant","selector-field-location":{"path":["n"]},"options":[{"selector-field-ranges":[[0,5]],"field-class":`+u8+`},{"selector-field-ranges":[[5,9]],"field-class":`+u8+`}]}`), "variant options #0 and #1 have intersecting selector ranges"},
	{"variant-negative-unsigned", preamble + `|` + plainDSC + `|` + payloadEvent("n", u8, "v", `{"type":"variant","selector-field-location":{"path":["n"]},"options":[{"selector-field-ranges":[[-2,-1]],"field-class":`+u8+`}]}`), "negative selector range for an unsigned selector"},
}

// TestCTF2Rejects opens a trace with each rejected metadata: it must fail
// with the pinned message, one line, wrapping tsdl.ErrInvalid.
func TestCTF2Rejects(t *testing.T) {
	for _, c := range ctf2Rejects {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			var meta []byte
			for _, f := range strings.Split(c.meta, "|") {
				meta = append(append(append(meta, 0x1E), f...), '\n')
			}
			if err := os.WriteFile(filepath.Join(dir, "metadata"), meta, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "stream"), []byte{0}, 0o644); err != nil {
				t.Fatal(err)
			}
			r, err := ctf.Open(dir)
			if err == nil {
				r.Close()
				t.Fatalf("accepted; want %q", c.msg)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("error %q\ndoes not say %q", err, c.msg)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
			if !errors.Is(err, tsdl.ErrInvalid) {
				t.Errorf("error does not wrap tsdl.ErrInvalid: %v", err)
			}
		})
	}
}
