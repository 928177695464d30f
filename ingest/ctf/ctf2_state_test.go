package ctf_test

import (
	"bytes"
	"github.com/tracetui/tracetui/ingest"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/ctf/ctf2"
	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// TestCTF2BinaryModel: the model of every hand-written CTF 2 trace (and
// of the kernel twin) survives its binary form, and a reader given an
// index's state reads the trace without its metadata file (spoiled here),
// lazily compiling its event classes.
func TestCTF2BinaryModel(t *testing.T) {
	for _, c := range ctf2Cases {
		if c.err != "" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), c.name)
			writeCase(t, dir, c)
			meta, err := os.ReadFile(filepath.Join(dir, "metadata"))
			if err != nil {
				t.Fatal(err)
			}
			m, err := ctf2.Parse(meta)
			if err != nil {
				t.Fatal(err)
			}
			b, err := m.AppendBinary(nil)
			if err != nil {
				t.Fatal(err)
			}
			back, err := tsdl.DecodeBinary(b)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, m) {
				t.Fatal("the model differs once decoded from its binary form")
			}
			want, _, err := dump(dir)
			if err != nil {
				t.Fatal(err)
			}
			r, err := ctf.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			state := r.IndexState()
			r.Close()
			if state == nil {
				t.Fatal("no index state")
			}
			if err := os.WriteFile(filepath.Join(dir, "metadata"), []byte("spoiled"), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := dumpOptions(dir, ctf.Options{Metadata: state})
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("with the index state:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// dumpOptions is dump with reader options.
func dumpOptions(dir string, o ctf.Options) (string, error) {
	r, err := ctf.OpenOptions(dir, o)
	if err != nil {
		return "", err
	}
	defer r.Close()
	var buf bytes.Buffer
	err = ingest.Dump(&buf, r, 0)
	return buf.String(), err
}

// TestCTF2UserAttributes: the trace class's and event record class's
// user attributes are kept, as written, for the details pane.
func TestCTF2UserAttributes(t *testing.T) {
	var c ctf2Case
	for _, x := range ctf2Cases {
		if x.name == "user-attributes" {
			c = x
		}
	}
	dir := filepath.Join(t.TempDir(), "t")
	writeCase(t, dir, c)
	r, err := ctf.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ev, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	tr, evAttrs := r.UserAttributes(ev)
	if tr != `{"lttng.org,2009":{"x":1}}` || evAttrs != `{"lttng.org,2009":{"log-level":"warning","emf-uri":"http://example.com"}}` {
		t.Fatalf("attributes %q, %q", tr, evAttrs)
	}
}
