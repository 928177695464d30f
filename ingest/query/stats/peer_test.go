package stats

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/trace"
)

// analyzeCTF indexes a trace as the browser does (an R-SHT in a
// temporary directory) and returns its history.
func analyzeCTF(tb testing.TB, dir string) core.History {
	tb.Helper()
	t, err := trace.Open(context.Background(), dir, index.Options{IndexPath: filepath.Join(tb.TempDir(), "index")})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { t.Close() })
	return t.History()
}

// peerTable is one table of an lttng-analyses "-mi" command's output.
type peerTable struct {
	Class any                `json:"class"`
	Data  [][]map[string]any `json:"data"`
}

// runPeer runs lttng-<cmd>-mi on trace dir (linked as TMPDIR/kernel: the
// analyses find the tracer version only under that name).
func runPeer(t *testing.T, cmd, dir string, args ...string) []peerTable {
	t.Helper()
	bin := "lttng-" + cmd + "-mi"
	if _, err := exec.LookPath(bin); err != nil {
		t.Skipf("%s not installed (Debian package python3-lttnganalyses): %v", bin, err)
	}
	tmp := t.TempDir()
	link := filepath.Join(tmp, "kernel")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, append(append([]string{"--skip-validation"}, args...), link)...).Output()
	if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	var res struct {
		Results []peerTable `json:"results"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%s output: %v", bin, err)
	}
	return res.Results
}

// peerRows returns the rows of every table whose first cell is of class.
func peerRows(peer []peerTable, class string) [][]map[string]any {
	var out [][]map[string]any
	for _, tab := range peer {
		for _, row := range tab.Data {
			if len(row) > 0 && row[0]["class"] == class {
				out = append(out, row)
			}
		}
	}
	return out
}

// title returns a table's title (its class's, or the class name).
func (p peerTable) title() string {
	switch c := p.Class.(type) {
	case string:
		return c
	case map[string]any:
		s, _ := c["title"].(string)
		return s
	}
	return ""
}

func num(cell map[string]any) float64 {
	v, _ := cell["value"].(float64)
	return v
}

// nearNS reports whether two durations agree within 1 µs.
func nearNS(a, b float64) bool { return math.Abs(a-b) <= 1000 }

func peerTrace(t *testing.T) string {
	dir := filepath.Join(coretest.SharedTraces(t), "ctf", "bug446190")
	return dir
}

// errnoInPeer finds the errno counts of lttng-syscallstats' return values
// ("{'success': 16, 'ENOENT': 32}" for 46 calls: lttng-analyses 0.6
// counts each outcome one too many; success counts are not compared).
var errnoInPeer = regexp.MustCompile(`'(E[A-Z0-9]+)': (\d+)`)

var tidInTitle = regexp.MustCompile(`TID: (\d+)\)\]$`)

// Per-thread system call counts equal lttng-syscallstats'; min, mean and
// max agree within 1 µs.
func TestSyscallsMatchLttngAnalyses(t *testing.T) {
	dir := peerTrace(t)
	peer := runPeer(t, "syscallstats", dir)
	rep, err := Compute(context.Background(), analyzeCTF(t, dir), Options{})
	if err != nil {
		t.Fatal(err)
	}
	mine := map[int32]map[string]SyscallRow{}
	for _, ts := range rep.ThreadSyscalls {
		m := map[string]SyscallRow{}
		for _, r := range ts.Syscalls {
			m[r.Name] = r
		}
		mine[ts.TID] = m
	}
	compared := 0
	unknown := map[int32]int64{} // LTTng's syscall_entry_unknown: tracetui names them from the arch table
	for _, tab := range peer {
		m := tidInTitle.FindStringSubmatch(tab.title())
		if m == nil {
			continue
		}
		tid, _ := strconv.Atoi(m[1])
		for _, row := range tab.Data {
			name, _ := row[0]["name"].(string)
			got, ok := mine[int32(tid)][name]
			if name == "unknown" && !ok {
				unknown[int32(tid)] += int64(num(row[1]))
				continue
			}
			if !ok {
				t.Errorf("tid %d %s: lttng-syscallstats counts %v, tracetui none", tid, name, num(row[1]))
				continue
			}
			if got.Count != int64(num(row[1])) || !nearNS(float64(got.MinNS), num(row[2])) ||
				!nearNS(got.MeanNS, num(row[3])) || !nearNS(float64(got.MaxNS), num(row[4])) {
				t.Errorf("tid %d %s: count/min/mean/max %d %d %.0f %d, lttng-syscallstats %v %v %.0f %v",
					tid, name, got.Count, got.MinNS, got.MeanNS, got.MaxNS, num(row[1]), num(row[2]), num(row[3]), num(row[4]))
			}
			for _, m := range errnoInPeer.FindAllStringSubmatch(row[6]["value"].(string), -1) {
				if n, _ := strconv.ParseInt(m[2], 10, 64); got.Returns.Count(m[1]) != n-1 {
					t.Errorf("tid %d %s: %d %s, lttng-syscallstats %d (%s)", tid, name, got.Returns.Count(m[1]), m[1], n, row[6]["value"])
				}
			}
			delete(mine[int32(tid)], name)
			compared++
		}
	}
	for tid, m := range mine {
		var extra int64
		for _, r := range m {
			extra += r.Count
		}
		if extra != unknown[tid] {
			t.Errorf("tid %d: tracetui counts %d calls (%v) lttng-syscallstats does not, which counts %d unknown", tid, extra, m, unknown[tid])
		}
	}
	if compared == 0 {
		t.Fatal("no per-thread system call row compared")
	}
	t.Logf("%d per-thread system call rows compared", compared)
}

// wholeTrace computes every analysis over the shared trace.
func wholeTrace(t *testing.T, dir string) *Report {
	t.Helper()
	rep, err := Compute(context.Background(), analyzeCTF(t, dir), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// checkStats compares count (equal) and min, mean, max (within 1 µs)
// with cells count, min, mean, max of a peer row.
func checkStats(t *testing.T, what string, got Stats, cells []map[string]any) {
	t.Helper()
	if got.Count != int64(num(cells[0])) || !nearNS(float64(got.MinNS), num(cells[1])) ||
		!nearNS(got.MeanNS, num(cells[2])) || !nearNS(float64(got.MaxNS), num(cells[3])) {
		t.Errorf("%s: count/min/mean/max %d %d %.0f %d, lttng-analyses %v %v %.0f %v",
			what, got.Count, got.MinNS, got.MeanNS, got.MaxNS, num(cells[0]), num(cells[1]), num(cells[2]), num(cells[3]))
	}
}

// CPU usage per thread and per CPU agrees with lttng-cputop's, compared in
// nanoseconds (the peer's ratio of the range times the range) within
// cpuUsageTolerance of the larger, in both directions: every thread and CPU
// the peer lists is ours, and every one of ours with CPU time is the
// peer's. It catches a thread we lack (24 of the 31 peer values are below
// 0.1 % of the range, which the old 0.1-point tolerance let pass): tried by
// hand, dropping the threads under 0.1 % fails 23 rows.
func TestCPUUsageMatchesLttngAnalyses(t *testing.T) {
	dir := peerTrace(t)
	peer := runPeer(t, "cputop", dir, "--limit", "100000")
	h := analyzeCTF(t, dir)
	rep, err := Compute(context.Background(), h, Options{})
	if err != nil {
		t.Fatal(err)
	}
	span := float64(rep.ToNS - rep.FromNS)
	unknown := unknownPrefixes(t, h)
	threads := map[int32]ThreadUsage{}
	for _, u := range rep.CPUUsage.Threads {
		if u.NS > 0 {
			threads[u.TID] = u
		}
	}
	cpus := map[int32]CPURow{}
	for _, c := range rep.CPUUsage.CPUs {
		if c.NS > 0 {
			cpus[c.CPU] = c
		}
	}
	near := func(got int64, want float64) bool {
		return math.Abs(float64(got)-want) <= cpuUsageTolerance*max(float64(got), want)
	}
	compared := 0
	for _, tab := range peer {
		for _, row := range tab.Data {
			switch row[0]["class"] {
			case "process":
				tid := int32(row[0]["tid"].(float64))
				want := num(row[3]) * span
				u, ok := threads[tid]
				if tid == 0 && want <= float64(slices.Max(unknown)) {
					// The model difference below: the peer gives the
					// idle thread part of a prefix; we know no thread there.
				} else if !ok {
					t.Errorf("tid %d: lttng-cputop gives %.0f ns, tracetui none", tid, want)
				} else if !near(u.NS, want) {
					t.Errorf("tid %d: %d ns, lttng-cputop %.0f ns (%+.2f%%)", tid, u.NS, want, 100*(float64(u.NS)-want)/want)
				}
				delete(threads, tid)
				compared++
			case "cpu":
				n := int32(row[0]["id"].(float64))
				want := num(row[1]) * span
				c, ok := cpus[n]
				if !ok {
					t.Errorf("CPU %d: lttng-cputop gives %.0f ns busy, tracetui none", n, want)
				} else if !near(c.NS, want) && !near(c.NS+unknown[n], want) {
					t.Errorf("CPU %d: %d ns busy, lttng-cputop %.0f ns (%+.2f%%)", n, c.NS, want, 100*(float64(c.NS)-want)/want)
				}
				delete(cpus, n)
				compared++
			}
		}
	}
	for tid, u := range threads {
		t.Errorf("tid %d (%s): tracetui gives %d ns, lttng-cputop lists no time", tid, u.Comm, u.NS)
	}
	for n, c := range cpus {
		t.Errorf("CPU %d: tracetui gives %d ns busy, lttng-cputop none", n, c.NS)
	}
	if compared == 0 {
		t.Fatal("nothing compared")
	}
	t.Logf("%d threads and CPUs compared", compared)
}

// cpuUsageTolerance is the relative difference allowed between our CPU
// times and lttng-cputop's.
const cpuUsageTolerance = 0.01

// unknownPrefixes returns, per CPU, the time from the trace's start to its
// first known current thread. The one model difference with lttng-cputop:
// it may count that prefix as busy (CPUs 0 and 3 of bug446190, 2.2 ms
// each) and give part of it to the idle thread (36.1 us on CPU 2), where
// we, as Trace Compass, know no thread there and count nothing. A CPU's
// busy time may differ from the peer's by exactly its prefix.
func unknownPrefixes(t *testing.T, h core.History) []int64 {
	at := h.Attributes()
	start, end := h.Bounds()
	var out []int64
	for n := 0; ; n++ {
		k, ok := at.Lookup(core.AttrCPUs + "/" + strconv.Itoa(n) + "/" + core.AttrCurrentThread)
		if !ok {
			break
		}
		first := end
		if _, err := h.Query2D(context.Background(), []core.Key{k}, start, end, func(iv core.Interval) bool {
			if !iv.Value.IsNull() && iv.Start < first {
				first = iv.Start
			}
			return true
		}); err != nil {
			t.Fatal(err)
		}
		out = append(out, int64(first-start))
	}
	if len(out) == 0 {
		t.Fatal("no CPU's current thread in the history")
	}
	return out
}

// Wake-up latency per thread agrees with lttng-schedstats'.
func TestSchedLatencyMatchesLttngAnalyses(t *testing.T) {
	dir := peerTrace(t)
	peer := runPeer(t, "schedstats", dir)
	h := analyzeCTF(t, dir)
	rep, err := Compute(context.Background(), h, Options{})
	if err != nil {
		t.Fatal(err)
	}
	forked := map[int32]bool{}
	at := h.Attributes()
	for _, u := range rep.CPUUsage.Threads {
		if k, ok := at.Lookup("Threads/" + strconv.Itoa(int(u.TID)) + "/PPID"); ok {
			rows, _, err := history.Rows(context.Background(), h, []core.Key{k}, core.Time(rep.FromNS), core.Time(rep.ToNS-1))
			if err != nil {
				t.Fatal(err)
			}
			for _, iv := range rows[0] {
				forked[u.TID] = forked[u.TID] || !iv.Value.IsNull() && iv.Start > core.Time(rep.FromNS)
			}
		}
	}
	mine := map[int32]LatencyRow{}
	for _, r := range rep.SchedLatency {
		mine[r.TID] = r
	}
	compared := 0
	for _, row := range peerRows(peer, "process") {
		tid := int32(row[0]["tid"].(float64))
		if forked[tid] { // deliberate: from the fork, not from sched_wakeup_new
			if got := mine[tid].Count; got != int64(num(row[1])) {
				t.Errorf("forked tid %d: %d wake-ups, lttng-schedstats %v", tid, got, num(row[1]))
			}
		} else {
			checkStats(t, "tid "+strconv.Itoa(int(tid)), mine[tid].Stats, row[1:5])
		}
		delete(mine, tid)
		compared++
	}
	for tid, r := range mine {
		t.Errorf("tid %d: %d wake-ups, lttng-schedstats none", tid, r.Count)
	}
	if compared == 0 {
		t.Fatal("nothing compared")
	}
}

// Hard and soft IRQ durations, hard IRQ handler names and soft IRQ raise
// latency agree with lttng-irqstats'.
func TestIRQsMatchLttngAnalyses(t *testing.T) {
	dir := peerTrace(t)
	peer := runPeer(t, "irqstats", dir)
	rep := wholeTrace(t, dir)
	mine := map[string]IRQRow{}
	for _, r := range rep.IRQs {
		mine[r.Kind+strconv.FormatInt(r.IRQ, 10)] = r
	}
	raise := map[int64]IRQRow{}
	for _, r := range rep.SoftRaise {
		raise[r.IRQ] = r
	}
	compared := 0
	for _, row := range peerRows(peer, "irq") {
		kind := "soft"
		if row[0]["hard"] == true {
			kind = "hard"
		}
		nr := int64(row[0]["nr"].(float64))
		id := kind + strconv.FormatInt(nr, 10)
		checkStats(t, id, mine[id].Stats, row[1:5])
		if name, _ := row[0]["name"].(string); kind == "hard" && mine[id].Name != name {
			t.Errorf("%s: handler name %q, lttng-irqstats %q", id, mine[id].Name, name)
		}
		delete(mine, id)
		if got := raise[nr]; kind == "soft" && len(row) >= 10 && (got.Count != int64(num(row[6])) || !nearNS(float64(got.MaxNS), num(row[9]))) {
			// deliberate: a vector raised while it runs waits from the end of that run
			t.Errorf("%s raise latency: count/max %d %d, lttng-irqstats %v %v", id, got.Count, got.MaxNS, num(row[6]), num(row[9]))
		}
		compared++
	}
	for id, r := range mine {
		t.Errorf("%s: %d, lttng-irqstats none", id, r.Count)
	}
	if compared == 0 {
		t.Fatal("nothing compared")
	}
}
