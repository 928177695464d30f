package chrome

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/ingest/internal/lines/sourcetest"
)

const sampleDir = "../../testdata/chrome"

func TestSamplesGolden(t *testing.T) {
	for _, name := range []string{"clang-ftime-trace", "bazel-profile", "ninjatracing", "catapult-phases", "catapult-tracks", "unbalanced", "truncated"} {
		t.Run(name, func(t *testing.T) {
			src, err := Open(filepath.Join(sampleDir, name+".json"), Options{TempDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			sourcetest.Golden(t, filepath.Join(sampleDir, name+".dump"), sourcetest.Dump(t, src))
		})
	}
}

func TestMalformedIsAnErrorNamingTheOffset(t *testing.T) {
	_, err := Open(filepath.Join(sampleDir, "malformed.json"), Options{TempDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "offset 99: invalid JSON") {
		t.Fatalf("Open(malformed.json) = %v, want an error at offset 99", err)
	}
}

func TestGzipGivesTheSameEvents(t *testing.T) {
	plain := filepath.Join(sampleDir, "catapult-phases.json")
	data, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write(data)
	zw.Close()
	gz := filepath.Join(t.TempDir(), "trace") // no telling extension: detection is by content
	if err := os.WriteFile(gz, zb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if ok, err := Detect(gz); !ok || err != nil {
		t.Fatalf("Detect(gzip) = %v, %v", ok, err)
	}
	a, err := Open(plain, Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(gz, Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if x, y := sourcetest.Dump(t, a), sourcetest.Dump(t, b); x != y {
		t.Errorf("gzip dump differs:\n%s\n---\n%s", y, x)
	}
	// A gzip stream cut short keeps the events decoded so far.
	cut := filepath.Join(t.TempDir(), "cut")
	os.WriteFile(cut, zb.Bytes()[:zb.Len()*2/3], 0o644)
	c, err := Open(cut, Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatalf("Open(cut gzip): %v", err)
	}
	defer c.Close()
	out := sourcetest.Dump(t, c)
	if !strings.Contains(out, "warning truncated") || !strings.Contains(out, "myFunction") {
		t.Errorf("cut gzip: want some events and a truncation warning, got:\n%s", out)
	}
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{`[{"name":"a","ph":"B","ts":1}]`, true},
		{"\xef\xbb\xbf  [\n {\"ts\": 1", true},
		{`{"otherData":{},"traceEvents":[`, true},
		{`[]`, true},
		{`{"foo": 1}`, false},
		{`[1, 2, 3]`, false},
		{"%EventDef PajeDefineContainerType 0", false},
		{"# tracer: nop\n", false},
		{"", false},
	} {
		p := filepath.Join(t.TempDir(), "x")
		os.WriteFile(p, []byte(tc.text), 0o644)
		got, err := Detect(p)
		if err != nil || got != tc.want {
			t.Errorf("Detect(%q) = %v, %v; want %v", tc.text, got, err, tc.want)
		}
	}
	if _, err := Detect(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("Detect(missing file): no error")
	}
}

func TestByteOrderMarkAndCRLF(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bom.json")
	os.WriteFile(p, []byte("\xef\xbb\xbf[\r\n{\"name\":\"a\",\"ph\":\"X\",\"ts\":1,\"dur\":2,\"pid\":1,\"tid\":1}\r\n]\r\n"), 0o644)
	src, err := Open(p, Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	if out := sourcetest.Dump(t, src); !strings.Contains(out, "] cpu -1 a: { ph = \"X\", dur = 2") {
		t.Errorf("dump = %s", out)
	}
}

func TestBadCheckpoints(t *testing.T) {
	src, err := Open(filepath.Join(sampleDir, "catapult-phases.json"), Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	src.Next()
	cp := src.Checkpoint(nil)
	for name, bad := range map[string][]byte{
		"empty":     nil,
		"magic":     append([]byte("xx"), cp[2:]...),
		"truncated": cp[:len(cp)-1],
		"flipped":   flip(cp, 4),
	} {
		if err := src.Seek(bad); !errors.Is(err, ErrBadCheckpoint) {
			t.Errorf("Seek(%s) = %v, want ErrBadCheckpoint", name, err)
		}
	}
	other, err := Open(filepath.Join(sampleDir, "bazel-profile.json"), Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := other.Seek(cp); !errors.Is(err, ErrBadCheckpoint) {
		t.Errorf("Seek(checkpoint of another trace) = %v, want ErrBadCheckpoint", err)
	}
}

func flip(b []byte, i int) []byte {
	c := append([]byte(nil), b...)
	c[i] ^= 0x40
	return c
}

func TestTempFileIsNotLeftBehind(t *testing.T) {
	dir := t.TempDir()
	src, err := Open(filepath.Join(sampleDir, "ninjatracing.json"), Options{TempDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	sourcetest.Dump(t, src)
	if err := src.Close(); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("temp dir holds %d files after Close", len(ents))
	}
}
