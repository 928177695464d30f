package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
)

// `tracetui record` failing cleanly (an existing output, an unknown
// event, not root, a full disk), losing events, and following threads.

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
	os.Chmod(filepath.Dir(coretest.Binary(t)), 0o755)
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
