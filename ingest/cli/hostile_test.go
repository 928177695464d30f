package cli_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core/coretest"
)

// runBounded runs the built tracetui with args and env added, killing it
// after limit: a command that blocks (on a FIFO, say) fails the test
// instead of hanging it.
func runBounded(t *testing.T, limit time.Duration, env []string, args ...string) (code int, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, coretest.Binary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	var e bytes.Buffer
	cmd.Stderr = &e
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("tracetui %v still running after %s: it blocked (stderr %q)", args, limit, e.String())
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), e.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, e.String()
}

// TestFIFORefusedByEveryCommand: a named pipe given as the trace, or as
// the --index file, is refused at once with a message by every command
// (the fingerprint and history.Open opened it first and blocked for
// ever, deaf to Ctrl-C). Each run is killed after 20 s, a bound no
// loaded machine reaches when the refusal is made before any open.
func TestFIFORefusedByEveryCommand(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "f")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	trace := filepath.Join("..", "..", "testdata", "chrome", "clang-ftime-trace.json")
	env := []string{"XDG_CACHE_HOME=" + t.TempDir()}
	for _, args := range [][]string{
		{"index", fifo},
		{"info", fifo},
		{"dump", fifo},
		{"stats", fifo},
		{"query", fifo, "*"},
		{"critpath", fifo, "1"},
		{"calltree", fifo},
		{"bench", "paper", fifo},
		{"index", "--index", fifo, trace},
		{"stats", "--index", fifo, trace},
		{"info", "--index", fifo, trace},
		{"query", "--index", fifo, trace, "*"},
	} {
		code, stderr := runBounded(t, 20*time.Second, env, args...)
		if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "pipe") && !strings.Contains(stderr, "not a regular file") {
			t.Errorf("tracetui %v: exit %d, stderr %q; want exit 1 and one line naming the pipe", args, code, stderr)
		}
	}
}

// TestCacheIsPrivate: the cache directory is 0700 (also when an older
// tracetui left it 0755) and its index and lock files 0600; an --index
// file is no more readable than its trace. As root, a second user is
// denied the index too, through folders that let it pass.
func TestCacheIsPrivate(t *testing.T) {
	base := t.TempDir()
	cache := filepath.Join(base, "cache")
	if err := os.MkdirAll(filepath.Join(cache, "tracetui"), 0o755); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(base, "t.json")
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "chrome", "clang-ftime-trace.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(trace, raw, 0o640); err != nil {
		t.Fatal(err)
	}
	if code, stderr := runBounded(t, time.Minute, []string{"XDG_CACHE_HOME=" + cache}, "index", trace); code != 0 {
		t.Fatalf("index: exit %d: %s", code, stderr)
	}
	dir := filepath.Join(cache, "tracetui")
	if st, err := os.Stat(dir); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("cache directory %v, %v; want 0700", st.Mode(), err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		t.Fatalf("cache listing: %v, %d entries", err, len(entries))
	}
	var index string
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != 0o600 {
			t.Errorf("%s is %v, want 0600", e.Name(), info.Mode().Perm())
		}
		if strings.HasSuffix(e.Name(), ".tti") {
			index = filepath.Join(dir, e.Name())
		}
	}
	explicit := filepath.Join(base, "x.tti")
	if code, stderr := runBounded(t, time.Minute, nil, "index", "--index", explicit, trace); code != 0 {
		t.Fatalf("index --index: exit %d: %s", code, stderr)
	}
	if st, err := os.Stat(explicit); err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("--index file %v, %v; want the trace's 0640", st.Mode(), err)
	}
	if os.Getuid() != 0 || index == "" {
		return
	}
	// Every folder above the cache lets others pass, so only the cache's
	// own permissions keep the second user out.
	for d := filepath.Dir(dir); d != filepath.Clean(os.TempDir()) && d != "/"; d = filepath.Dir(d) {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cat := exec.Command("cat", index)
	cat.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	if out, err := cat.CombinedOutput(); err == nil {
		t.Errorf("user 65534 read the cache's index (%d bytes)", len(out))
	}
}

// TestLockSymlinkNotFollowed: a symbolic link planted at the index's
// lock path is refused with a message, and nothing is created where it
// points.
func TestLockSymlinkNotFollowed(t *testing.T) {
	base := t.TempDir()
	trace := filepath.Join("..", "..", "testdata", "chrome", "clang-ftime-trace.json")
	index := filepath.Join(base, "x.tti")
	victim := filepath.Join(base, "victim")
	if err := os.Symlink(victim, index+".lock"); err != nil {
		t.Fatal(err)
	}
	code, stderr := runBounded(t, time.Minute, nil, "index", "--index", index, trace)
	if code != 1 || !strings.Contains(stderr, "index lock") {
		t.Errorf("index with a planted lock symlink: exit %d, %q", code, stderr)
	}
	if _, err := os.Lstat(victim); err == nil {
		t.Error("the lock followed the symlink and created its target")
	}
}
