package perfdata

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// benchFile is the recording the benchmarks read: $PERFDATA_BENCH, else a
// `perf sched record` of a short shell loop made in a temporary directory.
func benchFile(b *testing.B) string {
	b.Helper()
	if p := os.Getenv("PERFDATA_BENCH"); p != "" {
		return p
	}
	perf, err := exec.LookPath("perf")
	if err != nil {
		b.Skip("perf is not installed and $PERFDATA_BENCH is not set")
	}
	dir := b.TempDir()
	path := filepath.Join(dir, "perf.data")
	cmd := exec.Command(perf, "sched", "record", "-o", path, "--", "sh", "-c", "for i in $(seq 200); do ls /usr/bin >/dev/null; done")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Skipf("perf sched record: %v\n%s", err, out)
	}
	return path
}

// BenchmarkIndexPass is what indexing costs the reader: Open (its first
// pass) and every event read.
func BenchmarkIndexPass(b *testing.B) {
	path := benchFile(b)
	b.ResetTimer()
	for range b.N {
		src, err := Open(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := src.Next(); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
		src.Close()
	}
}

// BenchmarkReport is the dump: Open and perf script's text.
func BenchmarkReport(b *testing.B) {
	path := benchFile(b)
	b.ResetTimer()
	for range b.N {
		src, err := Open(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := src.Report(io.Discard, 0); err != nil {
			b.Fatal(err)
		}
		src.Close()
	}
}

// BenchmarkPerfScript is the peer: `perf script` on the same file, its
// output discarded.
func BenchmarkPerfScript(b *testing.B) {
	path := benchFile(b)
	perf, err := exec.LookPath("perf")
	if err != nil {
		b.Skip("perf is not installed")
	}
	b.ResetTimer()
	for range b.N {
		cmd := exec.Command(perf, "script", "-i", path)
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}
