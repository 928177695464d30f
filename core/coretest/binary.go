package coretest

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// callerEnv is the environment the test process started with, taken
// before any test changes HOME or XDG_CACHE_HOME (t.Setenv): the binary is
// built with it, so that go build uses the caller's build cache and not an
// empty one in a test's temporary directory (47 s instead of 1 s).
var callerEnv = os.Environ()

// built is tracetui built once for the test process (see Binary).
var built struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// Binary returns the path of tracetui built from this module, building it
// on the first call of the test process with the caller's environment and
// build cache. A package that calls it runs its tests through [Main], which
// removes the binary at the end.
func Binary(tb testing.TB) string {
	tb.Helper()
	built.once.Do(func() {
		root := ModuleRoot()
		if root == "" {
			built.err = fmt.Errorf("module root not found")
			return
		}
		dir, err := os.MkdirTemp("", "tracetui-bin-")
		if err != nil {
			built.err = err
			return
		}
		built.dir, built.path = dir, dir+"/tracetui"
		c := exec.Command("go", "build", "-o", built.path, ".")
		c.Dir, c.Env = root, callerEnv
		if out, err := c.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if built.err != nil {
		tb.Fatal(built.err)
	}
	return built.path
}

// Main runs the package's tests and removes the binary [Binary] built, if
// any; TestMain returns its result to os.Exit.
func Main(m *testing.M) int {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	return code
}

// TerminalEnv is the environment of a user at a terminal, for a program a
// test runs in tmux: this process's without CI, which the terminal
// libraries read as "no terminal" (no colour, plain marks), as a CI run
// sets it.
func TerminalEnv() []string {
	var out []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "CI=") {
			out = append(out, e)
		}
	}
	return out
}
