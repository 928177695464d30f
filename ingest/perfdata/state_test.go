package perfdata

import (
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
)

// TestIndexState: a reader opened Indexed with the state of a full read
// (no first pass) gives the same events, text and checkpoints as the full
// reader, on every committed recording; a damaged state, or another
// file's, is ignored.
func TestIndexState(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.data")
	states := map[string][]byte{}
	for _, path := range files {
		src, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		full := sourcetest.Dump(t, src)
		st := src.IndexState()
		src.Close()
		states[path] = st
		for name, state := range map[string][]byte{"state": st, "damaged": append(append([]byte(nil), st[:len(st)/2]...), 0xff), "empty": {}} {
			ix, err := Open(path, Options{Indexed: true, State: state})
			if err != nil {
				t.Fatalf("%s %s: %v", path, name, err)
			}
			if got := sourcetest.Dump(t, ix); got != full {
				t.Errorf("%s: Indexed with the %s: events differ", path, name)
			}
			ix.Close()
		}
		rng := coretest.Rand(t)
		sourcetest.SeekPropertyOther(t, rng,
			func() (core.Source, error) { return Open(path, Options{}) },
			func() (core.Source, error) { return Open(path, Options{Indexed: true, State: st}) }, 40)
	}
	// Another file's state is refused: the pass is made.
	a, b := files[0], files[1]
	ix, err := Open(a, Options{Indexed: true, State: states[b]})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	want, _ := Open(a, Options{})
	defer want.Close()
	if sourcetest.Dump(t, ix) != sourcetest.Dump(t, want) {
		t.Errorf("%s opened with %s's state differs from a full read", a, b)
	}
}
