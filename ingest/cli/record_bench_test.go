package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/record"
)

// overheadEnv names the command BenchmarkRecordOverhead runs (a shell
// line); unset, it builds this module with an empty build cache.
const overheadEnv = "TRACETUI_OVERHEAD_CMD"

// BenchmarkRecordOverhead measures what recording costs the command
// recorded (issue 29): per iteration, the command alone, under
// `tracetui record` and under `perf record -a` of the same tracepoint
// groups, one after the other, each with a fresh build cache. It reports
// wall and CPU time (user + system of the whole process tree, recorder
// included) of each, their ratios to the command alone, and the events
// tracetui lost. (`trace-cmd record` would be the peer of choice; where
// the kernel refuses its function-tracer files, set_ftrace_pid and
// ftrace_enabled, it records nothing: perf is the peer then.)
//
//	sudo go test ./ingest/cli -run '^$' -bench RecordOverhead -benchtime 3x
func BenchmarkRecordOverhead(b *testing.B) {
	if os.Geteuid() != 0 {
		b.Skip("recording needs root (tracefs is not writable)")
	}
	fs, err := record.FindTracefs(true)
	if err != nil {
		b.Skipf("tracefs is not writable: %v", err)
	}
	b.Cleanup(fs.Unmount)
	perf, err := exec.LookPath("perf")
	if err != nil {
		b.Skip("perf is not installed (Debian package linux-perf): no peer to compare with")
	}
	work := os.Getenv(overheadEnv)
	if work == "" {
		root, err := filepath.Abs("../..")
		if err != nil {
			b.Fatal(err)
		}
		work = "cd " + root + " && go build -o /dev/null ."
	}
	bin := coretest.Binary(b)
	var groups []string
	for _, g := range record.DefaultGroups {
		groups = append(groups, g+":*")
	}
	var bare, rec, peer [2]time.Duration // wall, CPU
	var lost int64
	for range b.N {
		dir := b.TempDir()
		cache := func(run string) []string { return []string{"GOCACHE=" + filepath.Join(dir, run)} }
		w, c, _ := timed(b, cache("bare"), "sh", "-c", work)
		bare[0], bare[1] = bare[0]+w, bare[1]+c
		w, c, stderr := timed(b, cache("record"), bin, "record", "--no-open", "-o", filepath.Join(dir, "r.dat"), "--", "sh", "-c", work)
		rec[0], rec[1] = rec[0]+w, rec[1]+c
		if m := regexp.MustCompile(`(\d+) lost`).FindStringSubmatch(stderr); m != nil {
			n, _ := strconv.ParseInt(m[1], 10, 64)
			lost += n
		}
		w, c, _ = timed(b, cache("perf"), perf, "record", "-q", "-a", "-e", strings.Join(groups, ","), "-o", filepath.Join(dir, "p.data"), "--", "sh", "-c", work)
		peer[0], peer[1] = peer[0]+w, peer[1]+c
	}
	n := float64(b.N)
	b.ReportMetric(bare[0].Seconds()/n, "bare-wall-s")
	b.ReportMetric(bare[1].Seconds()/n, "bare-cpu-s")
	b.ReportMetric(rec[0].Seconds()/n, "record-wall-s")
	b.ReportMetric(rec[1].Seconds()/n, "record-cpu-s")
	b.ReportMetric(peer[0].Seconds()/n, "perf-wall-s")
	b.ReportMetric(peer[1].Seconds()/n, "perf-cpu-s")
	b.ReportMetric(rec[0].Seconds()/bare[0].Seconds(), "record/bare-wall")
	b.ReportMetric(peer[0].Seconds()/bare[0].Seconds(), "perf/bare-wall")
	b.ReportMetric(rec[1].Seconds()/bare[1].Seconds(), "record/bare-cpu")
	b.ReportMetric(peer[1].Seconds()/bare[1].Seconds(), "perf/bare-cpu")
	b.ReportMetric(float64(lost)/n, "lost-events")
}

// timed runs name with args and extra environment, failing b when it
// fails, and returns its wall time, the CPU time of its process tree and
// its stderr.
func timed(b *testing.B, env []string, name string, args ...string) (wall, cpu time.Duration, stderr string) {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	var e bytes.Buffer
	cmd.Stderr = &e
	start := time.Now()
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s %s: %v: %s", name, strings.Join(args, " "), err, e.String())
	}
	wall = time.Since(start)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return wall, cpu, e.String()
}
