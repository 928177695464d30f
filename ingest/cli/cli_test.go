package cli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
)

// The CLI's contract (package cli and main.go), checked on the built binary: subcommands,
// help, exit status 0/1/2, errors as "tracetui: <what>: <why>", and the
// index subcommands end to end on a real trace.

func TestMain(m *testing.M) { os.Exit(coretest.Main(m)) }

// runCLI runs the built tracetui with args (and env added) and returns its
// exit status and output.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	cmd := exec.Command(coretest.Binary(t), args...)
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, o.String(), e.String()
}

// synopses are the usage lines `tracetui help` must show, one per command.
var synopses = map[string]string{
	"index":    "index [--layout rsht|esht|sht] [--index FILE] [--format F] [--arch A] [--json] TRACE",
	"stats":    "stats [--index FILE] [--format F] [--arch A] [--json] [--from T] [--to T] [--top N] TRACE",
	"info":     "info [--index FILE] [--format F] [--json] [--check] TRACE",
	"dump":     "dump [--limit N] [--format F] TRACE",
	"query":    "query [--index FILE] [--format F] [--json] [--from T] [--to T] [--samples N] TRACE ATTRIBUTE_GLOB...",
	"critpath": "critpath [--index FILE] [--format F] [--json] [--from T] [--to T] TRACE TID",
	"bench":    "bench paper|frames [--index FILE] [--layout rsht|esht|sht] [--format F] [--json] TRACE",
	"calltree": "calltree [--index FILE] [--format F] [--json] [--from T] [--to T] [--tid TID] [--symbols FILE] TRACE",
	"diff":     "diff [--format F] [--arch A] [--json] [--top N] [--base-tids TID,...] [--new-tids TID,...] [--calltree] [--base-from T] [--base-to T] [--new-from T] [--new-to T] BASE NEW",
	"record":   "record [-o FILE] [-f] [-e EVENTS] [--duration D] [--buffer-kb N] [--all-cpus] [--no-open] [-- CMD ARGS...]",
	"cache":    "cache [--clean] [--json]",
	"gen":      "gen --threads N [--cpus C] [--seed S] -o DIR",
	"help":     "help [COMMAND]",
}

func TestCLIHelpListsEveryCommand(t *testing.T) {
	code, out, _ := runCLI(t, "help")
	if code != 0 {
		t.Fatalf("help exited %d", code)
	}
	for _, syn := range synopses {
		if !strings.Contains(out, "tracetui "+syn) {
			t.Errorf("help does not show %q", syn)
		}
	}
}

func TestCLIDashHOnEveryCommand(t *testing.T) {
	for name := range synopses {
		args := []string{name, "-h"}
		if name == "bench" {
			args = []string{"bench", "paper", "-h"}
		}
		if name == "help" {
			continue
		}
		code, _, errOut := runCLI(t, args...)
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
		{"stats", "--top", "0", "x"},
		{"stats", "--top", "100001", "x"},
		{"stats"},
		{"stats", "--arch", "vax", "x"},
		{"critpath", "x"},      // missing TID
		{"critpath", "x", "0"}, // the idle thread is per CPU
		{"critpath", "x", "-3"},
		{"gen", "-o", "d"}, // missing --threads
		{"bench"},          // missing benchmark name
		{"info", "--nope", "x"},
		{"help", "nope"},
		{"a", "b"}, // browser takes one trace
		{"query", "--samples", "100000000000", "x", "a"}, // issue 18: ran out of memory
		{"gen", "--threads", "100000000000", "-o", "d"},
		{"frobnicate", "x"}, // unknown command
	}
	for _, args := range cases {
		code, _, errOut := runCLI(t, args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", args, code, errOut)
		}
		if !strings.HasPrefix(errOut, "tracetui: ") {
			t.Errorf("%v: stderr %q does not start with 'tracetui: '", args, errOut)
		}
	}
}

// TestCLIRuntimeErrorExit1: a trace that cannot be read is a runtime
// error, not a usage error.
func TestCLIRuntimeErrorExit1(t *testing.T) {
	code, _, errOut := runCLI(t, "dump", filepath.Join(t.TempDir(), "missing"))
	if code != 1 || !strings.HasPrefix(errOut, "tracetui: dump: ") {
		t.Errorf("dump of a missing trace: exit %d, stderr %q", code, errOut)
	}
}

