package ctf_test

import (
	"bytes"
	"io"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest"
	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
)

// BenchmarkDecode50k measures the analysis path: every event decoded
// (fields exposed, time merged), nothing formatted, on a generated trace
// of 50 000 threads. Reported: events/s.
func BenchmarkDecode50k(b *testing.B) {
	dir := gentest.Trace(b, 50_000)
	var events int64
	b.ResetTimer()
	cpu0 := gentest.CPUTime()
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
	dir := gentest.Trace(b, 50_000)
	var events int64
	b.ResetTimer()
	cpu0 := gentest.CPUTime()
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

// reportRates reports events per wall-clock second and per CPU second
// (run with -cpu 1 so that one core does the work).
func reportRates(b *testing.B, events int64, cpu0 time.Duration) {
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	if cpu := gentest.CPUTime() - cpu0; cpu > 0 {
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
	bin := coretest.Binary(b)
	traces := map[string]string{"gen50k": gentest.Trace(b, 50_000)}
	if d := coretest.SharedDir(); d != "" {
		traces["bug446190"] = filepath.Join(d, "traces", "ctf", "bug446190")
		traces["dpdk"] = filepath.Join(d, "traces", "ctf", "dpdk_service_cores")
	}
	for name, dir := range traces {
		b.Run(name, func(b *testing.B) {
			events := countEvents(b, dir)
			var tt, bb gentest.Runs
			for i := 0; i < b.N; i++ {
				tt.Add(b, exec.Command(bin, "dump", dir))
				bb.Add(b, exec.Command(bt, "--clock-seconds", "--no-delta", dir))
			}
			n := float64(events) * float64(b.N)
			b.ReportMetric(n/tt.Wall.Seconds(), "tracetui-events/s")
			b.ReportMetric(n/bb.Wall.Seconds(), "babeltrace2-events/s")
			b.ReportMetric(bb.Wall.Seconds()/tt.Wall.Seconds(), "ratio-wall")
			b.ReportMetric(bb.CPU.Seconds()/tt.CPU.Seconds(), "ratio-cpu")
		})
	}
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
	cpu0 := gentest.CPUTime()
	for i := 0; i < b.N; i++ {
		r, err := ctf.Open(dir)
		if err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
	b.ReportMetric(float64((gentest.CPUTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
