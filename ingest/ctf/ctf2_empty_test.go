package ctf_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/ingest/internal/bttest"
)

// CTF 2 arrays of elements that take no space (issue 32 item 5, as
// TestEmptyElements for CTF 1.8): dynamic-length arrays of empty
// structures, of optionals that are absent, of static-length arrays of
// empty structures.
func emptyCTF2Cases(n uint32) []ctf2Case {
	empty := `{"type":"structure"}`
	arr := func(elem string) string {
		return `{"type":"dynamic-length-array","length-field-location":{"path":["n"]},"element-field-class":` + elem + `}`
	}
	return []ctf2Case{
		{name: "structures", frags: []string{preamble, plainDSC, payloadEvent("n", u32, "s", arr(empty))}, data: le32(n)},
		{name: "optionals", frags: []string{preamble, plainDSC, payloadEvent("b", u8, "n", u32,
			"o", arr(`{"type":"optional","selector-field-location":{"path":["b"]},"selector-field-ranges":[[1,1]],"field-class":`+u8+`}`))},
			data: cat([]byte{0}, le32(n))},
		{name: "static-arrays", frags: []string{preamble, plainDSC, payloadEvent("n", u32,
			"s", arr(`{"type":"static-length-array","length":4294967295,"element-field-class":`+empty+`}`))}, data: le32(n)},
	}
}

// TestEmptyElementsCTF2 prints each shape with 2^32-1 elements within the
// printer's budget, and with 3 as babeltrace2 2.1 does.
func TestEmptyElementsCTF2(t *testing.T) {
	for _, c := range emptyCTF2Cases(0xffffffff) {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), c.name)
			writeCase(t, dir, c)
			got, _, err := dump(dir)
			if err != nil {
				t.Fatal(err)
			}
			// One event: its line holds 1 MB of repeated text at most
			// (maxRepeatText), then the mark.
			if len(got) > 2<<20 || !strings.Contains(got, "..4294967294] alike ]") {
				t.Errorf("%d bytes printed: %.200s ... %s", len(got), got, got[max(0, len(got)-200):])
			}
		})
	}
	for _, c := range emptyCTF2Cases(3) {
		c := c
		c.name += "-small"
		if c.name == "static-arrays-small" {
			continue // babeltrace2 prints its 2^32-1 elements
		}
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), c.name)
			writeCase(t, dir, c)
			got, _, err := dump(dir)
			if err != nil {
				t.Fatal(err)
			}
			bt, stderr, code := bttest.Run21(t, dir)
			if code != 0 {
				t.Fatalf("babeltrace2 2.1 exit status %d:\n%s", code, stderr)
			}
			bttest.Compare(t, bt, got)
		})
	}
}
