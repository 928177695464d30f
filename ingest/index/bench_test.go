package index

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
)

// BenchmarkIndexVsBabeltrace runs `tracetui index` (decode + analyses +
// R-SHT + event index, written to disk) and `babeltrace2 --clock-seconds
// --no-delta` (decode + print to /dev/null) alternately on the same trace.
// The target is an index built faster than babeltrace2 merely prints the
// trace: ratio > 1 (issue 16: >= 1/0.6). Traces: generated ones of 50 000
// threads (4 CPUs) and of 16 000 threads on 8 CPUs (376 k events: the
// issue's real kernel trace has 240 k events, 16 000 threads, 8 CPUs),
// and the real LTTng kernel traces bug446190 and dpdk_service_cores.
//
//	go test ./ingest -run '^$' -bench IndexVsBabeltrace -benchtime 3x
func BenchmarkIndexVsBabeltrace(b *testing.B) {
	bt, err := exec.LookPath("babeltrace2")
	if err != nil {
		b.Skip("babeltrace2 not installed (apt-get install -y babeltrace2)")
	}
	bin := coretest.Binary(b)
	traces := map[string]string{"gen50k": gentest.Trace(b, 50_000), "gen16k-8cpu": gentest.TraceCPUs(b, 16_000, 8)}
	if d := coretest.SharedDir(); d != "" {
		traces["bug446190"] = filepath.Join(d, "traces", "ctf", "bug446190")
		traces["dpdk"] = filepath.Join(d, "traces", "ctf", "dpdk_service_cores")
	}
	for name, dir := range traces {
		b.Run(name, func(b *testing.B) {
			idx := filepath.Join(b.TempDir(), "index.tti")
			var tt, bb gentest.Runs
			var out strings.Builder
			for range b.N {
				out.Reset()
				cmd := exec.Command(bin, "index", "--json", "--index", idx, dir)
				cmd.Stdout = &out
				tt.Add(b, cmd)
				bb.Add(b, exec.Command(bt, "--clock-seconds", "--no-delta", dir))
			}
			var info IndexSummary // what `index --json` prints
			if err := json.Unmarshal([]byte(out.String()), &info); err != nil {
				b.Fatal(err)
			}
			n := float64(info.Events) * float64(b.N)
			b.ReportMetric(n/tt.Wall.Seconds(), "index-events/s")
			b.ReportMetric(n/bb.Wall.Seconds(), "babeltrace2-events/s")
			b.ReportMetric(bb.Wall.Seconds()/tt.Wall.Seconds(), "ratio-wall")
			b.ReportMetric(bb.CPU.Seconds()/tt.CPU.Seconds(), "ratio-cpu")
			b.ReportMetric(float64(info.Intervals)/float64(info.Events), "intervals/event")
			b.ReportMetric(float64(info.Attributes)/float64(info.Events), "attributes/event")
			b.ReportMetric(float64(info.IndexBytes)/float64(info.Intervals), "file-bytes/interval")
			tr, err := OpenIndexFile(idx, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if sec, err := tr.Tree().Section(sectionEvents); err == nil {
				b.ReportMetric(float64(info.IndexBytes-sec.Size())/float64(info.Intervals), "history-bytes/interval")
			}
			tr.Close()
		})
	}
}

// BenchmarkIndexChrome indexes a generated Chrome JSON trace end to end
// (first pass and external sort, merge, Chrome analysis, R-SHT, event
// index, written to disk), with the size from $TRACETUI_CHROME_BENCH_MB
// (default 64). Target: >= 1 M events/s, peak RSS independent of the file
// size (compare two sizes; run alone so other benchmarks do not raise the
// peak):
//
//	TRACETUI_CHROME_BENCH_MB=1024 go test ./ingest -run '^$' -bench IndexChrome -benchtime 1x
func BenchmarkIndexChrome(b *testing.B) {
	path, events := gentest.ChromeTrace(b, chromeBenchMB(b))
	idx := filepath.Join(b.TempDir(), "chrome.tti")
	cpu0 := gentest.CPUTime()
	b.ResetTimer()
	for range b.N {
		tr, err := Open(context.Background(), path, Options{IndexPath: idx, Rebuild: true})
		if err != nil {
			b.Fatal(err)
		}
		if tr.Info().Events != events {
			b.Fatalf("indexed %d events, wrote %d", tr.Info().Events, events)
		}
		tr.Close()
	}
	b.StopTimer()
	n := float64(events) * float64(b.N)
	b.ReportMetric(n/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(n/(gentest.CPUTime()-cpu0).Seconds(), "events/cpu-s")
	b.ReportMetric(gentest.PeakRSS(), "peak-RSS-MiB")
	b.ReportMetric(float64(events), "events")
}

// chromeBenchMB returns the size of the generated Chrome trace of the
// benchmarks, in MB: $TRACETUI_CHROME_BENCH_MB, default 64.
func chromeBenchMB(b *testing.B) int64 {
	s := os.Getenv("TRACETUI_CHROME_BENCH_MB")
	if s == "" {
		return 64
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 {
		b.Fatalf("TRACETUI_CHROME_BENCH_MB=%q: want a number of MB", s)
	}
	return v
}

// BenchmarkIndexVsTraceCmd runs `tracetui index` and `trace-cmd report`
// (to /dev/null) alternately on the same trace.dat; and `tracetui dump`
// against `trace-cmd report`, both to /dev/null. Targets: index faster
// than trace-cmd prints the file (index-ratio > 1), dump at least twice
// as fast (dump-ratio >= 2). The file is $TRACETUI_TRACEDAT_BENCH, or
// the lead's 1.29 M-event recording when present:
//
//	go test ./ingest -run '^$' -bench IndexVsTraceCmd -benchtime 3x
func BenchmarkIndexVsTraceCmd(b *testing.B) {
	tc, err := exec.LookPath("trace-cmd")
	if err != nil {
		b.Skip("trace-cmd not installed (apt-get install -y trace-cmd)")
	}
	path := os.Getenv("TRACETUI_TRACEDAT_BENCH")
	if path == "" {
		path = coretest.Recording(b, "bigbuild.dat")
	}
	bin := coretest.Binary(b)
	idx := filepath.Join(b.TempDir(), "index.tti")
	var index, dump, report gentest.Runs
	var out strings.Builder
	for range b.N {
		out.Reset()
		cmd := exec.Command(bin, "index", "--json", "--index", idx, path)
		cmd.Stdout = &out
		index.Add(b, cmd)
		dump.Add(b, exec.Command(bin, "dump", path))
		report.Add(b, exec.Command(tc, "report", path))
	}
	var info IndexSummary // what `index --json` prints
	if err := json.Unmarshal([]byte(out.String()), &info); err != nil {
		b.Fatal(err)
	}
	n := float64(info.Events) * float64(b.N)
	b.ReportMetric(n/index.Wall.Seconds(), "index-events/s")
	b.ReportMetric(n/dump.Wall.Seconds(), "dump-events/s")
	b.ReportMetric(n/report.Wall.Seconds(), "trace-cmd-events/s")
	b.ReportMetric(report.Wall.Seconds()/index.Wall.Seconds(), "index-ratio-wall")
	b.ReportMetric(report.CPU.Seconds()/index.CPU.Seconds(), "index-ratio-cpu")
	b.ReportMetric(report.Wall.Seconds()/dump.Wall.Seconds(), "dump-ratio-wall")
	b.ReportMetric(report.CPU.Seconds()/dump.CPU.Seconds(), "dump-ratio-cpu")
}
