package cli_test

import (
	"bufio"
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
	"syscall"
	"testing"
	"time"

	"github.com/tracetui/tracetui/ingest/record"
)

// `tracetui record` end to end, on this machine's kernel: each test
// records a command in the test itself, then checks the file with
// trace-cmd report, the index, and tracefs as it was before.

func init() {
	// The help tests (cli_test.go) cover record too.
	synopses["record"] = "record [-o FILE] [-f] [-e EVENTS] [--duration D] [--buffer-kb N] [--all-cpus] [--no-open] [-- CMD ARGS...]"
}

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
	return exec.Command(cliBinary.path, args...)
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
		// Its exit: from sched_process_exit on, the thread never runs
		// again (the analysis keeps a dead thread waiting, status 6,
		// until sched_process_free).
		exit := reportTime(t, report, `sched_process_exit: +comm=true pid=`+m[1]+" ")
		status := queryJSON(t, out, index, "Threads/"+m[1])
		if v, start := status.last("Threads/" + m[1]); v != float64(6) || start < exit-1000 {
			t.Errorf("thread %s: last status %v from %d; want 6 (dead) from its exit at %d", m[1], v, start, exit)
		}
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

// query is `tracetui query --json`'s output.
type query struct {
	Attributes []struct {
		Path      string `json:"path"`
		Intervals []struct {
			Start int64 `json:"start_ns"`
			Value any   `json:"value"`
		} `json:"intervals"`
	} `json:"attributes"`
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

func (q query) has(path string, v any) bool {
	for _, a := range q.Attributes {
		for _, iv := range a.Intervals {
			if a.Path == path && iv.Value == v {
				return true
			}
		}
	}
	return false
}

// last returns the last non-null value of path and when it starts.
func (q query) last(path string) (any, int64) {
	for _, a := range q.Attributes {
		for i := len(a.Intervals) - 1; a.Path == path && i >= 0; i-- {
			if a.Intervals[i].Value != nil {
				return a.Intervals[i].Value, a.Intervals[i].Start
			}
		}
	}
	return nil, 0
}

// TestRecordInterrupt sends SIGINT to tracetui record (not to CMD) in the
// middle of a recording: the trace so far is written and valid, CMD gets
// the signal, and record exits with CMD's status (130).
func TestRecordInterrupt(t *testing.T) {
	root := needRecording(t)
	before := tracefsState(t, root)
	out := filepath.Join(t.TempDir(), "int.dat")
	cmd := recordCmd(t, "record", "-o", out, "--no-open", "--", "sh", "-c", "/bin/true; echo started; exec sleep 60")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// CMD runs once recording started: its first line says it does.
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "started\n" {
		cmd.Process.Kill()
		t.Fatalf("CMD's first line %q, %v", line, err)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err = cmd.Wait()
	instanceLeft(t, cmd)
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 130 {
		t.Errorf("exit %d (%v), want 130 (sleep killed by SIGINT); stderr: %s", code, err, stderr.String())
	}
	if after := tracefsState(t, root); after != before {
		t.Errorf("tracefs changed:\nbefore %s\nafter  %s", before, after)
	}
	report := sameReport(t, out)
	if !regexp.MustCompile(`sched_process_exec: +filename=\S*/true`).MatchString(report) {
		t.Error("the exec of true, before the interrupt, is not in the trace")
	}
}

// TestRecordRefusesOverwrite: an existing output is left alone without
// -f (nothing is recorded), and replaced with it.
func TestRecordRefusesOverwrite(t *testing.T) {
	root := needRecording(t)
	before := tracefsState(t, root)
	out := filepath.Join(t.TempDir(), "exists.dat")
	if err := os.WriteFile(out, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run(t, recordCmd(t, "record", "-o", out, "--no-open", "--", "true"))
	if code != 1 || !strings.Contains(stderr, "exists") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("exit %d, stderr %q: want 1 and one line saying the file exists", code, stderr)
	}
	if b, _ := os.ReadFile(out); string(b) != "keep me" {
		t.Errorf("the existing file was changed")
	}
	code, _, stderr = run(t, recordCmd(t, "record", "-f", "-o", out, "--no-open", "--", "true"))
	if code != 0 {
		t.Fatalf("-f: exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(out); !bytes.HasPrefix(b, []byte("\x17\x08\x44tracing7\x00")) {
		t.Errorf("-f: the file is not a trace.dat version 7")
	}
	if after := tracefsState(t, root); after != before {
		t.Errorf("tracefs changed:\nbefore %s\nafter  %s", before, after)
	}
}

// TestRecordErrors: an event the kernel lacks and a user other than root
// get one line saying what to do; tracefs is left as it was, no file.
func TestRecordErrors(t *testing.T) {
	root := needRecording(t)
	before := tracefsState(t, root)
	dir := t.TempDir()
	out := filepath.Join(dir, "none.dat")
	code, _, stderr := run(t, recordCmd(t, "record", "-o", out, "-e", "nosuchgroup", "--no-open", "--", "true"))
	if code != 1 || !strings.Contains(stderr, `"nosuchgroup"`) || !strings.Contains(stderr, "no such event") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("-e nosuchgroup: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = run(t, recordCmd(t, "record", "-o", out, "-e", "-sched,sched:nosuchevent", "--no-open", "--", "true"))
	if code != 1 || !strings.Contains(stderr, `"sched:nosuchevent"`) {
		t.Errorf("-e sched:nosuchevent: exit %d, stderr %q", code, stderr)
	}

	// As nobody: the binary's directory must be reachable.
	os.Chmod(filepath.Dir(cliBinary.path), 0o755)
	os.Chmod(dir, 0o777)
	cmd := recordCmd(t, "record", "-o", out, "--no-open", "--", "true")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	code, _, stderr = run(t, cmd)
	if code != 1 || !strings.Contains(stderr, "needs root") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("as nobody: exit %d, stderr %q: want 1 and one line saying root is needed", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s written by a failed recording", out)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if after := tracefsState(t, root); after != before {
		t.Errorf("tracefs changed:\nbefore %s\nafter  %s", before, after)
	}
}

// TestRecordFullDisk records into a 64 KB tmpfs: the write error is one
// line, no file is left under the output's name nor any temporary file,
// and tracefs is as before.
func TestRecordFullDisk(t *testing.T) {
	root := needRecording(t)
	before := tracefsState(t, root)
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a small tmpfs to fill: %v", err)
	}
	defer syscall.Unmount(dir, 0)
	out := filepath.Join(dir, "full.dat")
	code, _, stderr := run(t, recordCmd(t, "record", "-o", out, "--no-open", "--", "sh", "-c", "ls -R /usr/lib > /dev/null"))
	if code != 1 || !strings.Contains(stderr, "no space left") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("exit %d, stderr %q: want 1 and one line saying the disk is full", code, stderr)
	}
	if ents, _ := os.ReadDir(dir); len(ents) > 0 {
		t.Errorf("files left in the full directory: %v", ents)
	}
	if after := tracefsState(t, root); after != before {
		t.Errorf("tracefs changed:\nbefore %s\nafter  %s", before, after)
	}
}

// TestRecordOpensBrowserInTmux: `tracetui record -- sh -c ...` on a
// terminal opens the browser on the new trace (in a tmux server of the
// test's own; the screen is polled until what is expected shows or a
// deadline passes).
func TestRecordOpensBrowserInTmux(t *testing.T) {
	needRecording(t)
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed (Debian package tmux)")
	}
	recordCmd(t) // builds the binary
	dir := t.TempDir()
	out := filepath.Join(dir, "tmux.dat")
	socket := fmt.Sprintf("tracetui-record-%d", os.Getpid())
	tm := func(args ...string) string {
		c := exec.Command(tmux, append([]string{"-L", socket}, args...)...)
		c.Env = append(os.Environ(), "TMUX=")
		b, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, b)
		}
		return string(b)
	}
	shell := fmt.Sprintf("%q record -o %q -- sh -c 'echo recorded; exit 3'; echo \"[exit $?]\"; sleep 600", cliBinary.path, out)
	tm("-f", "/dev/null", "new-session", "-d", "-s", "rec", "-x", "100", "-y", "30",
		"-e", "XDG_CACHE_HOME="+filepath.Join(dir, "cache"), "-e", "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"-e", "TERM=xterm-256color", shell)
	t.Cleanup(func() { exec.Command(tmux, "-L", socket, "kill-server").Run() })
	waitFor := func(deadline time.Duration, wants ...string) string {
		t.Helper()
		end := time.Now().Add(deadline)
		var screen string
		for time.Now().Before(end) {
			screen = tm("capture-pane", "-p", "-J", "-t", "rec")
			for _, w := range wants {
				if strings.Contains(screen, w) {
					return w
				}
			}
			time.Sleep(20 * time.Millisecond) // poll interval, not synchronisation
		}
		t.Fatalf("none of %q on screen after %s; screen:\n%s", wants, deadline, screen)
		return ""
	}
	if waitFor(60*time.Second, "Control Flow", "[exit") != "Control Flow" {
		t.Fatalf("the browser did not open:\n%s", tm("capture-pane", "-p", "-J", "-t", "rec"))
	}
	waitFor(10*time.Second, "tmux.dat") // the status line names the new trace
	tm("send-keys", "-t", "rec", "q")
	waitFor(10*time.Second, "[exit 3]") // CMD's status, after the browser
}

