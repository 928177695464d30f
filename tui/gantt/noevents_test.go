package gantt

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// A CTF trace of its metadata alone (kernel_vm, issue 30 item 10) opened
// as "0 events" and nothing else: the strip and the status line say why.
func TestMetadataOnlyTraceSaysWhy(t *testing.T) {
	meta, err := os.ReadFile(filepath.Join(coretest.SharedTraces(t), "ctf", "bug446190", "metadata"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "kernel_vm")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "metadata"), meta, 0o644); err != nil {
		t.Fatal(err)
	}
	it, err := trace.Open(context.Background(), dir, index.Options{IndexPath: filepath.Join(t.TempDir(), "index")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { it.Close() })
	hs := newHarness(t, frametest.IngestTrace{Trace: it}, 80, 24, true)
	v := hs.view()
	for _, want := range []string{"no events: metadata only, no stream files beside it", "! no events"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q at 80x24:\n%s", want, v)
		}
	}
}
