package stats

import (
	"context"
	"fmt"
	"os/exec"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/perfdata/perfdatatest"
)

// latencyLine is a task's row of `perf sched latency -p`: comm, pid,
// then Switches, avg and max delay (ms), the max delay's start and end
// (s), perf truncating each to the µs.
var latencyLine = regexp.MustCompile(`^\s*(.*):(\d+)\s+\|\s+\d+\.\d{3} ms \|\s+(\d+) \| avg:\s*(\d+\.\d{3}) ms \| max:\s*(\d+\.\d{3}) ms \| max start:\s*(\d+\.\d{6}) s \| max end:\s*(\d+\.\d{6}) s`)

// latencyWorkload is what the test records: a pipe makes its reader
// sleep and wake up many times, the loop forks a dozen tasks.
const latencyWorkload = "for i in 1 2 3 4 5 6; do ls -R /usr/share/doc | wc -l >/dev/null; done"

// TestLatencyVsPerfSchedLatency: on a system-wide `perf sched record`
// made here (perf and root needed, else it skips), every task's wake-up
// latency count, total and maximum equal the wake-up delays of `perf
// sched latency -p`, once the definitions' differences (README.md) are
// applied, each from the events. perfLatency replays perf's model,
// keeping each delay's origin; it must give perf's own columns exactly
// (else the comparison would prove nothing). Of its delays only those
// started by a wake-up of a sleeping task are wake-up latencies (not
// those from a switch-out in state R or from when perf first sees a
// task), and the kernel model's wait (modelWaits) starts at the task's
// first wake-up event since it left its CPU (sched_waking, or its fork)
// where perf's starts at sched_wakeup(_new): each is compared from the
// model's start. The model's waits perf does not count (modelWait's
// flags: missing events, trace edges) are added as they are.
func TestLatencyVsPerfSchedLatency(t *testing.T) {
	// perf sched record records sched_waking, not sched_wakeup, where the
	// kernel has both, and perf 6.1's latency ignores sched_waking: its
	// only wake-ups would be the forks'. sched_wakeup is added.
	perf, path := recordSched(t, []string{"-e", "sched:sched_wakeup"}, latencyWorkload)
	out, err := exec.Command(perf, "sched", "latency", "-p", "-i", path).Output()
	if err != nil {
		t.Fatalf("perf sched latency: %v", err)
	}
	samples := perfdatatest.Samples(t, path)
	model := perfLatency(samples)
	checkPerfModel(t, model, string(out))
	h := openIndexed(t, path)
	rep, err := Compute(context.Background(), h, Options{}) // the index's stored report
	if err != nil {
		t.Fatal(err)
	}
	scan, err := Compute(context.Background(), h, Options{Scan: true})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rep.SchedLatency, scan.SchedLatency) {
		t.Errorf("the stored report's wake-up latency differs from the scan's:\n%+v\n%+v", rep.SchedLatency, scan.SchedLatency)
	}
	ours := map[int64]Stats{}
	for _, r := range rep.SchedLatency {
		ours[int64(r.TID)] = r.Stats
	}
	waits := modelWaits(samples)
	var n latencyCounts
	for _, tid := range sortedTIDs(model, ours) {
		if tid == 0 {
			continue // the idle threads: perf does not list them, the model has no Threads/0
		}
		want, why := n.expected(model[tid].delaysOrNil(), waits[tid])
		if got := ours[tid]; got.Count != want.Count || got.TotalNS != want.TotalNS || got.MaxNS != want.MaxNS || why != "" {
			t.Errorf("task %d: %d wake-ups, %d ns in all, %d ns at most; perf sched latency's wake-up delays from the model's start, and the waits perf does not count: %d, %d ns, %d ns%s\n%s",
				tid, got.Count, got.TotalNS, got.MaxNS, want.Count, want.TotalNS, want.MaxNS, why, describe(model[tid].delaysOrNil(), waits[tid]))
		}
	}
	t.Logf("%s", n)
	if n.tasks < 5 {
		t.Fatalf("only %d tasks compared", n.tasks)
	}
}

// checkPerfModel fails the test unless perfLatency's delays give every
// column of `perf sched latency -p`'s output (out) for every task it
// lists, and no task it leaves out has a delay.
func checkPerfModel(t *testing.T, model map[int64]*perfLatTask, out string) {
	t.Helper()
	usec := func(ns core.Time) string { return fmt.Sprintf("%d.%06d", ns/1e9, ns%1e9/1e3) }
	listed := map[int64]bool{}
	for _, line := range strings.Split(out, "\n") {
		m := latencyLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		tid, _ := strconv.ParseInt(m[2], 10, 64)
		listed[tid] = true
		var total, maxD core.Time
		var maxAt perfDelay
		ds := model[tid].delaysOrNil()
		for _, d := range ds {
			total += d.end - d.start
			if d.end-d.start > maxD {
				maxD, maxAt = d.end-d.start, d
			}
		}
		n := core.Time(max(len(ds), 1))
		got := []string{strconv.Itoa(len(ds)), fmt.Sprintf("%.3f", float64(total/n)/1e6), fmt.Sprintf("%.3f", float64(maxD)/1e6), usec(maxAt.start), usec(maxAt.end)}
		if !slices.Equal(got, m[3:8]) {
			t.Errorf("perf's model, task %d: switches, avg, max, start, end %v; perf sched latency %v", tid, got, m[3:8])
		}
	}
	for tid, l := range model {
		if tid != 0 && !listed[tid] && len(l.delays) > 0 {
			t.Errorf("perf's model, task %d: %d delays; perf sched latency does not list it", tid, len(l.delays))
		}
	}
	if len(listed) == 0 {
		t.Fatalf("no task in perf sched latency's output:\n%s", out)
	}
	if t.Failed() {
		t.Fatalf("the replay of perf's model does not give perf sched latency's figures:\n%s", out)
	}
}

// sortedTIDs is the tids of both maps, in order (for a stable log).
func sortedTIDs(model map[int64]*perfLatTask, ours map[int64]Stats) []int64 {
	var tids []int64
	for tid := range model {
		tids = append(tids, tid)
	}
	for tid := range ours {
		if model[tid] == nil {
			tids = append(tids, tid)
		}
	}
	slices.Sort(tids)
	return tids
}

// delaysOrNil is the task's delays, none for a task perf never saw.
func (l *perfLatTask) delaysOrNil() []perfDelay {
	if l == nil {
		return nil
	}
	return l.delays
}

// describe lists a task's delays and waits for a failure message.
func describe(delays []perfDelay, waits []modelWait) string {
	var b strings.Builder
	for _, d := range delays {
		fmt.Fprintf(&b, "  perf's %s delay [%d, %d], %d ns (switched out R+ before: %v)\n", originNames[d.origin], d.start, d.end, d.end-d.start, d.afterPreempt)
	}
	for _, w := range waits {
		fmt.Fprintf(&b, "  the model's wait %+v, %d ns\n", w, w.end-w.start)
	}
	return b.String()
}
