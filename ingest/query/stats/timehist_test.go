package stats

import (
	"bufio"
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/perfdata/perfdatatest"
)

// timehistRun is a task's line of `perf sched timehist -s`'s summary:
// its tid, then its run time in ms (perf truncates it to the µs).
var timehistRun = regexp.MustCompile(`^\s*\S.*\[(\d+)(?:/\d+)?\]\s+-?\d+\s+\d+\s+(\d+)\.(\d{3})\s`)

// TestCPUTimeVsTimehist: on a system-wide `perf sched record` made here
// (perf and root needed, else it skips), every task's CPU time in the
// statistics equals `perf sched timehist -s`'s run time within its 1 µs
// truncation, once the definitions' differences (README.md) are
// applied: a task timehist cannot time is left out (one running before
// its CPU's first switch or after its last, one switched out where the
// CPU's previous switch had put another on), and the runs timehist does
// not count (ended by a switch recorded without a thread, as a dying
// task's last one) are added to its figure.
func TestCPUTimeVsTimehist(t *testing.T) {
	perf, path := recordSched(t, nil, "for i in 1 2 3 4 5 6 7 8; do ls -R /usr/share/doc >/dev/null; done")
	out, err := exec.Command(perf, "sched", "timehist", "-s", "-i", path).Output()
	if err != nil {
		t.Fatalf("perf sched timehist: %v", err)
	}
	want := map[int64]int64{} // tid -> run time, ns
	in := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if bytes.HasPrefix(sc.Bytes(), []byte("Runtime summary")) {
			in = true
		} else if m := timehistRun.FindStringSubmatch(sc.Text()); in && m != nil {
			tid, _ := strconv.ParseInt(m[1], 10, 64)
			ms, _ := strconv.ParseInt(m[2], 10, 64)
			us, _ := strconv.ParseInt(m[3], 10, 64)
			want[tid] = ms*1e6 + us*1e3
		}
	}
	untimed, uncounted := timehistGaps(t, path)
	rep, err := Compute(context.Background(), openIndexed(t, path), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]int64{}
	for _, th := range rep.CPUUsage.Threads {
		got[int64(th.TID)] = th.NS
	}
	compared := 0
	for tid, ns := range want {
		if tid == 0 || untimed[tid] {
			continue
		}
		ns += uncounted[tid]
		if d := got[tid] - ns; d < -1000 || d >= 1000 {
			t.Errorf("task %d: %d ns of CPU time; perf sched timehist -s: %d ns, with %d ns it does not count", tid, got[tid], ns, uncounted[tid])
		}
		compared++
	}
	t.Logf("%d tasks compared, %d left out", compared, len(untimed))
	if compared < 5 {
		t.Fatalf("only %d tasks compared", compared)
	}
}

// recordSched records `perf sched record` (with the extra perf record
// arguments) of sh -c workload in a temporary directory, and returns
// perf's path and the file's; it skips tb when perf is not installed or
// cannot record (root needed).
func recordSched(tb testing.TB, extra []string, workload string) (perf, path string) {
	tb.Helper()
	perf, err := exec.LookPath("perf")
	if err != nil {
		tb.Skip("perf is not installed (Debian: linux-perf): no peer to compare with")
	}
	dir := tb.TempDir()
	path = filepath.Join(dir, "perf.data")
	args := append(append([]string{"sched", "record"}, extra...), "-o", path, "--", "sh", "-c", workload)
	rec := exec.Command(perf, args...)
	rec.Dir = dir
	if out, err := rec.CombinedOutput(); err != nil {
		tb.Skipf("perf sched record cannot record here (root needed): %v\n%s", err, out)
	}
	return perf, path
}

// timehistGaps reads the switches of the perf.data at path and returns
// the tasks timehist cannot time as the model does (untimed), and by
// task the time of the runs timehist does not count.
func timehistGaps(t *testing.T, path string) (untimed map[int64]bool, uncounted map[int64]int64) {
	t.Helper()
	untimed, uncounted = map[int64]bool{}, map[int64]int64{}
	on := map[int32]int64{}       // CPU -> the task its last switch put on
	last := map[int32]core.Time{} // CPU -> the time of its last switch
	for _, sw := range perfdatatest.Samples(t, path) {
		if sw.Class != "sched_switch" {
			continue
		}
		if cur, ok := on[sw.CPU]; !ok || cur != sw.Prev {
			untimed[sw.Prev] = true
		}
		if l, ok := last[sw.CPU]; ok && sw.TID == -1 {
			uncounted[sw.Prev] += int64(sw.Time - l)
		}
		on[sw.CPU], last[sw.CPU] = sw.Next, sw.Time
	}
	for _, tid := range on {
		untimed[tid] = true
	}
	return untimed, uncounted
}
