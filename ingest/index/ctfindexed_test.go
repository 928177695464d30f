package index

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/gen"
)

// TestCTFTableReadsTheIndexedMetadata: the index of a CTF trace keeps its
// parsed metadata (the reader state), and the event table's reader is
// given it: it opens, and reads the events, with the metadata file
// spoiled after the index was opened.
func TestCTFTableReadsTheIndexedMetadata(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "trace")
	if _, err := gen.Write(dir, gen.Config{Threads: 20, CPUs: 2, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	full, err := ctf.Open(dir)
	must(t, err)
	defer full.Close()
	var want []string
	for {
		ev, err := full.Next()
		if err != nil {
			break
		}
		want = append(want, ev.Class.Name+string(full.AppendContents(nil, ev)))
	}
	x, r := tableReaderAfter(t, dir, func() {
		must(t, os.WriteFile(filepath.Join(dir, "metadata"), []byte("spoiled"), 0o644))
	})
	if sec, err := x.Tree().Section(sectionReaderState); err != nil || int64(len(x.sources.env.State)) != sec.Size() || sec.Size() == 0 {
		t.Fatalf("reader state: section %v, %d bytes given to the reader", err, len(x.sources.env.State))
	}
	for i, w := range want {
		ev, err := r.Next()
		must(t, err)
		if got := ev.Class.Name + string(r.AppendContents(nil, ev)); got != w {
			t.Fatalf("event %d = %s, want %s", i, got, w)
		}
	}
}
