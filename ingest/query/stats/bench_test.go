package stats

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
)

// BenchmarkComputeVsLttngAnalyses runs all four analyses over the whole
// shared trace bug446190 from its state history, and reports the ratio
// to lttng-cputop, lttng-syscallstats, lttng-schedstats and
// lttng-irqstats (the -mi forms) run once each on the same trace in the
// same run ("x-faster"; both sides single-threaded), and the time the
// kernel analysis took to build the history once ("index-ms").
//
//	go test -run '^$' -bench ComputeVsLttng ./ingest/query/stats/
func BenchmarkComputeVsLttngAnalyses(b *testing.B) {
	dir := filepath.Join(coretest.SharedTraces(b), "ctf", "bug446190")
	var peer time.Duration
	tmp := b.TempDir()
	link := filepath.Join(tmp, "kernel")
	if err := os.Symlink(dir, link); err != nil {
		b.Fatal(err)
	}
	for _, cmd := range []string{"cputop", "syscallstats", "schedstats", "irqstats"} {
		bin := "lttng-" + cmd + "-mi"
		if _, err := exec.LookPath(bin); err != nil {
			b.Skipf("%s not installed: %v", bin, err)
		}
		start := time.Now()
		if out, err := exec.Command(bin, "--skip-validation", link).CombinedOutput(); err != nil {
			b.Fatalf("%s: %v\n%s", bin, err, out)
		}
		peer += time.Since(start)
	}
	start := time.Now()
	h := analyzeCTF(b, dir) // what opening the trace does once: build the index
	index := time.Since(start)
	b.ResetTimer()
	start = time.Now()
	for b.Loop() {
		if _, err := Compute(context.Background(), h, Options{Scan: true}); err != nil { // not the stored report: BenchmarkWholeTrace
			b.Fatal(err)
		}
	}
	per := time.Since(start) / time.Duration(b.N)
	b.ReportMetric(peer.Seconds()*1000, "lttng-ms")
	b.ReportMetric(peer.Seconds()/per.Seconds(), "x-faster")
	b.ReportMetric(index.Seconds()*1000, "index-ms")
}

// BenchmarkWholeTrace runs Compute over the whole generated trace of
// 8 000 threads and of 50 000 (the article's many-threads scale; both
// within kstats.DefaultMaxThreads) from the report stored in its index,
// and reports the full scan's time in the same run ("scan-ms") and the
// ratio ("x-faster"). Target (issue 33): 150 ms at 50 000 threads.
//
//	go test -run '^$' -bench WholeTrace ./ingest/query/stats/
func BenchmarkWholeTrace(b *testing.B) {
	for _, threads := range []int{8_000, 50_000} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			h := openIndexed(b, gentest.Trace(b, threads)) // an index of its own: the shared one may be of another version
			if stored(h, DefaultTop) == nil {
				b.Fatal("the index stores no whole-trace report")
			}
			start := time.Now()
			if _, err := Compute(context.Background(), h, Options{Scan: true}); err != nil {
				b.Fatal(err)
			}
			scan := time.Since(start)
			b.ResetTimer()
			start = time.Now()
			for b.Loop() {
				if _, err := Compute(context.Background(), h, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			per := time.Since(start) / time.Duration(b.N)
			b.ReportMetric(scan.Seconds()*1000, "scan-ms")
			b.ReportMetric(scan.Seconds()/per.Seconds(), "x-faster")
		})
	}
}
