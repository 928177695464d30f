package index

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest/index/eventindex"
)

// copyTrace copies a shared trace into a temporary directory.
func copyTrace(t *testing.T, name string) string {
	t.Helper()
	return coretest.CopyDir(t, filepath.Join(coretest.SharedTraces(t), "ctf", name))
}

// snapshot lists a directory's files with sizes and modification times.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	must(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		out[p] = strconv.FormatInt(info.Size(), 10) + "@" + info.ModTime().String()
		return nil
	}))
	return out
}

func openOpts(t *testing.T) Options {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	return Options{}
}

func TestOpenBuildsOnceThenReuses(t *testing.T) {
	trace := filepath.Join(coretest.SharedTraces(t), "ctf", "bug446190")
	before := snapshot(t, trace)
	opts := openOpts(t)
	ctx := context.Background()
	if _, ready, err := Locate(trace, opts); err != nil || ready {
		t.Fatalf("Locate before any build: ready=%v err=%v", ready, err)
	}
	tr, err := Open(ctx, trace, opts)
	must(t, err)
	if !tr.Built() {
		t.Error("first open did not build")
	}
	must(t, tr.Tree().Check())
	info := tr.Info()
	// babeltrace2 prints 31,556 events for this trace (shared/traces/README.md).
	if info.Events != 31556 || info.Format != "ctf" || info.Streams != 4 || info.Attributes == 0 || info.Intervals == 0 {
		t.Errorf("info = %+v", info)
	}
	tr.Close()
	if _, ready, _ := Locate(trace, opts); !ready {
		t.Error("Locate after the build: not ready")
	}
	again, err := Open(ctx, trace, opts)
	must(t, err)
	defer again.Close()
	if again.Built() {
		t.Error("second open rebuilt a valid index")
	}
	// The event index reaches the last event.
	src, err := again.OpenSource()
	must(t, err)
	defer src.Close()
	must(t, eventindex.NewSeeker(again.EventIndex(), src).SeekRank(info.Events-1))
	if ev, err := src.Next(); err != nil || ev.Time != info.EndNS {
		t.Errorf("last event %v (%v), want time %d", ev, err, info.EndNS)
	}
	if after := snapshot(t, trace); len(after) != len(before) {
		t.Errorf("the trace directory changed: %d entries, was %d", len(after), len(before))
	} else {
		for p, v := range before {
			if after[p] != v {
				t.Errorf("trace file %s changed: %s -> %s", p, v, after[p])
			}
		}
	}
}

func TestOpenRebuildsStaleAndCorruptIndexes(t *testing.T) {
	trace := copyTrace(t, "ctf-sequence-empty")
	opts := openOpts(t)
	ctx := context.Background()
	tr, err := Open(ctx, trace, opts)
	must(t, err)
	first := tr.Info().Index
	tr.Close()

	// A trace file changes (here: its mtime): another fingerprint, a new index.
	meta := filepath.Join(trace, "metadata")
	later := time.Now().Add(time.Hour)
	must(t, os.Chtimes(meta, later, later))
	tr, err = Open(ctx, trace, opts)
	must(t, err)
	if !tr.Built() || tr.Info().Index == first {
		t.Errorf("changed trace: built=%v index %s (was %s)", tr.Built(), tr.Info().Index, first)
	}
	path := tr.Info().Index
	tr.Close()

	// The index is damaged: detected on open, rebuilt.
	raw, err := os.ReadFile(path)
	must(t, err)
	raw[len(raw)/2] ^= 0xff
	must(t, os.WriteFile(path, raw, 0o644))
	tr, err = Open(ctx, trace, opts)
	must(t, err)
	if !tr.Built() {
		t.Error("damaged index reused")
	}
	must(t, tr.Tree().Check())
	tr.Close()

	// An explicit --index path holding another trace's index is rebuilt.
	other := filepath.Join(t.TempDir(), "idx.tti")
	o := opts
	o.IndexPath = other
	tr, err = Open(ctx, filepath.Join(coretest.SharedTraces(t), "ctf", "bug446190"), o)
	must(t, err)
	tr.Close()
	tr, err = Open(ctx, trace, o)
	must(t, err)
	if !tr.Built() || tr.Info().Events != 10 {
		t.Errorf("--index of another trace: built=%v events=%d", tr.Built(), tr.Info().Events)
	}
	tr.Close()
}

func TestConcurrentOpensBuildOnce(t *testing.T) {
	trace := filepath.Join(coretest.SharedTraces(t), "ctf", "bug446190")
	opts := openOpts(t)
	var wg sync.WaitGroup
	built := make([]bool, 4)
	for i := range built {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tr, err := Open(context.Background(), trace, opts)
			if err != nil {
				t.Error(err)
				return
			}
			built[i] = tr.Built()
			tr.Close()
		}()
	}
	wg.Wait()
	n := 0
	for _, b := range built {
		if b {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d of 4 concurrent opens built the index, want 1", n)
	}
}

func TestCancelledBuildLeavesNoIndex(t *testing.T) {
	trace := filepath.Join(coretest.SharedTraces(t), "ctf", "bug446190")
	opts := openOpts(t)
	ctx, cancel := context.WithCancel(context.Background())
	opts.Progress = func(done, total int64) {
		if done > 0 {
			cancel()
		}
	}
	_, err := Open(ctx, trace, opts)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled build returned %v", err)
	}
	path, ready, _ := Locate(trace, Options{})
	if ready {
		t.Fatal("a cancelled build left a valid index")
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*"))
	for _, f := range leftovers {
		if filepath.Ext(f) != ".lock" {
			t.Errorf("a cancelled build left %s", f)
		}
	}
}

