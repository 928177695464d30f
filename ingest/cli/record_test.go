package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/record"
)

// `tracetui record` end to end, on this machine's kernel: each test
// records a command in the test itself, then checks the file with
// trace-cmd report, the index, and tracefs as it was before.

// needRecording skips the test unless tracefs is writable here (root,
// tracefs mounted or mountable) and trace-cmd is installed; it returns
// the tracefs root.
func needRecording(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("recording needs root (tracefs is not writable)")
	}
	if _, err := exec.LookPath("trace-cmd"); err != nil {
		t.Skip("trace-cmd is not installed (Debian package trace-cmd): nothing to compare the recording with")
	}
	fs, err := record.FindTracefs(true)
	if err != nil {
		t.Skipf("tracefs is not writable: %v", err)
	}
	t.Cleanup(fs.Unmount)
	probe := filepath.Join(fs.Root, "instances", fmt.Sprintf("tracetui-probe-%d", os.Getpid()))
	if err := os.Mkdir(probe, 0o700); err != nil {
		t.Skipf("tracefs is not writable (creating an instance: %v)", err)
	}
	os.Remove(probe)
	recordRoot = fs.Root
	return fs.Root
}

// tracefsState is what record must leave as it found: the top level's
// settings and per-CPU buffer sizes. Its instance is checked apart
// ([instanceLeft]): others, recording at the same time, have theirs.
func tracefsState(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	files := []string{"tracing_on", "buffer_size_kb", "buffer_total_size_kb", "buffer_subbuf_size_kb",
		"set_event", "current_tracer", "trace_clock", "tracing_cpumask", "buffer_percent", "saved_cmdlines_size", "trace_options"}
	cpus, _ := filepath.Glob(filepath.Join(root, "per_cpu", "cpu*"))
	for _, c := range cpus {
		files = append(files, filepath.Join("per_cpu", filepath.Base(c), "buffer_size_kb"))
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		fmt.Fprintf(&b, "%s: %q %v\n", f, data, err)
	}
	return b.String()
}

// instanceLeft fails the test if the finished recording cmd left its
// instance (instances/tracetui-<its pid>).
func instanceLeft(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if cmd.Process == nil || recordRoot == "" {
		return
	}
	name := fmt.Sprintf("tracetui-%d", cmd.Process.Pid)
	if _, err := os.Stat(filepath.Join(recordRoot, "instances", name)); err == nil {
		t.Errorf("the recording left its tracefs instance %s", name)
	}
}

// recordRoot is the tracefs root needRecording found.
var recordRoot string

// recordCmd returns the command running the built tracetui with args.
func recordCmd(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	runCLI(t, "help") // builds the binary once
	return exec.Command(coretest.Binary(t), args...)
}

// run runs cmd and returns its exit status, stdout and stderr.
func run(t *testing.T, cmd *exec.Cmd) (int, string, string) {
	t.Helper()
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	instanceLeft(t, cmd)
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), o.String(), e.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, o.String(), e.String()
}

// sameReport checks that trace-cmd report and tracetui dump print the
// same lines for path, but for timer_start's flags, which libtraceevent
// misreads (README: tracetui prints what the kernel's format says).
func sameReport(t *testing.T, path string) string {
	t.Helper()
	want, err := exec.Command("trace-cmd", "report", path).Output()
	if err != nil {
		t.Fatalf("trace-cmd report %s: %v", path, err)
	}
	code, got, errOut := runCLI(t, "dump", path)
	if code != 0 {
		t.Fatalf("tracetui dump %s: exit %d: %s", path, code, errOut)
	}
	g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	if len(g) != len(w) {
		t.Errorf("dump prints %d lines, trace-cmd report %d", len(g), len(w))
	}
	flags := regexp.MustCompile(` flags=\S*$`)
	bad := 0
	for i := 0; i < min(len(g), len(w)) && bad < 10; i++ {
		if g[i] != w[i] && !(strings.Contains(g[i], " timer_start: ") && flags.ReplaceAllString(g[i], "") == flags.ReplaceAllString(w[i], "")) {
			t.Errorf("line %d:\n dump         %q\n trace-cmd    %q", i+1, g[i], w[i])
			bad++
		}
	}
	if len(w) < 3 {
		t.Errorf("trace-cmd report prints %d lines: no events recorded", len(w))
	}
	return string(want)
}

