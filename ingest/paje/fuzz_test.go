package paje

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
)

// FuzzPaje feeds arbitrary text through Detect, Open, Next,
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
		Detect(path)
		src, err := Open(path, Options{})
		if err != nil {
			return
		}
		defer src.Close()
		sourcetest.Fuzz(t, src, func(s core.StateSink) sourcetest.Analysis { return NewAnalysis(s) }, 1<<20)
	})
}
