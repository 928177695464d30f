package record

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/ingest/tracedat"
)

// TestStartStop records the system for a moment through the package's
// API: the instance is gone after Stop, the file is 0600 and reads with
// package tracedat with as many events as the summary counts. Without
// root or tracefs it checks that Start says so in one error.
func TestStartStop(t *testing.T) {
	out := filepath.Join(t.TempDir(), "api.dat")
	sel, err := ParseEvents("-all,sched")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Start(Options{Output: out, Events: sel, BufferKB: 1024, Mount: true})
	if errors.Is(err, ErrNotRoot) || errors.Is(err, ErrNoTracefs) {
		t.Skipf("recording is not possible here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	instance := r.in.dir
	// Something to record: a child that runs and exits.
	if err := exec.Command("/bin/true").Run(); err != nil {
		r.Abort()
		t.Fatal(err)
	}
	res, err := r.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(instance); err == nil {
		t.Errorf("instance %s left", instance)
	}
	st, err := os.Stat(out)
	if err != nil || st.Mode().Perm() != 0o600 || st.Size() != res.Bytes {
		t.Fatalf("%s: %v, %v; want 0600 and %d bytes", out, st.Mode(), err, res.Bytes)
	}
	src, err := tracedat.Open(out, tracedat.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if src.Events() != res.Events || res.Events == 0 {
		t.Errorf("the file holds %d events, the summary says %d", src.Events(), res.Events)
	}
	if _, err := r.Stop(); err == nil {
		t.Error("a second Stop did not fail")
	}
	// Output existing, no Force: refused before anything is made.
	if _, err := Start(Options{Output: out, Events: sel}); err == nil {
		t.Error("an existing output was accepted")
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(instance), instancePrefix+strconv.Itoa(os.Getpid()))); err == nil {
		t.Error("a refused Start left its instance")
	}
}