// TestRecordCommand records a shell that forks and execs, exiting 7: the
// status is passed through, the file is 0600, trace-cmd report equals
// tracetui dump, the children's fork/exec/exit are in the index, the
// critical path of the shell covers its run, and tracefs is as before.
func TestRecordCommand(t *testing.T) {
	root := needRecording(t)
	before := tracefsState(t, root)
	out := filepath.Join(t.TempDir(), "sh.dat")
	cmd := recordCmd(t, "record", "-o", out, "--no-open", "--", "sh", "-c", "echo $$; /bin/true; /bin/true & wait; exit 7")
	code, stdout, stderr := run(t, cmd)
	if code != 7 {
		t.Fatalf("exit %d, want CMD's 7; stderr: %s", code, stderr)
	}
	if !strings.Contains(stderr, "none lost") && !strings.Contains(stderr, "lost") {
		t.Errorf("stderr %q: no event/lost counts", stderr)
	}
	if after := tracefsState(t, root); after != before {
		t.Errorf("tracefs changed:\nbefore %s\nafter  %s", before, after)
	}
	st, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("%s: mode %v, want 0600", out, st.Mode().Perm())
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	report := sameReport(t, out)
	// The summary's count (the CPUs' stats) is what the file holds.
	if m := regexp.MustCompile(`: (\d+) events, `).FindStringSubmatch(stderr); m == nil {
		t.Errorf("stderr %q: no event count", stderr)
	} else if n := strings.Count(report, "\n") - 1; m[1] != strconv.Itoa(n) { // the "cpus=2" line
		t.Errorf("summary: %s events, trace-cmd report prints %d", m[1], n)
	}

	shPID, err := strconv.Atoi(strings.TrimSpace(stdout))
	if err != nil {
		t.Fatalf("CMD's stdout %q: not its pid", stdout)
	}
	// The two /bin/true children of CMD: their exec, from the report
	// (the recording holds the whole system's events).
	var execs [][]string
	for _, m := range regexp.MustCompile(`sched_process_exec: +filename=\S*/true pid=(\d+)`).FindAllStringSubmatch(report, -1) {
		if regexp.MustCompile(`sched_process_fork: +comm=\S+ pid=` + strconv.Itoa(shPID) + ` child_comm=\S+ child_pid=` + m[1] + `\b`).MatchString(report) {
			execs = append(execs, m)
		}
	}
	if len(execs) != 2 {
		t.Fatalf("%d execs of true by children of CMD (%d) in the trace, want 2", len(execs), shPID)
	}
	index := filepath.Join(t.TempDir(), "sh.idx")
	for _, m := range execs {
		q := queryJSON(t, out, index, "Threads/"+m[1]+"/PPID", "Threads/"+m[1]+"/Exec_name")
		if !q.has("Threads/"+m[1]+"/PPID", float64(shPID)) {
			t.Errorf("thread %s: no PPID %d in the index: %+v", m[1], shPID, q)
		}
		if !q.has("Threads/"+m[1]+"/Exec_name", "true") {
			t.Errorf("thread %s: no Exec_name true in the index", m[1])
		}
		// Its exit: the thread's last switch, after sched_process_exit
		// (an exiting thread can still be preempted and run again),
		// leaves it waiting (status 6: prev_state EXIT_ZOMBIE, 0x20) or
		// gone (null: when its parent's wait4 reaped it before that
		// switch, prev_state is EXIT_DEAD, 0x10, which Trace Compass reads
		// as exited and trace-cmd's sched_switch plugin prints "Z").
		exit := reportTime(t, report, `sched_process_exit: +comm=true pid=`+m[1]+" ")
		status := queryJSON(t, out, index, "Threads/"+m[1])
		v, start := status.final("Threads/" + m[1])
		switch {
		case !finalSwitchRecorded(report, m[1]):
			// The recording stopped between the exit and the thread's
			// last switch (CMD's exit ends it): nothing says it died.
			t.Logf("thread %s: its last switch is not in the recording; status %v from %d", m[1], v, start)
		case (v != nil && v != float64(6)) || start < exit-1000:
			t.Errorf("thread %s: final status %v from %d; want 6 (waiting dead) or null (gone) from its exit at %d", m[1], v, start, exit)
		}
	}
	// The recorder's own threads, alive before the recording started,
	// belong to its process (the saved tgids), which the trace's events
	// do not say.
	recorder := float64(cmd.Process.Pid)
	grouped := 0
	for _, a := range queryJSON(t, out, index, "Threads/*/PID").Attributes {
		if a.Path != "Threads/"+strconv.Itoa(cmd.Process.Pid)+"/PID" && holds(a.Intervals, recorder) {
			grouped++
		}
	}
	if grouped == 0 {
		t.Errorf("no thread of the recorder (%d) but its first has it as its PID in the index", cmd.Process.Pid)
	}
	q := queryJSON(t, out, index, "Threads/"+strconv.Itoa(shPID)+"/Exec_name")
	if !q.has("Threads/"+strconv.Itoa(shPID)+"/Exec_name", "sh") {
		t.Errorf("CMD's thread %d has no Exec_name sh in the index", shPID)
	}
	checkCritpath(t, out, index, shPID, report)
}