// TestCLIIndexInfoQueryBench runs the index subcommands in-process on a
// real kernel trace.
func TestCLIIndexInfoQueryBench(t *testing.T) {
	trace := filepath.Join(coretest.SharedTraces(t), "ctf", "bug446190")
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // inherited by the binary
	if code, _, errOut := runCLI(t, "info", trace); code != 1 || !strings.Contains(errOut, "tracetui index") {
		t.Errorf("info before index: exit %d, stderr %q", code, errOut)
	}
	code, out, errOut := runCLI(t, "index", "--json", trace)
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
	code, out, _ = runCLI(t, "info", "--json", trace)
	var info map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &info) != nil || info["intervals"] != got["intervals"] {
		t.Errorf("info --json: exit %d, %s", code, out)
	}
	// Thread 1 is systemd in the statedump.
	code, out, errOut = runCLI(t, "query", trace, "Threads/1/Exec_name", "--from", "+1s", "--to", "+2s")
	if code != 0 || !strings.Contains(out, `"systemd"`) {
		t.Errorf("query: exit %d, out %q, err %q", code, out, errOut)
	}
	code, out, _ = runCLI(t, "query", "--json", "--samples", "3", trace, "CPUs/*")
	var q struct {
		Attributes []struct{ Path string }
	}
	if code != 0 || json.Unmarshal([]byte(out), &q) != nil || len(q.Attributes) != 4 {
		t.Errorf("query --samples --json: exit %d, %s", code, out)
	}
	if code, _, errOut := runCLI(t, "query", trace, "Nope/*"); code != 1 || !strings.Contains(errOut, "no attribute matches") {
		t.Errorf("query of a missing glob: exit %d, %q", code, errOut)
	}
	code, out, errOut = runCLI(t, "stats", "--json", "--top", "3", trace)
	var st struct {
		FromNS, ToNS int64
		CPUUsage     struct{ Threads, CPUs []map[string]any } `json:"cpu_usage"`
		Syscalls     []map[string]any                         `json:"syscalls"`
		Slowest      struct{ Syscalls []map[string]any }      `json:"slowest"`
	}
	if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil || len(st.CPUUsage.CPUs) != 4 || len(st.Syscalls) == 0 || len(st.Slowest.Syscalls) != 3 {
		t.Errorf("stats --json: exit %d, %v, err %q: %.300s", code, err, errOut, out)
	}
	for _, k := range []string{"name", "count", "min_ns", "mean_ns", "max_ns", "stdev_ns", "total_ns", "returns"} {
		if len(st.Syscalls) > 0 && st.Syscalls[0][k] == nil {
			t.Errorf("stats --json: syscalls lack %q", k)
		}
	}
	if code, out, _ = runCLI(t, "stats", "--from", "+1s", "--to", "+2s", trace); code != 0 || !strings.Contains(out, "Timerange") || !strings.Contains(out, "System calls") {
		t.Errorf("stats: exit %d, %.300s", code, out)
	}
	code, out, _ = runCLI(t, "bench", "paper", "--json", trace)
	var b map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &b) != nil || b["zoom_frames"] == nil || b["pstree_nodes"] == nil {
		t.Errorf("bench paper --json: exit %d, %s", code, out)
	}
	for _, layout := range []string{"esht", "sht"} {
		if code, _, errOut := runCLI(t, "index", "--layout", layout, trace); code != 0 {
			t.Errorf("index --layout %s: exit %d: %s", layout, code, errOut)
		}
	}
}

