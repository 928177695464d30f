package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs the CLI in-process and returns its exit status and output.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestCLIHelpListsEveryCommand(t *testing.T) {
	code, out, _ := runCLI("help")
	if code != 0 {
		t.Fatalf("help exited %d", code)
	}
	for _, cmd := range commands() {
		if !strings.Contains(out, "tracetui "+cmd.synopsis) {
			t.Errorf("help does not show %q", cmd.synopsis)
		}
	}
}

func TestCLIDashHOnEveryCommand(t *testing.T) {
	for _, cmd := range commands() {
		args := []string{cmd.name, "-h"}
		if cmd.name == "bench" {
			args = []string{"bench", "paper", "-h"}
		}
		if cmd.name == "help" {
			continue
		}
		code, _, errOut := runCLI(args...)
		if code != 0 || !strings.Contains(errOut, "usage: tracetui") {
			t.Errorf("%v: exit %d, stderr %q; want 0 and a usage line", args, code, errOut)
		}
	}
}

func TestCLIUsageErrorsExit2(t *testing.T) {
	cases := [][]string{
		{"dump"},                            // missing TRACE
		{"dump", "--limit", "-1", "x"},      // bad value
		{"index", "--layout", "btree", "x"}, // unknown layout
		{"query", "x"},                      // missing glob
		{"query", "--from", "soon", "x", "a"},
		{"gen", "-o", "d"}, // missing --threads
		{"bench"},          // missing benchmark name
		{"info", "--nope", "x"},
		{"help", "nope"},
		{"a", "b"}, // browser takes one trace
	}
	for _, args := range cases {
		code, _, errOut := runCLI(args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", args, code, errOut)
		}
		if !strings.HasPrefix(errOut, "tracetui: ") {
			t.Errorf("%v: stderr %q does not start with 'tracetui: '", args, errOut)
		}
	}
}

// TestBuiltBinaryExitStatus runs the compiled binary, because the exit
// status contract is about the process, not the run function.
func TestBuiltBinaryExitStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "tracetui")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"help"}, 0},
		{[]string{"dump"}, 2},
		{[]string{"dump", filepath.Join(t.TempDir(), "missing")}, 1},
	} {
		cmd := exec.Command(bin, c.args...)
		cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+t.TempDir())
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code {
			t.Errorf("tracetui %v: exit %d, want %d", c.args, code, c.code)
		}
	}
}
