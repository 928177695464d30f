package index

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
)

// perfWork is the workload the perf.data benchmarks record when no file
// is named: a filesystem walk repeated (%d times), which switches and
// wakes threads and spends its time in the kernel and libc.
const perfWork = "for i in $(seq %d); do ls -R /usr/lib >/dev/null 2>&1; done"

// BenchmarkIndexVsPerfScript runs `tracetui index` and `tracetui dump`
// against `perf script` (all to /dev/null) alternately on the same
// perf.data (issue 28: both at least twice as fast): the file named by
// $TRACETUI_PERF_BENCH, else a `perf sched record` of perfWork made here
// (root needed).
//
//	sudo go test ./ingest/index -run '^$' -bench IndexVsPerfScript -benchtime 3x
func BenchmarkIndexVsPerfScript(b *testing.B) {
	perf := perfTool(b)
	path := os.Getenv("TRACETUI_PERF_BENCH")
	if path == "" {
		path = recordPerf(b, perf, []string{"sched", "record"}, fmt.Sprintf(perfWork, 100))
	}
	bin := coretest.Binary(b)
	var index, dump, script gentest.Runs
	var info IndexSummary
	for range b.N {
		info = indexRun(b, &index, bin, path, filepath.Join(b.TempDir(), "index.tti"))
		dump.Add(b, exec.Command(bin, "dump", path))
		script.Add(b, exec.Command(perf, "script", "-i", path))
	}
	b.ReportMetric(float64(info.Events), "events")
	b.ReportMetric(index.Wall.Seconds()/float64(b.N), "index-s")
	b.ReportMetric(dump.Wall.Seconds()/float64(b.N), "dump-s")
	b.ReportMetric(script.Wall.Seconds()/float64(b.N), "perf-script-s")
	b.ReportMetric(script.Wall.Seconds()/index.Wall.Seconds(), "index-ratio-wall")
	b.ReportMetric(script.CPU.Seconds()/index.CPU.Seconds(), "index-ratio-cpu")
	b.ReportMetric(script.Wall.Seconds()/dump.Wall.Seconds(), "dump-ratio-wall")
	b.ReportMetric(script.CPU.Seconds()/dump.CPU.Seconds(), "dump-ratio-cpu")
	b.ReportMetric(float64(index.MaxRSS)/1024, "index-rss-MB")
	b.ReportMetric(float64(script.MaxRSS)/1024, "perf-script-rss-MB")
}

// BenchmarkIndexSamples indexes `perf record -g` profiles (system-wide
// cpu-clock at 10 kHz) of a busy loop running 2, 8 and 32 s, with peak
// RSS: indexing memory must not grow with the number of samples (issue
// 28). The index stores every sample's symbolised stack (the flame view
// reads them from it); `perf report --stdio --no-children`, which reads
// and symbolises the same samples, is the peer. Root needed.
//
//	sudo go test ./ingest/index -run '^$' -bench IndexSamples -benchtime 1x
func BenchmarkIndexSamples(b *testing.B) {
	perf := perfTool(b)
	bin := coretest.Binary(b)
	for _, secs := range []int{2, 8, 32} {
		b.Run(fmt.Sprintf("seconds=%d", secs), func(b *testing.B) {
			work := fmt.Sprintf("timeout %d sh -c 'while :; do :; done' || true", secs)
			path := recordPerf(b, perf, []string{"record", "-q", "-a", "-g", "-e", "cpu-clock", "-F", "10000"}, work)
			var index, report gentest.Runs
			var info IndexSummary
			for range b.N {
				info = indexRun(b, &index, bin, path, filepath.Join(b.TempDir(), "index.tti"))
				report.Add(b, exec.Command(perf, "report", "--stdio", "--no-children", "-i", path))
			}
			b.ReportMetric(float64(info.Events), "samples")
			b.ReportMetric(index.Wall.Seconds()/float64(b.N), "index-s")
			b.ReportMetric(float64(index.MaxRSS)/1024, "index-rss-MB")
			b.ReportMetric(report.Wall.Seconds()/float64(b.N), "perf-report-s")
			b.ReportMetric(float64(report.MaxRSS)/1024, "perf-report-rss-MB")
			b.ReportMetric(report.Wall.Seconds()/index.Wall.Seconds(), "ratio-wall")
		})
	}
}

// indexRun indexes path into a new index file idx, adds the run to r
// and returns what `index --json` printed.
func indexRun(b *testing.B, r *gentest.Runs, bin, path, idx string) IndexSummary {
	b.Helper()
	var out strings.Builder
	cmd := exec.Command(bin, "index", "--json", "--index", idx, path)
	cmd.Stdout = &out
	r.Add(b, cmd)
	var info IndexSummary
	if err := json.Unmarshal([]byte(out.String()), &info); err != nil {
		b.Fatal(err)
	}
	return info
}

// perfTool returns perf's path, skipping b when perf is not installed
// or cannot record (not root).
func perfTool(b *testing.B) string {
	b.Helper()
	perf, err := exec.LookPath("perf")
	if err != nil {
		b.Skip("perf not installed (apt-get install -y linux-perf)")
	}
	if os.Geteuid() != 0 {
		b.Skip("recording a perf.data needs root")
	}
	return perf
}

// recordPerf runs `perf <record...> -o FILE -- sh -c <work>` in a
// temporary directory and returns FILE.
func recordPerf(b *testing.B, perf string, record []string, work string) string {
	b.Helper()
	dir := b.TempDir()
	path := filepath.Join(dir, "perf.data")
	args := append(record, "-o", path, "--", "sh", "-c", work)
	cmd := exec.Command(perf, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("perf %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return path
}