// calltree on clang's -ftime-trace sample: the text tree of the compiler
// thread, the JSON of a range (clipped calls), an unknown thread (exit 1)
// and a range that ends before it starts (exit 2).
func TestCLICallTree(t *testing.T) {
	trace := filepath.Join("..", "..", "testdata", "chrome", "clang-ftime-trace.json")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	code, out, errOut := runCLI(t, "calltree", "--tid", "4242:4242", trace)
	if code != 0 {
		t.Fatalf("calltree: exit %d: %s", code, errOut)
	}
	for _, line := range []string{
		"     5.6ms      1.1ms        1      5.6ms      5.6ms  ExecuteCompiler",
		"       1ms      770us        1        1ms        1ms      Source",
		"     230us      230us        1      230us      230us        Source",
	} {
		if !strings.Contains(out, line+"\n") {
			t.Errorf("calltree lacks %q:\n%s", line, out)
		}
	}
	code, out, errOut = runCLI(t, "calltree", "--json", "--tid", "4242:4242", "--from", "+4ms", "--to", "+4.5ms", trace)
	var tree struct {
		Total    int64 `json:"total_ns"`
		Children []struct {
			Function string `json:"function"`
			Calls    int64  `json:"calls"`
			Total    int64  `json:"total_ns"`
			Self     int64  `json:"self_ns"`
			Children []struct {
				Function string `json:"function"`
				Total    int64  `json:"total_ns"`
			} `json:"children"`
		} `json:"children"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &tree) != nil {
		t.Fatalf("calltree --json: exit %d: %s%s", code, out, errOut)
	}
	if tree.Total != 500_000 || len(tree.Children) != 1 || tree.Children[0].Function != "ExecuteCompiler" ||
		tree.Children[0].Self != 0 || len(tree.Children[0].Children) != 1 || tree.Children[0].Children[0].Total != 500_000 {
		t.Errorf("calltree --json over [4ms, 4.5ms) = %+v", tree)
	}
	if code, _, errOut := runCLI(t, "calltree", "--tid", "nope", trace); code != 1 || !strings.Contains(errOut, "no thread") {
		t.Errorf("unknown thread: exit %d, %q", code, errOut)
	}
	if code, _, _ := runCLI(t, "calltree", "--from", "+5ms", "--to", "+1ms", trace); code != 2 {
		t.Errorf("--to before --from: exit %d, want 2", code)
	}
}

// TestCLIUnknownCommand: a mistyped command says so (issue 18: it said
// `browse: unexpected argument "TRACE"`).
func TestCLIUnknownCommand(t *testing.T) {
	code, _, errOut := runCLI(t, "frobnicate", "trace.json")
	if code != 2 || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// TestCLIDumpLimitWarnings: `dump --limit 1` reports only the warnings of
// the part printed, and sums the rest up in one line (issue 18).
func TestCLIDumpLimitWarnings(t *testing.T) {
	var b strings.Builder
	b.WriteString("# tracer: nop\n")
	for i := range 50 {
		fmt.Fprintf(&b, "           bash-1234  [001] .....  10.%06d: sys_enter: NR 0 (0, 0)\ngarbage %d\n", i, i)
	}
	p := filepath.Join(t.TempDir(), "trace.txt")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "dump", "--limit", "1", p)
	if code != 0 || strings.Count(out, "\n") != 1 {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "50 more warnings") {
		t.Errorf("stderr %q: want one line summing up the 50 warnings", errOut)
	}
}

// TestCLIInfoCheck: `info --check` passes a sound index, and a damaged
// one is never called fine: info names the command that rebuilds it
// (issue 18 item 11; on this small index the damage already shows when
// it is opened, which is why the message may come before the check).
func TestCLIInfoCheck(t *testing.T) {
	trace := filepath.Join(coretest.ModuleRoot(), "testdata", "ctf", "several-streams")
	idx := filepath.Join(t.TempDir(), "x.tti")
	if code, _, errOut := runCLI(t, "index", "--index", idx, trace); code != 0 {
		t.Fatalf("index: exit %d, %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "info", "--check", "--index", idx, trace); code != 0 {
		t.Fatalf("info --check of a sound index: exit %d, %s", code, errOut)
	}
	b, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0x55
	if err := os.WriteFile(idx, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, "info", "--check", "--index", idx, trace)
	if code != 1 || !strings.Contains(errOut, "tracetui index") {
		t.Errorf("info --check of a damaged index: exit %d, stderr %q", code, errOut)
	}
}

// bench frames on a small Chrome trace: the JSON's fields, one step per
// scripted key with a frame each, the first frame first.
func TestBenchFramesJSON(t *testing.T) {
	trace := filepath.Join(coretest.ModuleRoot(), "testdata", "chrome", "clang-ftime-trace.json")
	code, out, errOut := runCLI(t, "bench", "frames", "--json", "--index", filepath.Join(t.TempDir(), "x.tti"), trace)
	var res struct {
		Frames int
		Steps  []struct {
			Key   string
			MS    *float64
			Nodes *int
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("bench frames --json: exit %d, %q, %s", code, errOut, out)
	}
	var raw map[string]any
	_ = json.Unmarshal([]byte(out), &raw)
	for _, k := range []string{"frames", "p50_ms", "p99_ms", "max_ms", "first_ms", "steps"} {
		if raw[k] == nil {
			t.Errorf("bench frames --json lacks %q: %.300s", k, out)
		}
	}
	if res.Frames == 0 || res.Frames != len(res.Steps) || res.Steps[0].Key != "open" {
		t.Errorf("bench frames: %d frames, %d steps, first %+v", res.Frames, len(res.Steps), res.Steps[0])
	}
	for _, s := range res.Steps {
		if s.Key == "" || s.MS == nil || *s.MS < 0 || s.Nodes == nil {
			t.Errorf("step %+v: want a key, its ms and nodes", s)
		}
	}
	if code, _, errOut := runCLI(t, "bench", "nope", trace); code != 2 || !strings.Contains(errOut, "paper or frames") {
		t.Errorf("bench nope: exit %d, %q", code, errOut)
	}
}

// TestCLIDiff: `diff --json` of a trace with itself is all zeros, in the
// issue's schema; two ranges of one trace compare too.
func TestCLIDiff(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	trace := filepath.Join(coretest.SharedTraces(t), "ctf", "bug446190")
	code, out, errOut := runCLI(t, "diff", "--json", trace, trace)
	if code != 0 {
		t.Fatalf("diff: exit %d: %s", code, errOut)
	}
	type side struct {
		Count   int64 `json:"count"`
		TotalNS int64 `json:"total_ns"`
		MaxNS   int64 `json:"max_ns"`
	}
	var r struct {
		Processes []struct {
			Name    string `json:"name"`
			BaseNS  int64  `json:"base_ns"`
			NewNS   int64  `json:"new_ns"`
			DeltaNS int64  `json:"delta_ns"`
		} `json:"processes"`
		Threads  []map[string]any `json:"threads"`
		Syscalls []struct {
			Name         string `json:"name"`
			Base         side   `json:"base"`
			New          side   `json:"new"`
			DeltaTotalNS int64  `json:"delta_total_ns"`
		} `json:"syscalls"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("diff --json: %v\n%s", err, out)
	}
	if len(r.Processes) == 0 || len(r.Threads) == 0 || len(r.Syscalls) == 0 {
		t.Fatalf("diff --json: %d processes, %d threads, %d system calls", len(r.Processes), len(r.Threads), len(r.Syscalls))
	}
	for _, p := range r.Processes {
		if p.DeltaNS != 0 || p.BaseNS != p.NewNS || p.BaseNS == 0 {
			t.Errorf("process %s: base %d new %d delta %d", p.Name, p.BaseNS, p.NewNS, p.DeltaNS)
		}
	}
	for _, s := range r.Syscalls {
		if s.DeltaTotalNS != 0 || s.Base != s.New {
			t.Errorf("system call %s: %+v", s.Name, s)
		}
	}
	if code, out, errOut := runCLI(t, "diff", "--top", "3", "--base-to", "+2s", "--new-from", "+2s", trace, trace); code != 0 || !strings.Contains(out, "CPU time per process") {
		t.Errorf("diff of two ranges: exit %d: %s%s", code, out, errOut)
	}
}

// TestCLIRangeOutsideTrace: a --from or --to outside the trace (a bare
// 170.5 is absolute seconds, decades before an LTTng trace) is a usage
// error that shows the trace's span, never a range silently clamped.
func TestCLIRangeOutsideTrace(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	trace := filepath.Join(coretest.SharedTraces(t), "ctf", "bug446190")
	for _, args := range [][]string{
		{"stats", "--from", "170.5", trace},
		{"query", "--to", "170.5", trace, "CPUs/*"},
		{"calltree", "--from", "+1h", trace},
		{"critpath", "--from", "170.5", trace, "482"},
		{"diff", "--new-from", "170.5", trace, trace},
	} {
		code, _, errOut := runCLI(t, args...)
		if code != 2 || !strings.Contains(errOut, "outside the trace: the trace spans 1412670961.") {
			t.Errorf("%v: exit %d, %q; want 2 and the trace's span", args, code, errOut)
		}
	}
	if code, _, errOut := runCLI(t, "stats", "--from", "+1s", "--to", "+2s", trace); code != 0 {
		t.Errorf("stats over a range inside the trace: exit %d: %s", code, errOut)
	}
}
