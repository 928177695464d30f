package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/tracetui/tracetui/ingest/record"
	"golang.org/x/sys/unix"
)

// runRecord records a kernel trace of a command (or of the system, for
// --duration or until Ctrl-C) into a trace.dat.
func runRecord(e *Env, args []string) error {
	cmdInfo := lookup("record")
	fs := e.NewFlags(cmdInfo.Name, cmdInfo.Synopsis)
	out := fs.String("o", "", "write the trace to `FILE` (default trace-<cmd>-<date>.dat)")
	force := fs.Bool("f", false, "overwrite FILE if it exists")
	events := fs.String("e", "", "`EVENTS` to add (GROUP, GROUP:EVENT) or remove (-GROUP), comma-separated; default groups: sched, irq, timer, raw_syscalls, workqueue, task")
	duration := fs.Duration("duration", 0, "stop recording after `D` (default: when CMD exits, or Ctrl-C)")
	bufferKB := fs.Int("buffer-kb", record.DefaultBufferKB, "per-CPU ring buffer of `N` KB")
	allCPUs := fs.Bool("all-cpus", false, "also drain the buffers of offline (possible) CPUs")
	noOpen := fs.Bool("no-open", false, "do not open the browser on the trace")
	if err := Parse(fs, args, 0, -1); err != nil {
		if errors.As(err, new(usageError)) && !slices.Contains(args, "--") {
			return Usagef("%v (put CMD and its flags after --)", err)
		}
		return err
	}
	argv := fs.Args()
	if *bufferKB <= 0 {
		return Usagef("--buffer-kb %d: want a size in KB above 0", *bufferKB)
	}
	sel, err := record.ParseEvents(*events)
	if err != nil {
		return Usagef("%v", err)
	}
	path := *out
	if path == "" {
		path = defaultRecordName(argv, time.Now())
	}

	// Signals are caught from before the recording starts: Ctrl-C stops
	// the recording and keeps what was recorded.
	e.HandlesSignals()
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	rec, err := record.Start(record.Options{Output: path, Force: *force, Events: sel,
		BufferKB: *bufferKB, AllCPUs: *allCPUs, Version: "tracetui record", Mount: true})
	if err != nil {
		return err
	}
	var cmd *exec.Cmd
	cmdDone := make(chan error, 1)
	if len(argv) > 0 {
		cmd = exec.Command(argv[0], argv[1:]...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, e.Stdout, e.Stderr
		if err := cmd.Start(); err != nil {
			rec.Abort()
			return fmt.Errorf("starting %s: %w (nothing recorded)", argv[0], err)
		}
		go func() { cmdDone <- cmd.Wait() }()
	}
	if cmd == nil && *duration <= 0 {
		fmt.Fprintln(e.Stderr, "tracetui: record: recording the system into", path+"; Ctrl-C stops")
	}
	var timeout <-chan time.Time
	if *duration > 0 {
		t := time.NewTimer(*duration)
		defer t.Stop()
		timeout = t.C
	}
	var waitErr error
	exited := false
	select {
	case waitErr = <-cmdDone:
		exited = true
	case <-timeout:
	case <-rec.Failed():
	case sig := <-sigs:
		// Ctrl-C on the terminal reached CMD already, in the same
		// foreground process group: a second SIGINT could make it quit
		// harder than the user asked.
		if cmd != nil && !(sig == os.Interrupt && foreground()) {
			cmd.Process.Signal(sig)
		}
	}
	res, err := rec.Stop()
	if cmd != nil && !exited {
		waitErr = waitCmd(cmd, cmdDone, sigs)
	}
	if err != nil {
		return err
	}
	summary := summarize(res)
	fmt.Fprintln(e.Stderr, "tracetui: record:", summary)
	status := exitStatus(waitErr)
	if e.browse != nil && !*noOpen && isTerminal(e.Stdout) {
		signal.Stop(sigs)
		args := []string{res.Path}
		if cmd != nil { // CMD's process first in Control Flow
			args = []string{"--focus", strconv.Itoa(cmd.Process.Pid), res.Path}
		}
		if err := e.Browse(args); err != nil {
			return err
		}
	}
	if status != 0 {
		return ExitStatus(status) // CMD's, once the recording is written
	}
	return nil
}

// waitCmd waits for CMD after the recording stopped: a signal is passed
// on to it, the next one kills it.
func waitCmd(cmd *exec.Cmd, done <-chan error, sigs <-chan os.Signal) error {
	for n := 0; ; n++ {
		select {
		case err := <-done:
			return err
		case sig := <-sigs:
			if n >= 1 {
				sig = os.Kill
			}
			cmd.Process.Signal(sig)
		}
	}
}

// exitStatus returns CMD's exit status as a shell reports it (128+N when
// signal N killed it).
func exitStatus(err error) int {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return 0
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}

// summarize describes a recording: its path, events, and the lost
// events with the buffer size to raise.
func summarize(res *record.Result) string {
	s := fmt.Sprintf("%s: %d events, %d pages, %d bytes", res.Path, res.Events, res.Pages, res.Bytes)
	switch {
	case res.Lost > 0:
		s += fmt.Sprintf("; %d events lost: record with --buffer-kb above %d", res.Lost, res.BufferKB)
	case res.LostPages > 0:
		s += fmt.Sprintf("; events lost before %d pages: record with --buffer-kb above %d", res.LostPages, res.BufferKB)
	default:
		s += ", none lost"
	}
	return s + fmt.Sprintf(" (recording cost %.2f s CPU, %d MB)", res.CPU.Seconds(), res.MaxRSS>>20)
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._+-]+`)

// defaultRecordName is trace-<cmd>-<date>.dat in the current directory.
func defaultRecordName(argv []string, now time.Time) string {
	name := "system"
	if len(argv) > 0 {
		name = unsafeName.ReplaceAllString(filepath.Base(argv[0]), "_")
	}
	return fmt.Sprintf("trace-%s-%s.dat", name, now.Format("20060102-150405"))
}

// foreground reports whether the process runs in the foreground of the
// terminal on its stdin (where Ctrl-C signals the whole process group).
func foreground() bool {
	pgrp, err := unix.IoctlGetInt(0, unix.TIOCGPGRP)
	return err == nil && pgrp == unix.Getpgrp()
}

// isTerminal reports whether w is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