// checkCritpath checks that the critical path of tid covers, without a
// gap, its run from its exec to its exit as the report gives them.
func checkCritpath(t *testing.T, trace, index string, tid int, report string) {
	t.Helper()
	code, out, errOut := runCLI(t, "critpath", "--index", index, "--json", trace, strconv.Itoa(tid))
	if code != 0 {
		t.Fatalf("critpath: exit %d: %s", code, errOut)
	}
	var cp struct {
		Segments []struct {
			Start int64 `json:"start_ns"`
			End   int64 `json:"end_ns"`
		} `json:"segments"`
	}
	if err := json.Unmarshal([]byte(out), &cp); err != nil || len(cp.Segments) == 0 {
		t.Fatalf("critpath of %d: %v, %d segments", tid, err, len(cp.Segments))
	}
	sort.Slice(cp.Segments, func(i, j int) bool { return cp.Segments[i].Start < cp.Segments[j].Start })
	for i := 1; i < len(cp.Segments); i++ {
		if cp.Segments[i].Start != cp.Segments[i-1].End {
			t.Errorf("critical path of %d: a gap between %d and %d", tid, cp.Segments[i-1].End, cp.Segments[i].Start)
			break
		}
	}
	exec := reportTime(t, report, `sched_process_exec: +filename=\S*/sh pid=`+strconv.Itoa(tid)+" ")
	exit := reportTime(t, report, `sched_process_exit: +comm=sh pid=`+strconv.Itoa(tid)+" ")
	first, last := cp.Segments[0].Start, cp.Segments[len(cp.Segments)-1].End
	if first > exec+1000 || last < exit { // the report's times are in µs: 1 µs of slack
		t.Errorf("critical path of %d spans [%d, %d], its run [%d, %d]", tid, first, last, exec, exit)
	}
}

// reportTime returns the time (ns, to the µs the report prints) of the
// first report line whose event matches pattern.
func reportTime(t *testing.T, report, pattern string) int64 {
	t.Helper()
	m := regexp.MustCompile(`(\d+)\.(\d{6}): +` + pattern).FindStringSubmatch(report)
	if m == nil {
		t.Fatalf("no %q in the report", pattern)
	}
	s, _ := strconv.ParseInt(m[1], 10, 64)
	us, _ := strconv.ParseInt(m[2], 10, 64)
	return s*1e9 + us*1e3
}

// final returns the value (nil for null) and start of path's last
// interval.
func (q query) final(path string) (any, int64) {
	for _, a := range q.Attributes {
		if a.Path == path && len(a.Intervals) > 0 {
			iv := a.Intervals[len(a.Intervals)-1]
			return iv.Value, iv.Start
		}
	}
	return nil, 0
}

// finalSwitchRecorded reports whether the report holds tid's last switch
// out, a dead task's (trace-cmd prints "comm:tid [prio] X ==> ...").
func finalSwitchRecorded(report, tid string) bool {
	return regexp.MustCompile(`sched_switch: +\S+:` + tid + ` \[\d+\] [XZ]`).MatchString(report)
}

// query is `tracetui query --json`'s output.
type query struct {
	Attributes []struct {
		Path      string          `json:"path"`
		Intervals []queryInterval `json:"intervals"`
	} `json:"attributes"`
}

type queryInterval struct {
	Start int64 `json:"start_ns"`
	Value any   `json:"value"`
}

func queryJSON(t *testing.T, trace, index string, attrs ...string) query {
	t.Helper()
	code, out, errOut := runCLI(t, append([]string{"query", "--index", index, "--json", trace}, attrs...)...)
	if code != 0 {
		t.Fatalf("query: exit %d: %s", code, errOut)
	}
	var q query
	if err := json.Unmarshal([]byte(out), &q); err != nil {
		t.Fatal(err)
	}
	return q
}

// holds reports whether one of intervals holds v.
func holds(intervals []queryInterval, v any) bool {
	for _, iv := range intervals {
		if iv.Value == v {
			return true
		}
	}
	return false
}

func (q query) has(path string, v any) bool {
	for _, a := range q.Attributes {
		if a.Path == path && holds(a.Intervals, v) {
			return true
		}
	}
	return false
}
