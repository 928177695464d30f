package chrome_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/ingest/chrome"
	"github.com/tracetui/tracetui/ingest/ftrace"
	"github.com/tracetui/tracetui/ingest/paje"
)

// TestDetectIsExclusive checks that every sample trace of the three
// formats is claimed by its own detector and by no other, from content
// only (the files are copied under a name without extension).
func TestDetectIsExclusive(t *testing.T) {
	detectors := map[string]func(string) (bool, error){
		"chrome": chrome.Detect, "paje": paje.Detect, "ftrace": ftrace.Detect,
	}
	n := 0
	for format := range detectors {
		files, _ := filepath.Glob(filepath.Join("../../testdata", format, "*"))
		for _, f := range files {
			if strings.HasSuffix(f, ".md") || strings.HasSuffix(f, ".dump") || strings.Contains(f, "malformed") {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(t.TempDir(), "trace")
			os.WriteFile(p, data, 0o644)
			for other, detect := range detectors {
				got, err := detect(p)
				if err != nil {
					t.Fatalf("%s.Detect(%s): %v", other, f, err)
				}
				if got != (other == format) {
					t.Errorf("%s.Detect(%s) = %v", other, f, got)
				}
			}
			n++
		}
	}
	if n < 10 {
		t.Fatalf("only %d samples found", n)
	}
}
