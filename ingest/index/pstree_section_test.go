package index

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/ingest/index/pstree"
)

// TestProcessTableDamaged: a damaged process tree section, found at open
// (no rows: the browser queries the history instead) or when the damaged
// rows are read (read as empty), marks the cached index bad, as a damaged
// node does, so that the next open rebuilds it.
func TestProcessTableDamaged(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx := context.Background()
	trace := filepath.Join("..", "..", "testdata", "ftrace", "rec-tiny.txt")
	ix, err := Open(ctx, trace, Options{})
	must(t, err)
	if ix.ControlFlowRows() == nil {
		t.Fatal("no process tree stored with a new index")
	}
	sec, err := ix.Tree().Section(pstree.SectionName)
	must(t, err)
	_, secOff, _ := sec.Outer()
	ix.Close()

	dir, err := CacheDir()
	must(t, err)
	paths, err := filepath.Glob(filepath.Join(dir, "*.tti"))
	must(t, err)
	if len(paths) != 1 {
		t.Fatalf("cache holds %q, want one index", paths)
	}
	f, err := os.OpenFile(paths[0], os.O_RDWR, 0)
	must(t, err)
	b := make([]byte, 1)
	off := secOff + sec.Size()/2
	_, err = f.ReadAt(b, off)
	must(t, err)
	b[0] ^= 0xff
	_, err = f.WriteAt(b, off)
	must(t, err)
	must(t, f.Close())

	ix, err = Open(ctx, trace, Options{})
	must(t, err)
	defer ix.Close()
	if ix.Built() {
		t.Fatal("the damaged index was rebuilt before its section was read")
	}
	if rows := ix.ControlFlowRows(); rows != nil {
		for i := range int32(rows.Len()) {
			rows.Label(rows.Row(i))
		}
		if rows.Err() == nil {
			t.Fatal("reading every row of a damaged process tree section met no damage")
		}
	}
	if _, err := os.Stat(paths[0]); !os.IsNotExist(err) {
		t.Fatalf("the damaged cached index is still there (%v): the next open would not rebuild it", err)
	}
}
