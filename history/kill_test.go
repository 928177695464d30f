//go:build unix

package history

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

const killEnv = "HISTORY_TEST_KILL_BUILD"

// TestKilledBuildLeavesNoIndex kills a build half-way (SIGKILL, in a child
// process): nothing appears at the index path, the temporary file left
// behind does not open as an index, and the next Create removes it.
func TestKilledBuildLeavesNoIndex(t *testing.T) {
	if path := os.Getenv(killEnv); path != "" {
		// The child: build part of the model, then die without warning.
		b, err := Create(path, 0, Options{})
		if err != nil {
			os.Exit(3)
		}
		m := newModel(20_000, 40) // more than one R-buffer
		m.addKeys(b.Attributes())
		m.feed(b)
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "index")
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledBuildLeavesNoIndex$")
	cmd.Env = append(os.Environ(), killEnv+"="+path)
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child: %v, want killed", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("index exists after a killed build: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || !strings.HasPrefix(entries[0].Name(), ".index.tmp-") {
		t.Fatalf("left behind: %v", entries)
	}
	tmp := filepath.Join(dir, entries[0].Name())
	if st, _ := os.Stat(tmp); st == nil || st.Size() < 100<<10 {
		t.Fatalf("the child did not get far: %v", st)
	}
	if tr, err := Open(tmp, OpenOptions{}); !errors.Is(err, ErrNotIndex) {
		if tr != nil {
			tr.Close()
		}
		t.Fatalf("Open(temporary file) = %v, want ErrNotIndex", err)
	}
	b, err := Create(path, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Abort()
	if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Create did not remove the stale temporary file: %v", err)
	}
	// A live build's temporary file is not stale: a second Create of the
	// same path leaves it alone.
	b2, err := Create(path, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Abort()
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("two live builds, %d temporary files", len(entries))
	}
}
