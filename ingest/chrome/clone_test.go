package chrome

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/tracetui/tracetui/core"
)

// TestCloneReadsTheSameEvents: a clone replays the sorted trace without a
// new first pass, seeks to the original's checkpoints, and outlives the
// original.
func TestCloneReadsTheSameEvents(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "chrome", "clang-ftime-trace.json")
	orig, err := Open(path, Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	type seen struct {
		t    core.Time
		name string
		cp   []byte
	}
	var want []seen
	for {
		cp := orig.Checkpoint(nil)
		ev, err := orig.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, seen{ev.Time, ev.Class.Name, cp})
	}
	if len(want) == 0 {
		t.Fatal("sample has no events")
	}
	clone, err := orig.Clone()
	if err != nil {
		t.Fatal(err)
	}
	defer clone.Close()
	if err := orig.Close(); err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		ev, err := clone.Next()
		if err != nil || ev.Time != w.t || ev.Class.Name != w.name {
			t.Fatalf("clone event %d = %v, %v; want %d %s", i, ev, err, w.t, w.name)
		}
	}
	if _, err := clone.Next(); err != io.EOF {
		t.Errorf("clone after the last event: %v", err)
	}
	mid := want[len(want)/2]
	if err := clone.Seek(mid.cp); err != nil {
		t.Fatal(err)
	}
	if ev, err := clone.Next(); err != nil || ev.Time != mid.t || ev.Class.Name != mid.name {
		t.Errorf("clone after Seek: %v, %v; want %d %s", ev, err, mid.t, mid.name)
	}
}
