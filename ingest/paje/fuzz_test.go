package paje_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/ingest/paje"
	pajestates "github.com/tracetui/tracetui/ingest/states/paje"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
)

// FuzzPaje feeds arbitrary text through paje.Detect, paje.Open, Next,
// AppendContents, Checkpoint/Seek and the state analysis: nothing may
// panic or hang, time never goes back, and the analysis never makes a
// change the sink refuses.
func FuzzPaje(f *testing.F) {
	for _, name := range samples {
		if b, err := os.ReadFile(filepath.Join(sampleDir, name)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := sourcetest.File(t, "trace", data)
		paje.Detect(path)
		src, err := paje.Open(path, paje.Options{})
		if err != nil {
			return
		}
		defer src.Close()
		sourcetest.Fuzz(t, src, func(s core.StateSink) sourcetest.Analysis { return pajestates.NewAnalysis(s) }, 1<<20)
	})
}
