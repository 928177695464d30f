package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
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

// TestCLIIndexInfoQueryBench runs the index subcommands in-process on a
// real kernel trace.
func TestCLIIndexInfoQueryBench(t *testing.T) {
	trace := filepath.Join(coretest.SharedTraces(t), "ctf", "bug446190")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	if code, _, errOut := runCLI("info", trace); code != 1 || !strings.Contains(errOut, "tracetui index") {
		t.Errorf("info before index: exit %d, stderr %q", code, errOut)
	}
	code, out, errOut := runCLI("index", "--json", trace)
	if code != 0 {
		t.Fatalf("index: exit %d: %s", code, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("index --json: %v\n%s", err, out)
	}
	for _, k := range []string{"format", "events", "lost_events", "streams", "start_ns", "end_ns", "attributes", "intervals", "index_bytes", "depth", "nodes", "build_ms", "layout"} {
		if _, ok := got[k]; !ok {
			t.Errorf("index --json lacks %q", k)
		}
	}
	if got["events"] != float64(31556) || got["layout"] != "rsht" {
		t.Errorf("index --json = %v", got)
	}
	code, out, _ = runCLI("info", "--json", trace)
	var info map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &info) != nil || info["intervals"] != got["intervals"] {
		t.Errorf("info --json: exit %d, %s", code, out)
	}
	// Thread 1 is systemd in the statedump.
	code, out, errOut = runCLI("query", trace, "Threads/1/Exec_name", "--from", "+1s", "--to", "+2s")
	if code != 0 || !strings.Contains(out, `"systemd"`) {
		t.Errorf("query: exit %d, out %q, err %q", code, out, errOut)
	}
	code, out, _ = runCLI("query", "--json", "--samples", "3", trace, "CPUs/*")
	var q struct {
		Attributes []struct{ Path string }
	}
	if code != 0 || json.Unmarshal([]byte(out), &q) != nil || len(q.Attributes) != 4 {
		t.Errorf("query --samples --json: exit %d, %s", code, out)
	}
	if code, _, errOut := runCLI("query", trace, "Nope/*"); code != 1 || !strings.Contains(errOut, "no attribute matches") {
		t.Errorf("query of a missing glob: exit %d, %q", code, errOut)
	}
	code, out, _ = runCLI("bench", "paper", "--json", trace)
	var b map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &b) != nil || b["zoom_frames"] == nil || b["pstree_nodes"] == nil {
		t.Errorf("bench paper --json: exit %d, %s", code, out)
	}
	for _, layout := range []string{"esht", "sht"} {
		if code, _, errOut := runCLI("index", "--layout", layout, trace); code != 0 {
			t.Errorf("index --layout %s: exit %d: %s", layout, code, errOut)
		}
	}
}
