package cli_test

import (
	"bufio"
	"bytes"
	"fmt"
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
)

// `tracetui record` stopped: by a signal, --duration, SIGKILL; and on a
// terminal, opening the browser.

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
		c.Env = append(coretest.TerminalEnv(), "TMUX=") // a user's terminal: no CI
		b, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, b)
		}
		return string(b)
	}
	shell := fmt.Sprintf("%q record -o %q -- sh -c 'echo recorded; exit 3'; echo \"[exit $?]\"; sleep 600", coretest.Binary(t), out)
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
