// Package gentest has helpers for benchmarks over generated traces: the
// traces themselves (generated once, kept in $TMPDIR: the generator is
// deterministic, so a kept trace is the trace a fresh run would write)
// and timed runs of external commands, for comparisons with peers.
package gentest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tracetui/tracetui/ingest/gen"
)

// Dir is where generated benchmark traces and their indexes are kept.
func Dir() string { return filepath.Join(os.TempDir(), "tracetui-bench") }

var mu sync.Mutex

// Trace returns a generated kernel trace of the given number of threads
// (4 CPUs, seed 1), generating it on first use.
func Trace(tb testing.TB, threads int) string {
	tb.Helper()
	return TraceCPUs(tb, threads, 4)
}

// TraceCPUs is [Trace] with cpus streams (CPUs) instead of 4.
func TraceCPUs(tb testing.TB, threads, cpus int) string {
	tb.Helper()
	mu.Lock()
	defer mu.Unlock()
	name := fmt.Sprintf("gen-%d-seed1", threads)
	if cpus != 4 {
		name = fmt.Sprintf("gen-%d-%dcpu-seed1", threads, cpus)
	}
	dir := filepath.Join(Dir(), name)
	if _, err := os.Stat(filepath.Join(dir, "metadata")); err == nil {
		return dir
	}
	if err := os.MkdirAll(Dir(), 0o755); err != nil {
		tb.Fatal(err)
	}
	// gen.Write puts the whole trace in place at once, and refuses a
	// directory that exists: another test process (go test runs packages
	// in parallel) may have put it there meanwhile, which is as good.
	// Never removed here: that process may be reading it.
	if _, err := gen.Write(dir, gen.Config{Threads: threads, CPUs: cpus, Seed: 1}); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, "metadata")); serr == nil {
			return dir
		}
		tb.Fatal(err)
	}
	return dir
}

// Runs accumulates the wall and CPU time of command runs, and their
// peak memory.
type Runs struct {
	Wall, CPU time.Duration
	MaxRSS    int64 // the largest peak resident set of a run, KiB
}

// Add runs cmd with its output discarded and adds its times.
func (r *Runs) Add(tb testing.TB, cmd *exec.Cmd) {
	tb.Helper()
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer devnull.Close()
	if cmd.Stdout == nil {
		cmd.Stdout = devnull
	}
	cmd.Stderr = devnull
	wall, cpu, rss, err := Measure(cmd)
	if err != nil {
		tb.Fatalf("%v: %v", cmd.Args, err)
	}
	r.Wall += wall
	r.CPU += cpu
	r.MaxRSS = max(r.MaxRSS, rss)
}

// Measure runs cmd and returns its wall time, its CPU time (user and
// system) and its peak resident set in KiB. The peak is what
// /usr/bin/time reports when it is installed: a child started by this
// process (Go starts children with vfork) inherits this process's peak
// as its own in the kernel's rusage, so that a large test process
// showed every command it ran as at least as large (a 270 MB test made
// every later command "270 MB"). Without /usr/bin/time the rusage is
// used, an upper bound.
func Measure(cmd *exec.Cmd) (wall, cpu time.Duration, maxRSS int64, err error) {
	var report string
	if timeBin, err := exec.LookPath("/usr/bin/time"); err == nil {
		f, err := os.CreateTemp("", "rss-*")
		if err != nil {
			return 0, 0, 0, err
		}
		f.Close()
		report = f.Name()
		defer os.Remove(report)
		cmd.Args = append([]string{timeBin, "-f", "%M", "-o", report, cmd.Path}, cmd.Args[1:]...)
		cmd.Path = timeBin
	}
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, 0, err
	}
	wall = time.Since(start)
	cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		maxRSS = ru.Maxrss
	}
	if report != "" {
		b, err := os.ReadFile(report)
		if err != nil {
			return 0, 0, 0, err
		}
		if kb, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil {
			maxRSS = kb
		}
	}
	return wall, cpu, maxRSS, nil
}

// CPUTime is this process's CPU time (user and system, all threads): a
// measure of work that other processes' load does not inflate.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
