package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/history/historytest"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/trace"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// TestBrowserOnDamagedIndex: the browser's first query meets a damaged
// node (the index opened fine): it says the index is damaged and that
// opening the trace again rebuilds it, and the next open does (issue 18:
// the browser failed on every run).
func TestBrowserOnDamagedIndex(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx := context.Background()
	path := filepath.Join("..", "testdata", "chrome", "clang-ftime-trace.json")
	it, err := trace.Open(ctx, path, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	indexPath := it.Info().Index
	it.Close()
	historytest.DamageNodes(t, indexPath)
	it, err = trace.Open(ctx, path, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { it.Close() })
	// The process tree is stored with the index, so the first frame's
	// query meets the damage and says so on the status line: wide enough
	// for the temporary directory's long path.
	hs := newHarness(t, frametest.IngestTrace{Trace: it}, 320, 30, true)
	if v := hs.view(); !strings.Contains(v, "the index is damaged") || !strings.Contains(v, "open the trace again") {
		t.Errorf("browser on a damaged index:\n%s", v)
	}
	if _, err := os.Stat(indexPath); err == nil {
		t.Error("the damaged index is still in the cache")
	}
	again, err := trace.Open(ctx, path, index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if !again.Built() {
		t.Error("the next open did not rebuild the index")
	}
}
