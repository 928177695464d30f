package ingest_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest"
)

func conformance(name string) string {
	return filepath.Join(coretest.ModuleRoot(), "testdata", "ctf", name)
}

func TestOpenSourceDetectsCTF(t *testing.T) {
	for _, p := range []string{conformance("several-streams"), conformance("nested-traces"), filepath.Join(conformance("nested-traces"), "kernel")} {
		src, err := ingest.OpenSource(p, "", ingest.OpenEnv{})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if info := src.Info(); info.Format != "ctf" || info.Path != p {
			t.Errorf("%s: Info %+v", p, info)
		}
		src.Close()
	}
	src, err := ingest.OpenSource(conformance("several-streams"), "ctf", ingest.OpenEnv{})
	if err != nil {
		t.Fatal(err)
	}
	src.Close()
}

func TestOpenSourceErrors(t *testing.T) {
	dir := t.TempDir()
	notTrace := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notTrace, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct{ path, format, want string }{
		"missing":        {filepath.Join(dir, "nope"), "", "no such file"},
		"unknown file":   {notTrace, "", "not a trace in a known format"},
		"empty dir":      {dir, "", "not a trace in a known format"},
		"unknown format": {dir, "pcap", `unknown trace format "pcap"`},
		"ctf on a file":  {notTrace, "ctf", "not a directory"},
		"bad metadata":   {conformance("bad-syntax"), "", "metadata line"},
	}
	for name, c := range cases {
		_, err := ingest.OpenSource(c.path, c.format, ingest.OpenEnv{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want ...%s...", name, err, c.want)
		}
	}
}

func TestDumpLimitAndHostnames(t *testing.T) {
	src, err := ingest.OpenSource(conformance("nested-traces"), "", ingest.OpenEnv{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var out bytes.Buffer
	if err := ingest.Dump(&out, src, 3); err != nil {
		t.Fatal(err)
	}
	want := "[1600000000.000001000] hostk kernel: { cpu_id = 0 }, { n = 0 }\n" +
		"[1600000000.000001001] hostu ust_uid_1000_64-bit: { cpu_id = 1 }, { n = 0 }\n" +
		"[1600000000.000001002] hostk kernel: { cpu_id = 0 }, { n = 1 }\n"
	if out.String() != want {
		t.Errorf("Dump --limit 3:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestDumpReportsDecodingErrors(t *testing.T) {
	src, err := ingest.OpenSource(conformance("unknown-event-id"), "", ingest.OpenEnv{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	var out bytes.Buffer
	err = ingest.Dump(&out, src, 0)
	if err == nil || !strings.Contains(err.Error(), "unknown event id 77") {
		t.Fatalf("Dump error %v", err)
	}
	if strings.Count(out.String(), "\n") != 1 {
		t.Errorf("the event before the error is not printed: %q", out.String())
	}
}

// TestBinary runs the built tracetui: dump and gen exit statuses and
// messages, end to end.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := coretest.Binary(t)
	run := func(args ...string) (int, string, string) {
		cmd := exec.Command(bin, args...)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, o.String(), e.String()
	}
	out := filepath.Join(t.TempDir(), "gen")
	if code, stdout, stderr := run("gen", "--threads", "20", "--cpus", "2", "--seed", "4", "-o", out); code != 0 || !strings.Contains(stdout, "20 threads") {
		t.Fatalf("gen: exit %d, %q %q", code, stdout, stderr)
	}
	if code, _, stderr := run("gen", "--threads", "20", "-o", out); code != 1 || !strings.HasPrefix(stderr, "tracetui: gen: ") {
		t.Errorf("gen into a non-empty directory: exit %d, %q", code, stderr)
	}
	code, stdout, stderr := run("dump", "--limit", "5", out)
	if code != 0 || strings.Count(stdout, "\n") != 5 || stderr != "" {
		t.Errorf("dump --limit 5: exit %d, %d lines, stderr %q", code, strings.Count(stdout, "\n"), stderr)
	}
	code, _, stderr = run("dump", conformance("discarded"))
	if code != 0 || strings.Count(stderr, "WARNING: Tracer discarded") != 3 {
		t.Errorf("dump of a trace with discarded events: exit %d, stderr %q", code, stderr)
	}
	// Invalid traces: exit 1, one line on stderr, no panic.
	for _, name := range []string{"bad-syntax", "truncated-packet", "sequence-past-end", "unknown-stream-id", "string-unterminated"} {
		code, _, stderr := run("dump", conformance(name))
		if code != 1 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "tracetui: dump: ") || strings.Contains(stderr, "panic") {
			t.Errorf("dump %s: exit %d, stderr %q", name, code, stderr)
		}
	}
}
