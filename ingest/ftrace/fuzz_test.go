package ftrace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
)

// FuzzFtrace feeds arbitrary text through Detect, Open, Next,
// AppendContents and Checkpoint/Seek: nothing may panic or hang, and time
// never goes back.
func FuzzFtrace(f *testing.F) {
	for _, name := range samples {
		if b, err := os.ReadFile(filepath.Join(sampleDir, name+".txt")); err == nil {
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
		sourcetest.Fuzz(t, src, nil, 1<<20)
	})
}

// FuzzFtraceIndexed is FuzzFtrace for a reader that skipped its first
// pass (the event table's): classes learned while reading, and Seek
// without the layout check, also to a checkpoint made of the input's
// last bytes.
func FuzzFtraceIndexed(f *testing.F) {
	for _, name := range samples {
		if b, err := os.ReadFile(filepath.Join(sampleDir, name+".txt")); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := sourcetest.File(t, "trace", data)
		src, err := Open(path, Options{Indexed: true})
		if err != nil {
			return
		}
		defer src.Close()
		sourcetest.Fuzz(t, src, nil, 1<<20)
		if err := src.Seek(append([]byte(checkpointMagic+"\x01"), data[max(0, len(data)-16):]...)); err == nil {
			for range 100 {
				if _, err := src.Next(); err != nil {
					break
				}
			}
		}
	})
}
