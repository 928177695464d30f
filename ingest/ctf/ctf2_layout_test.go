package ctf_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/gen"
)

// eventDigest is what a source gives an analysis of one event.
func eventDigest(ev *core.Event) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d %d %d %s", ev.Time, ev.CPU, ev.Stream, ev.Class.Name)
	for i, f := range ev.Fields {
		fmt.Fprintf(&b, " %s=%d/%d/%g/%q", ev.Class.Fields[i], f.Kind, f.Int, f.Float, f.Bytes)
	}
	return b.String()
}

// readAll returns the source information and every event's digest.
func readAll(t *testing.T, dir string) (core.SourceInfo, []string) {
	t.Helper()
	r, err := ctf.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []string
	coretest.ForEachEvent(t, r, func(ev *core.Event) { out = append(out, eventDigest(ev)) })
	return r.Info(), out
}

// TestCTF2KernelTwin: a generated LTTng kernel trace and its CTF 2 twin
// (same data files) give the analyses the same source: information
// (domain, clock) and every event with its fields, kinds and CPU.
func TestCTF2KernelTwin(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kernel")
	if _, err := gen.Write(dir, gen.Config{Threads: 4, CPUs: 2, Seed: 7, PacketSize: 4096}); err != nil {
		t.Fatal(err)
	}
	info18, ev18 := readAll(t, dir)
	twin := convertTrace(t, dir)
	info2, ev2 := readAll(t, twin)
	if info18.Domain != "kernel" {
		t.Fatalf("generated trace domain %q, want kernel", info18.Domain)
	}
	info18.Path, info2.Path = "", ""
	if !reflect.DeepEqual(info18, info2) {
		t.Errorf("source information differs:\nCTF 1.8: %+v\nCTF 2:   %+v", info18, info2)
	}
	if len(ev18) != len(ev2) {
		t.Fatalf("CTF 1.8: %d events, CTF 2: %d", len(ev18), len(ev2))
	}
	for i := range ev18 {
		if ev18[i] != ev2[i] {
			t.Fatalf("event %d differs:\nCTF 1.8: %s\nCTF 2:   %s", i, ev18[i], ev2[i])
		}
	}
	t.Logf("%d events identical", len(ev18))
}

// TestCTF2MixedDirectory: a directory holding a CTF 1.8 trace and a CTF 2
// one (a session upgraded mid-way) reads as one timeline, as the all-CTF
// 1.8 original does.
func TestCTF2MixedDirectory(t *testing.T) {
	src := filepath.Join(coretest.SharedTraces(t), "ctf", "cyg-profile")
	want, _, err := dump(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := coretest.CopyDir(t, src)
	one := filepath.Join(dir, "glxgears-cyg-profile-fast")
	meta, err := ctf.ToCTF2(one)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(one, "metadata"), meta, 0o644); err != nil {
		t.Fatal(err)
	}
	got, _, err := dump(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("mixed directory dump differs from the CTF 1.8 original")
	}
}
