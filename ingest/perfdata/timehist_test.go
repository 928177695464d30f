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

var latencyFull = regexp.MustCompile(`^\s*(.*):(\d+)\s+\|\s+\d+\.\d{3} ms \|\s+(\d+) \| avg:\s*(\d+\.\d{3}) ms \| max:\s*(\d+\.\d{3}) ms \| max start:\s*(\d+\.\d{6}) s \| max end:\s*(\d+\.\d{6}) s`)

// latencyTask is a task's wake-up delays as perf sched latency measures
// them: a delay runs from the task's wake-up (or its switch-out while
// still runnable) to its next switch-in.
type latencyTask struct {
	waiting        bool   // woken or preempted, waiting for a CPU
	sleeping       bool   // switched out asleep: a wake-up starts a delay
	out, wake      uint64 // its last switch-out, the delay's start
	switches       int64
	total, max     uint64
	maxStart, maxE uint64
}

// TestLatencyDelays: per task, the number of delays, their average, the
// largest and when it started and ended, computed from the sched_switch
// and sched_wakeup(_new) events (perf 6.1's latency ignores sched_waking),
// equal perf sched latency -p's columns.
func TestLatencyDelays(t *testing.T) {
	perf := perfTool(t)
	path := recordPerf(t, "sched", "record", "-o", "perf.data", "--", "sh", "-c", "for i in 1 2 3 4 5 6 7 8; do ls / >/dev/null; done")
	out, err := exec.Command(perf, "sched", "latency", "-p", "-i", path).Output()
	if err != nil {
		t.Fatalf("perf sched latency: %v", err)
	}
	src, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	tasks := map[int64]*latencyTask{}
	task := func(pid int64, tm uint64, state byte) *latencyTask {
		if l, ok := tasks[pid]; ok {
			return l
		}
		l := &latencyTask{out: tm}
		switch state {
		case 'R':
			l.waiting, l.wake = true, tm
		case 'S':
			l.sleeping = true
		}
		tasks[pid] = l
		return l
	}
	for {
		ev, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		tm := src.curS.time
		field := func(name string) int64 { return ev.Field(ev.Class.FieldIndex(name)).Int }
		switch ev.Class.Name {
		case "sched_switch":
			prev, next := field("prev_pid"), field("next_pid")
			state := string(ev.Field(ev.Class.FieldIndex("prev_state")).Bytes)
			p := task(prev, tm, 0)
			if _, ok := tasks[prev]; ok {
				*p = latencyTask{switches: p.switches, total: p.total, max: p.max, maxStart: p.maxStart, maxE: p.maxE, out: tm}
				if state == "R" {
					p.waiting, p.wake = true, tm
				} else {
					p.sleeping = true
				}
			}
			n := task(next, tm, 'R')
			if n.waiting {
				n.waiting = false
				if tm >= n.wake {
					d := tm - n.wake
					n.total += d
					n.switches++
					if d > n.max {
						n.max, n.maxStart, n.maxE = d, n.wake, tm
					}
				}
			}
		case "sched_wakeup", "sched_wakeup_new":
			l := task(field("pid"), tm, 'S')
			if l.sleeping && l.out <= tm {
				l.sleeping, l.waiting, l.wake = false, true, tm
			}
		case "sched_stat_runtime":
			task(field("pid"), tm, 'R')
		}
	}
	usec := func(ns uint64) string { return fmt.Sprintf("%d.%06d", ns/1e9, ns%1e9/1e3) }
	compared := 0
	for _, line := range strings.Split(string(out), "\n") {
		m := latencyFull.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		pid, _ := strconv.ParseInt(m[2], 10, 64)
		l := tasks[pid]
		if l == nil {
			t.Errorf("task %d: no events", pid)
			continue
		}
		got := []string{strconv.FormatInt(l.switches, 10), fmt.Sprintf("%.3f", float64(l.total/uint64(max(l.switches, 1)))/1e6), fmt.Sprintf("%.3f", float64(l.max)/1e6), usec(l.maxStart), usec(l.maxE)}
		if strings.Join(got, " ") != strings.Join(m[3:8], " ") {
			t.Errorf("task %d: switches, avg, max, start, end %v; perf sched latency %v", pid, got, m[3:8])
		}
		compared++
	}
	if compared == 0 {
		t.Fatalf("no task in perf sched latency's output:\n%s", out)
	}
	t.Logf("%d tasks compared", compared)
}
