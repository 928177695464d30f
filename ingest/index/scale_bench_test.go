package index

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/gen/gentest"
)

// scaleEnv names the event counts BenchmarkScale records, e.g.
// "1400000,10000000,50000000"; unset, the benchmark skips.
const scaleEnv = "TRACETUI_SCALE_EVENTS"

// eventsPerRun is about how many events one `ls -R /usr/lib` makes under
// `tracetui record`'s default events (4.28 M for 30 runs on the reference
// machine): the workload is repeated to reach each count.
const eventsPerRun = 140_000

// BenchmarkScale records real kernel captures of growing size with
// `tracetui record` (root and tracefs needed; a `ls -R` workload repeated
// to the counts of $TRACETUI_SCALE_EVENTS), then measures on each, against
// `trace-cmd report` on the same file in the same run: index time and
// peak RSS, index bytes per event, the first frame and the p99 of `bench
// frames`, `stats` over the whole trace and the critical path of the
// busiest thread; then the same capture as ftrace text (trace-cmd
// report's output) and the same workload recorded by `perf record -a`,
// each indexed against its printer. Time must grow linearly with the
// events and peak RSS stay flat (issue 33).
//
//	sudo TRACETUI_SCALE_EVENTS=1400000,10000000 go test ./ingest/index -run '^$' -bench Scale -benchtime 1x
func BenchmarkScale(b *testing.B) {
	counts := os.Getenv(scaleEnv)
	if counts == "" {
		b.Skipf("set %s to the event counts to record (e.g. 1400000,10000000,50000000)", scaleEnv)
	}
	if os.Geteuid() != 0 {
		b.Skip("recording needs root")
	}
	tc, err := exec.LookPath("trace-cmd")
	if err != nil {
		b.Skip("trace-cmd not installed (apt-get install -y trace-cmd)")
	}
	bin := coretest.Binary(b)
	for _, field := range bytes.Split([]byte(counts), []byte(",")) {
		n, err := strconv.Atoi(string(field))
		if err != nil || n <= 0 {
			b.Fatalf("%s=%q: want event counts", scaleEnv, counts)
		}
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			trace := filepath.Join(dir, "scale.dat")
			runs := max(1, n/eventsPerRun)
			work := fmt.Sprintf("for i in $(seq %d); do ls -R /usr/lib >/dev/null 2>&1; done", runs)
			run(b, bin, "record", "--no-open", "-o", trace, "--", "sh", "-c", work)
			idx := filepath.Join(dir, "scale.tti")
			env := []string{"XDG_CACHE_HOME=" + dir}
			for range b.N {
				os.Remove(idx)
				wall, rss, out := runEnv(b, env, bin, "index", "--json", "--index", idx, trace)
				var info IndexSummary
				if err := json.Unmarshal(out, &info); err != nil {
					b.Fatal(err)
				}
				pwall, prss, _ := runEnv(b, nil, tc, "report", trace)
				st, err := os.Stat(idx)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(info.Events), "events")
				b.ReportMetric(wall.Seconds(), "index-s")
				b.ReportMetric(float64(rss)/1024, "index-rss-MB")
				b.ReportMetric(pwall.Seconds(), "trace-cmd-s")
				b.ReportMetric(float64(prss)/1024, "trace-cmd-rss-MB")
				b.ReportMetric(wall.Seconds()/pwall.Seconds(), "index/peer")
				b.ReportMetric(float64(st.Size())/float64(info.Events), "index-bytes/event")
				_, _, frames := runEnv(b, env, bin, "bench", "frames", "--json", "--index", idx, trace)
				var f struct {
					P99   float64 `json:"p99_ms"`
					First float64 `json:"first_ms"`
				}
				if err := json.Unmarshal(frames, &f); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(f.First, "first-frame-ms")
				b.ReportMetric(f.P99, "frames-p99-ms")
				swall, srss, sout := runEnv(b, env, bin, "stats", "--json", "--index", idx, trace)
				b.ReportMetric(swall.Seconds(), "stats-s")
				b.ReportMetric(float64(srss)/1024, "stats-rss-MB")
				var rep struct {
					CPU struct {
						Threads []struct {
							TID int `json:"tid"`
						} `json:"threads"`
					} `json:"cpu_usage"`
				}
				if err := json.Unmarshal(sout, &rep); err != nil || len(rep.CPU.Threads) == 0 {
					b.Fatalf("stats --json: %v", err)
				}
				cwall, _, _ := runEnv(b, env, bin, "critpath", "--json", "--index", idx, trace, strconv.Itoa(rep.CPU.Threads[0].TID))
				b.ReportMetric(cwall.Seconds()*1000, "critpath-busiest-ms")
			}
			// The same capture as ftrace text (what trace-cmd report
			// prints, which the ftrace reader reads), indexed against
			// trace-cmd report's time on the trace.dat.
			text := filepath.Join(dir, "scale.txt")
			runToFile(b, text, tc, "report", trace)
			os.Remove(filepath.Join(dir, "scale-text.tti"))
			twall, trss, _ := runEnv(b, env, bin, "index", "--index", filepath.Join(dir, "scale-text.tti"), text)
			b.ReportMetric(twall.Seconds(), "text-index-s")
			b.ReportMetric(float64(trss)/1024, "text-index-rss-MB")
			os.Remove(text)
			// The same workload recorded by perf (the events of
			// `tracetui record`'s default groups), indexed against perf
			// script on it.
			if perf, err := exec.LookPath("perf"); err == nil {
				pdata := filepath.Join(dir, "scale.data")
				run(b, perf, "record", "-q", "-a", "-m", "16M", "-o", pdata,
					"-e", "sched:*", "-e", "irq:*", "-e", "timer:*", "-e", "raw_syscalls:*", "-e", "workqueue:*",
					"--", "sh", "-c", work)
				pidx := filepath.Join(dir, "scale-perf.tti")
				pwall, prss, out := runEnv(b, env, bin, "index", "--json", "--index", pidx, pdata)
				var info IndexSummary
				if err := json.Unmarshal(out, &info); err != nil {
					b.Fatal(err)
				}
				swall, srss, _ := runEnv(b, nil, perf, "script", "-i", pdata)
				b.ReportMetric(float64(info.Events), "perf-events")
				b.ReportMetric(pwall.Seconds(), "perf-index-s")
				b.ReportMetric(float64(prss)/1024, "perf-index-rss-MB")
				b.ReportMetric(swall.Seconds(), "perf-script-s")
				b.ReportMetric(float64(srss)/1024, "perf-script-rss-MB")
				b.ReportMetric(pwall.Seconds()/swall.Seconds(), "perf-index/peer")
				os.Remove(pdata)
			}
		})
	}
}

// runToFile runs a command with its standard output to a new file at
// path, failing the benchmark when it fails.
func runToFile(b *testing.B, path, name string, args ...string) {
	b.Helper()
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(name, args...)
	cmd.Stdout = f
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s %v: %v\n%s", name, args, err, stderr.Bytes())
	}
}

// run runs a command and fails the benchmark when it fails.
func run(b *testing.B, name string, args ...string) {
	b.Helper()
	runEnv(b, nil, name, args...)
}

// runEnv runs a command with env added and returns its wall time, its
// peak RSS in KiB (gentest.Measure) and its standard output (discarded
// when over 64 MiB: a report).
func runEnv(b *testing.B, env []string, name string, args ...string) (time.Duration, int64, []byte) {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	var out limited
	cmd.Stdout = &out
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	wall, _, rss, err := gentest.Measure(cmd)
	if err != nil {
		b.Fatalf("%s %v: %v\n%s", name, args, err, stderr.Bytes())
	}
	return wall, rss, out.b
}

// limited keeps the first 64 MiB written to it and drops the rest.
type limited struct{ b []byte }

func (l *limited) Write(p []byte) (int, error) {
	if room := 64<<20 - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(len(p), room)]...)
	}
	return len(p), nil
}
