package ctf_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/ctf"
)

// TestMetadataStateReadsTheSame: a reader given the state of the reader
// that indexed the trace reads the same events without its metadata files
// (spoiled here), and one given damaged state reads them from the files.
func TestMetadataStateReadsTheSame(t *testing.T) {
	for name, orig := range checkpointTraces(t) {
		t.Run(name, func(t *testing.T) {
			dir := coretest.CopyDir(t, orig)
			r, err := ctf.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			want, cps := fullPass(t, r)
			state := r.IndexState()
			r.Close()
			if state == nil {
				t.Fatal("no state")
			}
			damaged := slices.Clone(state)
			damaged[len(damaged)/2] ^= 0xFF
			for _, bad := range [][]byte{damaged, state[:len(state)-1], []byte("CTFM")} {
				r, err := ctf.OpenOptions(dir, ctf.Options{Pages: true, Metadata: bad})
				if err != nil {
					t.Fatalf("damaged state: %v", err)
				}
				if got, _ := fullPass(t, r); !slices.Equal(got, want) {
					t.Fatal("damaged state: other events")
				}
				r.Close()
			}
			dirs, err := ctf.FindTraces(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range dirs {
				if err := os.WriteFile(filepath.Join(d, "metadata"), []byte("not metadata"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if r, err := ctf.Open(dir); err == nil {
				r.Close()
				t.Fatal("spoiled metadata opened without state")
			}
			r, err = ctf.OpenOptions(dir, ctf.Options{Pages: true, Metadata: state})
			if err != nil {
				t.Fatalf("with state: %v", err)
			}
			defer r.Close()
			if got, _ := fullPass(t, r); !slices.Equal(got, want) {
				t.Fatalf("with state: %d events, want %d, or other events", len(got), len(want))
			}
			// Fresh readers compile the classes they meet from a seek.
			for i := range 5 {
				at := (i*7919 + 13) % len(want)
				r, err := ctf.OpenOptions(dir, ctf.Options{Pages: true, Metadata: state})
				if err != nil {
					t.Fatal(err)
				}
				if err := r.Seek(cps[at]); err != nil {
					t.Fatal(err)
				}
				for j := at; j < min(at+20, len(want)); j++ {
					ev, err := r.Next()
					if err != nil {
						t.Fatal(err)
					}
					if got := recordOf(r, ev); got != want[j] {
						t.Fatalf("event %d after a seek: %v, want %v", j, got, want[j])
					}
				}
				r.Close()
			}
		})
	}
}
