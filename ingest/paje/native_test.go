package paje

import (
	"io"
	"path/filepath"
	"testing"
)

// TestPajeNGExamplesOpen reads every example trace PajeNG ships (when
// installed), including the original-Pajé-format ones pj_dump refuses.
func TestPajeNGExamplesOpen(t *testing.T) {
	ex, _ := filepath.Glob("/usr/share/doc/pajeng/examples/traces/*.trace")
	if len(ex) == 0 {
		t.Skip("PajeNG examples not installed (apt-get install -y pajeng)")
	}
	for _, path := range ex {
		src, err := Open(path, Options{})
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(path), err)
			continue
		}
		n := 0
		for {
			if _, err := src.Next(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			n++
		}
		t.Logf("%s: %d events, %d warnings", filepath.Base(path), n, len(src.Warnings()))
		for _, w := range src.Warnings() {
			t.Logf("  %s: %s", w.Kind, w.Message)
		}
		src.Close()
	}
}
