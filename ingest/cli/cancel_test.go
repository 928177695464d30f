package cli_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
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
		err := cmd.Wait()
		latency := time.Since(sent)
		code := -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		t.Logf("%v: exit %d after %v", sig, code, latency)
		if code != 130 || !strings.Contains(stderr.String(), "tracetui: index: cancelled") {
			t.Errorf("%v: exit %d, stderr %q; want 130 and \"cancelled\"", sig, code, stderr.String())
		}
		if idx, _ := filepath.Glob(filepath.Join(cache, "tracetui", "*.tti")); len(idx) > 0 {
			t.Errorf("%v: a cancelled build left %v", sig, idx)
		}
	}
}
