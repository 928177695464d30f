package cli_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core/coretest"
)

// bigGzipTrace writes a gzip Chrome trace of 2 events of 32 MB each
// (about 100 KB compressed): most of a second of parsing.
func bigGzipTrace(t *testing.T) string {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	arg := bytes.Repeat([]byte("abcdefgh"), 4<<20)
	zw.Write([]byte("["))
	for i := range 2 {
		fmt.Fprintf(zw, `{"name":"big","ph":"X","ts":%d,"dur":1,"pid":1,"tid":1,"args":{"blob":"%s"}},`, i*10, arg)
	}
	zw.Write([]byte(`{"name":"end","ph":"i","ts":100,"pid":1,"tid":1}]`))
	zw.Close()
	p := filepath.Join(t.TempDir(), "big.json.gz")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCLICancelExits130: SIGINT and SIGTERM during the first pass of a
// gzip Chrome trace stop `index` promptly with exit status 130 and
// "cancelled" (issue 18: the signals were ignored for minutes, and the
// message said "context canceled"), leaving no index.
func TestCLICancelExits130(t *testing.T) {
	if testing.Short() {
		t.Skip("parses a large trace")
	}
	runCLI(t, "help") // builds the binary
	trace := bigGzipTrace(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		cache := t.TempDir()
		cmd := exec.Command(coretest.Binary(t), "index", trace)
		cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The build lock exists once the trace is being read.
		for deadline := time.Now().Add(time.Minute); ; {
			locks, _ := filepath.Glob(filepath.Join(cache, "tracetui", "*.lock"))
			if len(locks) > 0 {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatal("no build lock after a minute")
			}
			time.Sleep(time.Millisecond) // polling another process's files
		}
		sent := time.Now()
		cmd.Process.Signal(sig)
		err := waitBounded(t, cmd, time.Minute)
		latency := time.Since(sent)
		code := -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		t.Logf("%v: exit %d after %v", sig, code, latency)
		// The build stops within milliseconds on a quiet machine; the
		// bound leaves room for a loaded one, not for a missed check
		// (the read of this 64 MB trace takes seconds).
		if latency > cancelBound {
			t.Errorf("%v: exit %v after the signal, want within %v", sig, latency, cancelBound)
		}
		if code != 130 || !strings.Contains(stderr.String(), "tracetui: index: cancelled") {
			t.Errorf("%v: exit %d, stderr %q; want 130 and \"cancelled\"", sig, code, stderr.String())
		}
		if idx, _ := filepath.Glob(filepath.Join(cache, "tracetui", "*.tti")); len(idx) > 0 {
			t.Errorf("%v: a cancelled build left %v", sig, idx)
		}
	}
}

// cancelBound is how long a cancelled command may take to exit in these
// tests: generous for a loaded machine (the target is 100 ms).
const cancelBound = 2 * time.Second

// waitBounded waits for cmd, killing it and failing the test after limit.
func waitBounded(t *testing.T, cmd *exec.Cmd, limit time.Duration) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%v still running %v after the signal", cmd.Args, limit)
		return nil
	}
}

// TestCLIDumpCancelled: Ctrl-C in the middle of a dump stops it at its
// next buffer of output, exit 130 saying "cancelled" (signals are caught
// from the start of the run, so dump must check for them).
func TestCLIDumpCancelled(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gen")
	if code, _, errOut := runCLI(t, "gen", "--threads", "3000", "--seed", "2", "-o", dir); code != 0 {
		t.Fatalf("gen: exit %d: %s", code, errOut)
	}
	cmd := exec.Command(coretest.Binary(t), "dump", dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The first lines printed: the dump is under way.
	if _, err := io.ReadFull(out, make([]byte, 64<<10)); err != nil {
		cmd.Process.Kill()
		t.Fatalf("reading the dump: %v", err)
	}
	// Signalled while its output waits in a full pipe, so it cannot end
	// before the signal; then drained.
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	go io.Copy(io.Discard, out)
	err = waitBounded(t, cmd, time.Minute)
	if latency := time.Since(sent); latency > cancelBound {
		t.Errorf("dump exited %v after SIGINT, want within %v", latency, cancelBound)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 || !strings.Contains(stderr.String(), "tracetui: dump: cancelled") {
		t.Errorf("dump after SIGINT: %v, stderr %q; want exit 130 and \"cancelled\"", err, stderr.String())
	}
}
