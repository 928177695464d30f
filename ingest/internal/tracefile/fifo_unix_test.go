//go:build unix

package tracefile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFIFORefusedWithoutBlocking names a FIFO that has no writer: opening
// it would block for ever (issue 18), so it must be refused before.
func TestFIFORefusedWithoutBlocking(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, err := Open(p)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("Open(fifo) = %v, want a named pipe refused", err)
	}
	if _, err := Check(p); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Check(fifo) = %v", err)
	}
}

// TestProcessSubstitutionNamed names the read end of a pipe as
// /dev/fd/N, what the shell passes for <(cat trace).
func TestProcessSubstitutionNamed(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	p := fmt.Sprintf("/dev/fd/%d", r.Fd())
	if _, err := os.Stat(p); err != nil {
		t.Skipf("no /dev/fd: %v", err)
	}
	_, err = Check(p)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "process substitution") {
		t.Errorf("Check(%s) = %v, want a process substitution refused", p, err)
	}
}