// TestKilledBuildIsRebuilt kills a real process in the middle of a build
// (SIGKILL: no cleanup runs) and checks that the next open finds no valid
// index and builds one that passes Check.
func TestKilledBuildIsRebuilt(t *testing.T) {
	if os.Getenv("TRACETUI_KILL_CHILD") == "1" {
		testHookEvent = func(rank int64) {
			if rank == 20000 {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
		}
		Open(context.Background(), os.Getenv("TRACETUI_KILL_TRACE"), Options{})
		t.Fatal("the build was not killed")
	}
	trace := filepath.Join(coretest.SharedTraces(t), "ctf", "bug446190")
	cache := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledBuildIsRebuilt$")
	cmd.Env = append(os.Environ(), "TRACETUI_KILL_CHILD=1", "TRACETUI_KILL_TRACE="+trace, "XDG_CACHE_HOME="+cache)
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child: %v, want killed by SIGKILL", err)
	}
	t.Setenv("XDG_CACHE_HOME", cache)
	path, ready, err := Locate(trace, Options{})
	must(t, err)
	if ready {
		t.Fatal("a killed build left an index that opens as valid")
	}
	if _, err := history.Open(path, history.OpenOptions{}); err == nil {
		t.Fatal("the index path of a killed build opens")
	}
	tr, err := Open(context.Background(), trace, Options{})
	must(t, err)
	defer tr.Close()
	if !tr.Built() {
		t.Error("no rebuild after the kill")
	}
	must(t, tr.Tree().Check())
	// The rebuild cleaned the killed build's temporary event-index files.
	stale, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*evidx*"))
	if len(stale) > 0 {
		t.Errorf("stale temporary files remain: %v", stale)
	}
}

func TestTraceTilesEveryAttribute(t *testing.T) {
	trace := filepath.Join(coretest.SharedTraces(t), "ctf", "bug446190")
	tr, err := Open(context.Background(), trace, openOpts(t))
	must(t, err)
	defer tr.Close()
	h := tr.History()
	start, end := h.Bounds()
	var all []core.Interval
	keys := make([]core.Key, h.Attributes().Len())
	for i := range keys {
		keys[i] = core.Key(i)
	}
	_, err = h.Query2D(context.Background(), keys, start, end, func(iv core.Interval) bool { all = append(all, iv); return true })
	must(t, err)
	coretest.CheckTiling(t, all, len(keys), start, end)
}

// TestDemoTrace: the demo is generated once into the cache, is a trace
// the whole pipeline opens, and is reused afterwards.
func TestDemoTrace(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir, err := DemoTrace()
	must(t, err)
	first := snapshot(t, dir)
	again, err := DemoTrace()
	must(t, err)
	if again != dir || len(snapshot(t, dir)) != len(first) {
		t.Errorf("second call: %s (was %s)", again, dir)
	}
	for p, v := range snapshot(t, dir) {
		if first[p] != v {
			t.Errorf("demo file %s rewritten", p)
		}
	}
	tr, err := Open(context.Background(), dir, Options{})
	must(t, err)
	defer tr.Close()
	info := tr.Info()
	if info.Events < 10000 || info.Attributes < demoThreads {
		t.Errorf("demo: %d events, %d attributes", info.Events, info.Attributes)
	}
	if threads := tr.History().Attributes().Glob("Threads/*"); len(threads) < demoThreads {
		t.Errorf("demo has %d thread rows, want >= %d", len(threads), demoThreads)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestTraceDatIndexed: a trace-cmd trace.dat (version 7, zstd) goes
// through the whole pipeline, detected by content, and the kernel
// analysis draws its threads with their names.
func TestTraceDatIndexed(t *testing.T) {
	trace := filepath.Join(coretest.ModuleRoot(), "ingest", "tracedat", "testdata", "pipes-v7-zstd.dat")
	tr, err := Open(context.Background(), trace, openOpts(t))
	must(t, err)
	defer tr.Close()
	must(t, tr.Tree().Check())
	// trace-cmd report prints 12 842 events for this file.
	if info := tr.Info(); info.Format != "tracedat" || info.Events != 12842 || info.Streams != 2 {
		t.Errorf("info = %+v", info)
	}
	h := tr.History()
	start, end := h.Bounds()
	var keys []core.Key
	for i := 0; i < h.Attributes().Len(); i++ {
		if p := h.Attributes().Path(core.Key(i)); strings.HasPrefix(p, "Threads/") && strings.HasSuffix(p, "/Exec_name") {
			keys = append(keys, core.Key(i))
		}
	}
	names := map[string]bool{}
	_, err = h.Query2D(context.Background(), keys, start, end, func(iv core.Interval) bool {
		names[fmt.Sprint(iv.Value)] = true
		return true
	})
	must(t, err)
	for _, want := range []string{"gzip", "cat", "bash"} {
		if !names[want] {
			t.Errorf("no thread named %q among %d Exec_name attributes", want, len(keys))
		}
	}
}
