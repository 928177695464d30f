package tracedat

import (
	"io"
	"os"
	"testing"
)

// benchFile is a large recording for the benchmarks (skipped when absent).
const benchFile = "/work/rec/bigbuild.dat"

func benchSource(b *testing.B) string {
	if _, err := os.Stat(benchFile); err != nil {
		b.Skipf("%s not present (a large trace.dat recording)", benchFile)
	}
	return benchFile
}

// BenchmarkOpen measures Open: the file's metadata, decompression and the
// scan of every record.
func BenchmarkOpen(b *testing.B) {
	path := benchSource(b)
	for b.Loop() {
		src, err := Open(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		src.Close()
	}
}

// BenchmarkReport measures Open plus trace-cmd report's output.
func BenchmarkReport(b *testing.B) {
	path := benchSource(b)
	for b.Loop() {
		src, err := Open(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := src.Report(io.Discard, 0); err != nil {
			b.Fatal(err)
		}
		src.Close()
	}
}
