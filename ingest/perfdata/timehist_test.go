package perfdata

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// runtimeRow is one task's line of `perf sched timehist -s`'s summary.
type runtimeRow struct {
	switches int64
	run      string // msec, 3 decimals
}

var timehistRow = regexp.MustCompile(`^\s*\S.*\[(\d+)(?:/\d+)?\]\s+(-?\d+)\s+(\d+)\s+(\d+\.\d{3})\s`)

// timehistSummary runs `perf sched timehist -s` and reads its runtime
// summary, by tid.
func timehistSummary(t *testing.T, perf, path string) map[int64]runtimeRow {
	t.Helper()
	out, err := exec.Command(perf, "sched", "timehist", "-s", "-i", path).Output()
	if err != nil {
		t.Logf("%s: perf sched timehist: %v (not compared)", path, err)
		return nil
	}
	rows := map[int64]runtimeRow{}
	in := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "Runtime summary"):
			in = true
		case in && strings.TrimSpace(line) == "" && len(rows) > 0:
			in = false
		case in:
			if m := timehistRow.FindStringSubmatch(line); m != nil {
				tid, _ := strconv.ParseInt(m[1], 10, 64)
				n, _ := strconv.ParseInt(m[3], 10, 64)
				rows[tid] = runtimeRow{switches: n, run: m[4]}
			}
		}
	}
	return rows
}

// TestTimehistRuntime: per task, the number of times it was switched
// out and its run time, computed from the sched_switch events as perf
// sched timehist does (a task's run ends at its switch-out and began at
// the CPU's previous switch; none before the CPU's first switch), equal
// `perf sched timehist -s`'s summary: every event's time, CPU and pids
// are perf's.
func TestTimehistRuntime(t *testing.T) {
	perf := perfTool(t)
	files, _ := filepath.Glob("testdata/*.data")
	files = append(files, recordPerf(t, "sched", "record", "-o", "perf.data", "--", "sh", "-c", "for i in 1 2 3 4 5 6 7 8; do ls / >/dev/null; done"))
	compared := 0
	for _, path := range files {
		want := timehistSummary(t, perf, path)
		if len(want) == 0 {
			continue
		}
		src, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		last := map[int32]int64{}
		run := map[int64]int64{}
		count := map[int64]int64{}
		for {
			ev, err := src.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if ev.Class.Name != "sched_switch" {
				continue
			}
			prev := ev.Field(ev.Class.FieldIndex("prev_pid")).Int
			tm := int64(src.curS.time)
			if l, ok := last[ev.CPU]; ok {
				run[prev] += tm - l
			}
			last[ev.CPU] = tm
			count[prev]++
		}
		src.Close()
		bad := 0
		for tid, w := range want {
			// perf prints msec truncated to the microsecond.
			got := runtimeRow{switches: count[tid], run: fmt.Sprintf("%d.%03d", run[tid]/1e6, run[tid]%1e6/1e3)}
			if got != w && bad < 5 {
				t.Errorf("%s: task %d: %d switches, %s ms; perf sched timehist: %d, %s ms", path, tid, got.switches, got.run, w.switches, w.run)
				bad++
			}
		}
		t.Logf("%s: %d tasks compared", path, len(want))
		compared++
	}
	if compared < 2 {
		t.Fatalf("perf sched timehist compared %d recordings", compared)
	}
}

var latencyRow = regexp.MustCompile(`^\s*(.*):(\d+)\s+\|\s+(\d+\.\d{3}) ms \|\s+(\d+) \|`)

// TestLatencyRuntime: per task, the sum of sched_stat_runtime's runtime
// fields equals the Runtime column of `perf sched latency -p` on a perf
// sched record file made in the test (every task it lists).
func TestLatencyRuntime(t *testing.T) {
	perf := perfTool(t)
	path := recordPerf(t, "sched", "record", "-o", "perf.data", "--", "sh", "-c", "for i in 1 2 3 4 5 6 7 8; do ls / >/dev/null; done")
	out, err := exec.Command(perf, "sched", "latency", "-p", "-i", path).Output()
	if err != nil {
		t.Fatalf("perf sched latency: %v", err)
	}
	want := map[int64]string{}
	for _, line := range strings.Split(string(out), "\n") {
		if m := latencyRow.FindStringSubmatch(line); m != nil {
			pid, _ := strconv.ParseInt(m[2], 10, 64)
			want[pid] = m[3]
		}
	}
	if len(want) == 0 {
		t.Fatalf("no task in perf sched latency's output:\n%s", out)
	}
	src, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	runtime := map[int64]int64{}
	for {
		ev, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Class.Name == "sched_stat_runtime" {
			runtime[ev.Field(ev.Class.FieldIndex("pid")).Int] += ev.Field(ev.Class.FieldIndex("runtime")).Int
		}
	}
	bad := 0
	for pid, w := range want {
		if got := fmt.Sprintf("%.3f", float64(runtime[pid])/1e6); got != w && bad < 5 {
			t.Errorf("task %d: runtime %s ms, perf sched latency %s ms", pid, got, w)
			bad++
		}
	}
	t.Logf("%d tasks compared", len(want))
}
