package ctf_test

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest"
	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/gen"
)

var benchTraces sync.Map // threads -> dir

// benchTrace returns a generated trace of the given number of threads,
// written once per test binary run.
func benchTrace(b *testing.B, threads int) string {
	if d, ok := benchTraces.Load(threads); ok {
		return d.(string)
	}
	dir, err := os.MkdirTemp("", "tracetui-bench-")
	if err != nil {
		b.Fatal(err)
	}
	dir = filepath.Join(dir, "trace")
	if _, err := gen.Write(dir, gen.Config{Threads: threads, CPUs: 4, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	benchTraces.Store(threads, dir)
	return dir
}

// BenchmarkDecode50k measures the analysis path: every event decoded
// (fields exposed, time merged), nothing formatted, on a generated trace
// of 50 000 threads. Reported: events/s.
func BenchmarkDecode50k(b *testing.B) {
	dir := benchTrace(b, 50_000)
	var events int64
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		r, err := ctf.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			events++
		}
		r.Close()
	}
	reportRates(b, events, cpu0)
}

// BenchmarkDump50k measures `tracetui dump` without the output device:
// every event decoded and formatted as babeltrace2 prints it.
func BenchmarkDump50k(b *testing.B) {
	dir := benchTrace(b, 50_000)
	var events int64
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		r, err := ctf.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		w := &countWriter{}
		if err := ingest.Dump(w, r, 0); err != nil {
			b.Fatal(err)
		}
		events += w.lines
		r.Close()
	}
	reportRates(b, events, cpu0)
}

// cpuTime returns the process's user and system CPU time: on a shared
// machine it measures the work better than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportRates reports events per wall-clock second and per CPU second
// (run with -cpu 1 so that one core does the work).
func reportRates(b *testing.B, events int64, cpu0 time.Duration) {
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(events)/cpu.Seconds(), "events/cpu-s")
	}
}

type countWriter struct{ lines int64 }

func (w *countWriter) Write(p []byte) (int, error) {
	w.lines += int64(bytes.Count(p, []byte{'\n'}))
	return len(p), nil
}

// BenchmarkDumpVsBabeltrace runs the built `tracetui dump` and
// `babeltrace2 --clock-seconds --no-delta` on the same traces (a generated
// 50 000-thread trace, bug446190 and dpdk_service_cores) with their output
// to /dev/null,
// alternately, and reports each one's events per second (wall clock and
// CPU time of the process) and the ratio. It skips without babeltrace2.
func BenchmarkDumpVsBabeltrace(b *testing.B) {
	bt, err := exec.LookPath("babeltrace2")
	if err != nil {
		b.Skip("babeltrace2 not installed")
	}
	bin := filepath.Join(b.TempDir(), "tracetui")
	build := exec.Command("go", "build", "-o", bin, "github.com/tracetui/tracetui")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	traces := map[string]string{"gen50k": benchTrace(b, 50_000)}
	if d := coretest.SharedDir(); d != "" {
		traces["bug446190"] = filepath.Join(d, "traces", "ctf", "bug446190")
		traces["dpdk"] = filepath.Join(d, "traces", "ctf", "dpdk_service_cores")
	}
	for name, dir := range traces {
		b.Run(name, func(b *testing.B) {
			events := countEvents(b, dir)
			var tt, bb runStats
			for i := 0; i < b.N; i++ {
				tt.add(b, exec.Command(bin, "dump", dir))
				bb.add(b, exec.Command(bt, "--clock-seconds", "--no-delta", dir))
			}
			n := float64(events) * float64(b.N)
			b.ReportMetric(n/tt.wall.Seconds(), "tracetui-events/s")
			b.ReportMetric(n/bb.wall.Seconds(), "babeltrace2-events/s")
			b.ReportMetric(bb.wall.Seconds()/tt.wall.Seconds(), "ratio-wall")
			b.ReportMetric(bb.cpu.Seconds()/tt.cpu.Seconds(), "ratio-cpu")
		})
	}
}

type runStats struct{ wall, cpu time.Duration }

func (r *runStats) add(b *testing.B, cmd *exec.Cmd) {
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devnull.Close()
	cmd.Stdout, cmd.Stderr = devnull, devnull
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%v: %v", cmd.Args, err)
	}
	r.wall += time.Since(start)
	r.cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func countEvents(b *testing.B, dir string) int64 {
	r, err := ctf.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	var n int64
	for {
		if _, err := r.Next(); err == io.EOF {
			return n
		} else if err != nil {
			b.Fatal(err)
		}
		n++
	}
}

// BenchmarkOpen measures opening bug446190: reading its 6 000-line
// packetized metadata, compiling the plan of its 541 event classes and
// indexing the packets of its 4 streams.
func BenchmarkOpen(b *testing.B) {
	d := coretest.SharedDir()
	if d == "" {
		b.Skip("shared traces not found")
	}
	dir := filepath.Join(d, "traces", "ctf", "bug446190")
	b.ReportAllocs()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		r, err := ctf.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
