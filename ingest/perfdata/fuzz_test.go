package perfdata

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
	"github.com/tracetui/tracetui/ingest/kernel"
)

// FuzzPerfData feeds arbitrary bytes through Detect, Open, Next, the
// perf script lines, the kernel analysis and Checkpoint/Seek: nothing may
// panic, hang or allocate from an unchecked length, and time never goes
// back. The seeds are the committed recordings under 128 KB;
// testdata/fuzz/FuzzPerfData holds small damaged and hand-made files.
func FuzzPerfData(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.data")
	for _, path := range files {
		if b, err := os.ReadFile(path); err == nil && len(b) < 128<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzBody(t, sourcetest.File(t, "perf.data", data))
	})
}

// fuzzBody is FuzzPerfData's check of one file.
func fuzzBody(t *testing.T, path string) {
	Detect(path)
	src, err := Open(path, Options{})
	if err != nil {
		return
	}
	defer src.Close()
	var line []byte
	for i := 0; i < 256; i++ {
		if _, err := src.Next(); err != nil {
			break
		}
		line = src.AppendLine(line[:0])
		line = src.AppendContents(line, &src.ev)
	}
	if err := src.Seek(src.Checkpoint(nil)); err != nil {
		t.Fatalf("Seek to its own checkpoint: %v", err)
	}
	var out bytes.Buffer
	src.Seek([]byte{checkpointVersion})
	src.Report(&out, 1<<12)
	fresh, err := Open(path, Options{})
	if err != nil {
		t.Fatalf("second Open: %v", err)
	}
	defer fresh.Close()
	sourcetest.Fuzz(t, fresh, func(s core.StateSink) sourcetest.Analysis { return noWarnings{kernel.New(s, kernel.LayoutFtrace)} }, 1<<16)
}
