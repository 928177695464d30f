package coretest

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// SharedEnv names the environment variable that points at the shared
// directory (the one holding traces/) when it is not beside the checkout.
const SharedEnv = "TRACETUI_SHARED"

// SharedTraces returns the directory of the real test traces
// (shared/traces, read in place, never copied), or skips the test with a
// message saying how to provide it. It looks at $TRACETUI_SHARED, then for a
// "shared" directory beside the module root or one level further up (git
// worktrees live one level deeper than the main checkout).
func SharedTraces(t testing.TB) string {
	t.Helper()
	if dir := SharedDir(); dir != "" {
		return filepath.Join(dir, "traces")
	}
	t.Skipf("real traces not found: put the shared directory beside the checkout (../shared/traces) or set %s", SharedEnv)
	return ""
}

// SharedDir returns the shared directory, or "" when it cannot be found.
func SharedDir() string {
	if d := os.Getenv(SharedEnv); d != "" {
		if isDir(filepath.Join(d, "traces")) {
			return d
		}
		return ""
	}
	root := ModuleRoot()
	if root == "" {
		return ""
	}
	for _, rel := range []string{"../shared", "../../shared"} {
		d := filepath.Clean(filepath.Join(root, rel))
		if isDir(filepath.Join(d, "traces")) {
			return d
		}
	}
	return ""
}

// ModuleRoot returns the directory holding go.mod, found upward from the
// working directory (a package directory under go test), or "".
func ModuleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// NeedCommand skips the test unless the named program is on PATH, saying
// how to install it.
func NeedCommand(t testing.TB, name, debianPackage string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s not found: install it (apt-get install -y %s); .ci/run does", name, debianPackage)
	}
	return p
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// CopyDir copies the directory tree src into a temporary directory and
// returns the copy's path, for tests that change or damage files (the
// shared traces are only ever read).
func CopyDir(t testing.TB, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
