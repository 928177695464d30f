package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest/ctf"
)

// copyDir copies a testdata trace directory into a temporary one.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	must(t, os.CopyFS(dst, os.DirFS(src)))
	return dst
}

// TestIndexNeverOverwritesOtherFiles: --index naming the trace, a CTF
// metadata file, an unrelated file, a directory or a path inside the
// trace directory is refused before anything is built, and leaves every
// file as it was (issue 18: the trace itself became an index).
func TestIndexNeverOverwritesOtherFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	chromeTrace := filepath.Join(dir, "t.json")
	must(t, os.WriteFile(chromeTrace, []byte(`[{"name":"a","ph":"X","ts":1,"dur":2,"pid":1,"tid":1}]`), 0o644))
	notes := filepath.Join(dir, "notes.txt")
	must(t, os.WriteFile(notes, []byte("keep me"), 0o644))
	ctfTrace := copyDir(t, filepath.Join(coretest.ModuleRoot(), "testdata", "ctf", "several-streams"))
	before := snapshot(t, dir)
	ctfBefore := snapshot(t, ctfTrace)
	cases := []struct{ trace, index string }{
		{chromeTrace, chromeTrace},
		{chromeTrace, notes},
		{chromeTrace, dir},
		{ctfTrace, filepath.Join(ctfTrace, "metadata")},
		{ctfTrace, filepath.Join(ctfTrace, "index.tti")},
		{ctfTrace, ctfTrace},
	}
	for _, c := range cases {
		_, err := Open(ctx, c.trace, Options{IndexPath: c.index, Rebuild: true})
		if !errors.Is(err, ErrIndexPath) {
			t.Errorf("Open(%s, --index %s) = %v, want ErrIndexPath", filepath.Base(c.trace), c.index, err)
		}
	}
	for name, snap := range map[string]map[string]string{dir: before, ctfTrace: ctfBefore} {
		after := snapshot(t, name)
		for p, v := range snap {
			if after[p] != v {
				t.Errorf("%s changed: %s -> %s", p, v, after[p])
			}
		}
		if len(after) != len(snap) {
			t.Errorf("%s: %d files, was %d", name, len(after), len(snap))
		}
	}
	// A new file, then the index it became, are written.
	idx := filepath.Join(t.TempDir(), "t.tti")
	for range 2 {
		tr, err := Open(ctx, chromeTrace, Options{IndexPath: idx, Rebuild: true})
		must(t, err)
		tr.Close()
	}
}

// TestCTFStreamsSkipTracetuiFiles: an index and its lock left inside a CTF
// directory (by an older version) are not read as streams.
func TestCTFStreamsSkipTracetuiFiles(t *testing.T) {
	trace := copyDir(t, filepath.Join(coretest.ModuleRoot(), "testdata", "ctf", "several-streams"))
	must(t, os.WriteFile(filepath.Join(trace, "x.tti"), []byte("\x89RSHT\r\n\x1agarbage"), 0o644))
	must(t, os.WriteFile(filepath.Join(trace, "x.tti.lock"), nil, 0o644))
	src, err := ctf.Open(trace)
	must(t, err)
	src.Close()
}

// TestRebuildAfterWaitingReuses: an `index` run (Rebuild) that waited for
// another process's build takes the index just built instead of building
// it again (issue 18: the second of two concurrent runs took twice as
// long).
func TestRebuildAfterWaitingReuses(t *testing.T) {
	trace := filepath.Join(coretest.ModuleRoot(), "testdata", "ctf", "several-streams")
	opts := openOpts(t)
	opts.Rebuild = true
	first, err := Open(context.Background(), trace, opts)
	must(t, err)
	indexPath := first.Info().Index
	first.Close()
	lock, err := acquireLock(context.Background(), indexPath, nil) // "another process" building
	must(t, err)
	waiting := make(chan struct{})
	done := make(chan *Index)
	go func() {
		o := opts
		o.Waiting = func() { close(waiting) }
		tr, err := Open(context.Background(), trace, o)
		if err != nil {
			t.Error(err)
		}
		done <- tr
	}()
	<-waiting
	lock.release()
	tr := <-done
	if tr == nil {
		return
	}
	defer tr.Close()
	if tr.Built() {
		t.Error("a rebuild that waited for another build built again")
	}
}

// TestExplicitIndexUsedWhateverItsLayout: an index named with --index
// that is current for the trace is used as it is, whatever its layout
// (issue 16 item 6); one that is not current is rebuilt.
func TestExplicitIndexUsedWhateverItsLayout(t *testing.T) {
	trace := filepath.Join(coretest.ModuleRoot(), "testdata", "ctf", "several-streams")
	idx := filepath.Join(t.TempDir(), "x.tti")
	tr, err := Open(context.Background(), trace, Options{IndexPath: idx, Layout: history.LayoutESHT, Rebuild: true})
	must(t, err)
	tr.Close()
	if _, ready, err := Locate(trace, Options{IndexPath: idx}); err != nil || !ready {
		t.Errorf("Locate(--index esht file) = ready %v, %v; want ready", ready, err)
	}
	tr, err = Open(context.Background(), trace, Options{IndexPath: idx})
	must(t, err)
	if tr.Built() || tr.Info().Layout != "esht" {
		t.Errorf("Open(--index esht file): built %v, layout %s; want the esht index as it is", tr.Built(), tr.Info().Layout)
	}
	tr.Close()
	other := filepath.Join(coretest.ModuleRoot(), "testdata", "ctf", "nested-traces")
	tr, err = Open(context.Background(), other, Options{IndexPath: idx})
	must(t, err)
	if !tr.Built() {
		t.Error("the index of another trace was used")
	}
	tr.Close()
}