// TestRecordDuration records the system, with no CMD, for --duration.
func TestRecordDuration(t *testing.T) {
	root := needRecording(t)
	before := tracefsState(t, root)
	out := filepath.Join(t.TempDir(), "system.dat")
	code, _, stderr := run(t, recordCmd(t, "record", "-o", out, "--no-open", "--duration", "300ms", "-e", "-raw_syscalls"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	report := sameReport(t, out)
	if strings.Contains(report, " sys_enter: ") {
		t.Error("-e -raw_syscalls: sys_enter recorded")
	}
	if after := tracefsState(t, root); after != before {
		t.Errorf("tracefs changed:\nbefore %s\nafter  %s", before, after)
	}
}

// TestRecordLostEvents overflows an 8 KB buffer with a million system
// calls: the summary counts the lost events and names the buffer size to
// raise, and the pages' lost-event marks read the same with trace-cmd
// report ("CPU:N [M EVENTS DROPPED]") and tracetui dump.
func TestRecordLostEvents(t *testing.T) {
	needRecording(t)
	out := filepath.Join(t.TempDir(), "lost.dat")
	code, _, stderr := run(t, recordCmd(t, "record", "-o", out, "--no-open", "--buffer-kb", "8", "--",
		"dd", "if=/dev/zero", "of=/dev/null", "bs=1", "count=500000"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !regexp.MustCompile(`; [1-9]\d* events lost: record with --buffer-kb above 8 `).MatchString(stderr) {
		t.Errorf("stderr %q: no count of lost events with the buffer size to raise", stderr)
	}
	if report := sameReport(t, out); !strings.Contains(report, "EVENTS DROPPED]") {
		t.Error("trace-cmd report shows no dropped events")
	}
}

// threadsProgram starts threads that each end with their goroutine
// (locked, never unlocked) and prints its pid and their tids.
const threadsProgram = `package main

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"syscall"
)

func main() {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var tids []int
	runtime.LockOSThread() // the main goroutine keeps the main thread
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			mu.Lock()
			tids = append(tids, syscall.Gettid())
			mu.Unlock()
		}()
	}
	wg.Wait()
	fmt.Print(os.Getpid())
	for _, t := range tids {
		fmt.Print(" ", t)
	}
	fmt.Println()
}
`

// TestRecordThreads records a Go program whose threads end before it:
// each thread is in the index from its fork (clone, by any thread of the
// program) on, and no longer
// runs at the end of the trace; its exit is in the trace.
func TestRecordThreads(t *testing.T) {
	needRecording(t)
	dir := t.TempDir()
	for name, text := range map[string]string{"main.go": threadsProgram, "go.mod": "module threads\n\ngo 1.21\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	build := exec.Command("go", "build", "-o", "threads", ".")
	build.Dir = dir
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	out := filepath.Join(dir, "threads.dat")
	code, stdout, stderr := run(t, recordCmd(t, "record", "-o", out, "--no-open", "--", filepath.Join(dir, "threads")))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	ids := strings.Fields(stdout)
	if len(ids) != 4 {
		t.Fatalf("CMD printed %q: want its pid and 3 tids", stdout)
	}
	report := sameReport(t, out)
	index := filepath.Join(dir, "threads.idx")
	threads := 0
	for _, tid := range ids[1:] {
		if tid == ids[0] {
			continue // a goroutine that ran on the main thread
		}
		threads++
		fork := reportTime(t, report, `sched_process_fork: +comm=\S+ pid=\d+ child_comm=\S+ child_pid=`+tid+`\b`)
		reportTime(t, report, `sched_process_exit: +comm=\S+ pid=`+tid+" ")
		q := queryJSON(t, out, index, "Threads/"+tid)
		if len(q.Attributes) != 1 {
			t.Fatalf("thread %s is not in the index", tid)
		}
		ivs := q.Attributes[0].Intervals
		first := -1
		for i, iv := range ivs {
			if iv.Value != nil {
				first = i
				break
			}
		}
		if first < 0 || ivs[first].Start < fork-1000 || ivs[first].Start > fork+1000 { // the report rounds to the µs
			t.Errorf("thread %s: first state at %+v, want at its fork %d", tid, ivs[max(first, 0)], fork)
		}
		switch v := ivs[len(ivs)-1].Value; v {
		case nil, float64(1), float64(6):
		default:
			t.Errorf("thread %s: status %v at the end of the trace, after its exit", tid, v)
		}
	}
	if threads < 2 {
		t.Fatalf("only %d threads other than the main one", threads)
	}
}

// TestRecordAfterKill: a recording killed by SIGKILL leaves its instance
// (nothing can remove it then); the next recording removes it.
func TestRecordAfterKill(t *testing.T) {
	root := needRecording(t)
	dir := t.TempDir()
	cmd := recordCmd(t, "record", "-o", filepath.Join(dir, "killed.dat"), "--no-open", "--", "sh", "-c", "echo $$; exec sleep 60")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	cmd.Process.Kill()
	cmd.Wait()
	if pid, perr := strconv.Atoi(strings.TrimSpace(line)); perr == nil {
		syscall.Kill(pid, syscall.SIGKILL) // CMD, orphaned
	} else {
		t.Fatalf("CMD's first line %q, %v", line, err)
	}
	left := filepath.Join(root, "instances", fmt.Sprintf("tracetui-%d", cmd.Process.Pid))
	if _, err := os.Stat(left); err != nil {
		t.Fatalf("the killed recording's instance: %v", err)
	}
	code, _, stderr := run(t, recordCmd(t, "record", "-o", filepath.Join(dir, "next.dat"), "--no-open", "--", "true"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(left); err == nil {
		t.Errorf("%s is still there after the next recording", left)
	}
}
