package tracedat

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
	"github.com/tracetui/tracetui/ingest/kernel"
)

// FuzzTraceDat feeds arbitrary bytes through Detect, Open, Next, the
// report lines, the kernel analysis and Checkpoint/Seek: nothing may
// panic or hang, and time never goes back. The seeds are the committed
// recordings (testdata/fuzz/FuzzTraceDat holds small damaged ones).
func FuzzTraceDat(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.dat")
	for _, path := range files {
		if b, err := os.ReadFile(path); err == nil && len(b) < 128<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := sourcetest.File(t, "trace.dat", data)
		Detect(path)
		src, err := Open(path, Options{})
		if err != nil {
			return
		}
		defer src.Close()
		for i := 0; i < 64; i++ {
			if _, err := src.Next(); err != nil {
				break
			}
			src.AppendLine(nil, 0)
		}
		if err := src.Seek(src.Checkpoint(nil)); err != nil {
			t.Fatalf("Seek to its own checkpoint: %v", err)
		}
		fresh, err := Open(path, Options{})
		if err != nil {
			t.Fatalf("second Open: %v", err)
		}
		defer fresh.Close()
		sourcetest.Fuzz(t, fresh, func(s core.StateSink) sourcetest.Analysis { return noWarnings{kernel.New(s, kernel.LayoutFtrace)} }, 1<<16)
	})
}
