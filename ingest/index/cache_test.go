package index

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestFingerprintFollowsContent(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace")
	must(t, os.MkdirAll(filepath.Join(trace, "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(trace, "metadata"), []byte("abc"), 0o644))
	must(t, os.WriteFile(filepath.Join(trace, "sub", "stream_0"), []byte("12345"), 0o644))
	fp := func() string {
		files, err := traceFiles(trace)
		must(t, err)
		return fingerprint(trace, files, "v1")
	}
	a := fp()
	if b := fp(); a != b {
		t.Fatal("fingerprint not stable")
	}
	must(t, os.WriteFile(filepath.Join(trace, "sub", "stream_0"), []byte("123456"), 0o644))
	b := fp()
	if a == b {
		t.Error("fingerprint ignores a size change")
	}
	old := time.Now().Add(-time.Hour)
	must(t, os.Chtimes(filepath.Join(trace, "metadata"), old, old))
	if c := fp(); c == b {
		t.Error("fingerprint ignores an mtime change")
	}
	// Same size and times, other bytes at either end (issue 18: the
	// stale index was kept).
	stream := filepath.Join(trace, "sub", "stream_0")
	for _, content := range [][]byte{bytes.Repeat([]byte("a"), 3*sampleBytes), append(bytes.Repeat([]byte("a"), 3*sampleBytes-1), 'b'), append([]byte("b"), bytes.Repeat([]byte("a"), 3*sampleBytes-1)...)} {
		prev := fp()
		must(t, os.WriteFile(stream, content, 0o644))
		must(t, os.Chtimes(stream, old, old))
		if now := fp(); now == prev {
			t.Errorf("fingerprint ignores a change of content at the same size and time (%q...%q)", content[:1], content[len(content)-1:])
		}
	}
	files, _ := traceFiles(trace)
	if fingerprint(trace, files, "v1") == fingerprint(trace, files, "v2") {
		t.Error("fingerprint ignores the format version")
	}
	if name := cacheName(trace, a); filepath.Ext(name) != ".tti" || name[:6] != "trace-" {
		t.Errorf("cache name %q", name)
	}
}

func TestCacheDirFollowsXDG(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/x/cache")
	if d, err := CacheDir(); err != nil || d != "/x/cache/tracetui" {
		t.Errorf("CacheDir = %q, %v", d, err)
	}
	t.Setenv("XDG_CACHE_HOME", "relative") // ignored, as the XDG spec says
	t.Setenv("HOME", "/home/u")
	if d, err := CacheDir(); err != nil || d != "/home/u/.cache/tracetui" {
		t.Errorf("CacheDir = %q, %v", d, err)
	}
}

func TestBuildLockExcludes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "idx")
	ctx := context.Background()
	first, err := acquireLock(ctx, path, nil)
	must(t, err)
	waiting := make(chan struct{})
	got := make(chan error, 1)
	go func() {
		second, err := acquireLock(ctx, path, func() { close(waiting) })
		if err == nil {
			second.release()
		}
		got <- err
	}()
	<-waiting // the second process found the lock taken
	first.release()
	if err := <-got; err != nil {
		t.Fatalf("second lock after release: %v", err)
	}

	held, err := acquireLock(ctx, path, nil)
	must(t, err)
	defer held.release()
	cctx, cancel := context.WithCancel(ctx)
	_, err = acquireLock(cctx, path, cancel) // cancel as soon as it waits
	if err != context.Canceled {
		t.Errorf("cancelled wait returned %v", err)
	}
}
