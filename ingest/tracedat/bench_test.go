package tracedat

import (
	"io"
	"os"
	"os/exec"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
)

// benchFile is a large recording for the benchmarks (skipped when absent;
// TRACETUI_TRACEDAT_BENCH names another).
func benchFile(b *testing.B) string {
	if path := os.Getenv("TRACETUI_TRACEDAT_BENCH"); path != "" {
		return path
	}
	return coretest.Recording(b, "bigbuild.dat")
}

// BenchmarkOpen measures Open: the file's metadata, decompression and the
// scan of every record (what indexing reads before the analyses).
func BenchmarkOpen(b *testing.B) {
	path := benchFile(b)
	for b.Loop() {
		src, err := Open(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		src.Close()
	}
}

// BenchmarkReport compares Report (Open included) with `trace-cmd report`
// on the same file in the same run, both writing to /dev/null.
func BenchmarkReport(b *testing.B) {
	path := benchFile(b)
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer null.Close()
	b.Run("tracetui", func(b *testing.B) {
		for b.Loop() {
			src, err := Open(path, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if _, _, err := src.Report(null, 0); err != nil {
				b.Fatal(err)
			}
			src.Close()
		}
	})
	b.Run("trace-cmd", func(b *testing.B) {
		if _, err := exec.LookPath("trace-cmd"); err != nil {
			b.Skip("trace-cmd is not installed")
		}
		for b.Loop() {
			cmd := exec.Command("trace-cmd", "report", path)
			cmd.Stdout, cmd.Stderr = null, io.Discard
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFirstPage measures what the browser's event table pays for a
// page of 50 events in the middle of the trace: Open, Seek to a
// checkpoint, Next and the contents of each. "full" is Open as indexing
// uses it (whole file decompressed, first pass); "indexed" is
// Options.Indexed; "state" adds the index state the index keeps (no
// format or kallsyms section read, no chunk header walked). B/op is the
// figure to watch: fresh memory costs 13-50 µs per 4 KiB page on the
// project's VM, more than the work.
func BenchmarkFirstPage(b *testing.B) {
	path := benchFile(b)
	src, err := Open(path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	var cp []byte
	for i := int64(0); ; i++ {
		if i == src.Events()/2 {
			cp = src.Checkpoint(nil)
		}
		if _, err := src.Next(); err != nil {
			break
		}
	}
	state := src.IndexState()
	src.Close()
	for _, mode := range []struct {
		name string
		opts Options
	}{{"full", Options{}}, {"indexed", Options{Indexed: true}}, {"state", Options{Indexed: true, State: state}}} {
		b.Run(mode.name, func(b *testing.B) {
			b.ReportAllocs()
			var line []byte
			for b.Loop() {
				src, err := Open(path, mode.opts)
				if err != nil {
					b.Fatal(err)
				}
				if err := src.Seek(cp); err != nil {
					b.Fatal(err)
				}
				for range 50 {
					ev, err := src.Next()
					if err != nil {
						b.Fatal(err)
					}
					line = src.AppendContents(line[:0], ev)
				}
				src.Close()
			}
		})
	}
}
