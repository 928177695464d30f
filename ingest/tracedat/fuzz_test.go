package tracedat

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
	"github.com/tracetui/tracetui/ingest/states/kernel"
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

// FuzzTraceDatIndexed feeds arbitrary bytes to a reader opened Indexed
// (chunks decompressed as read): nothing may panic or hang, a seek to its
// own checkpoint works, and when the full reader accepts the file both
// give the same first events. The seeds are the committed recordings,
// one with a damaged chunk, and testdata/fuzz/FuzzTraceDatIndexed.
func FuzzTraceDatIndexed(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.dat")
	for _, path := range files {
		if b, err := os.ReadFile(path); err == nil && len(b) < 128<<10 {
			f.Add(b)
			if path == "testdata/cover-v7-zstd.dat" {
				f.Add(damageChunk(f, b))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := sourcetest.File(t, "trace.dat", data)
		src, err := Open(path, Options{Indexed: true})
		if err != nil {
			return
		}
		defer src.Close()
		var got []string
		for range 256 {
			ev, err := src.Next()
			if err != nil {
				break
			}
			got = append(got, eventLine(src, ev))
		}
		if err := src.Seek(src.Checkpoint(nil)); err != nil {
			t.Fatalf("Seek to its own checkpoint: %v", err)
		}
		full, err := Open(path, Options{})
		if err != nil {
			return
		}
		defer full.Close()
		for i, line := range got {
			ev, err := full.Next()
			if err != nil {
				t.Fatalf("event %d: full reader: %v, Indexed reader: %s", i, err, line)
			}
			if want := eventLine(full, ev); want != line {
				t.Fatalf("event %d: Indexed reader %s, full reader %s", i, line, want)
			}
		}
	})
}

// damageChunk returns a copy of a compressed version 7 file with the
// first chunk of its first CPU scrambled.
func damageChunk(tb testing.TB, b []byte) []byte {
	tb.Helper()
	probe, err := newSource("probe", inMemory(b), Options{Indexed: true})
	if err != nil {
		tb.Fatal(err)
	}
	c := probe.f.buffers[0].cpus[0].chunks.chunks[0]
	bad := append([]byte(nil), b...)
	for i := range min(c.csize, 64) {
		bad[int(c.off)+i] ^= 0xa5
	}
	return bad
}
