package history

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// closedAttrIndex writes an index of n random attributes and opens it
// with its attribute tree loaded.
func closedAttrIndex(t *testing.T, n int) (*Tree, *core.AttributeTree, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "index")
	b, err := Create(path, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	randomAttributes(coretest.Rand(t), b.Attributes(), n)
	if err := b.Close(10); err != nil {
		t.Fatal(err)
	}
	tr, err := Open(path, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	at, err := tr.LoadAttributes()
	if err != nil {
		t.Fatal(err)
	}
	return tr, at, path
}

// mapped reports whether the process maps path (Linux: /proc/self/maps).
func mapped(t *testing.T, path string) bool {
	t.Helper()
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skipf("no /proc/self/maps to see the mappings: %v", err)
	}
	return strings.Contains(string(maps), path)
}

// TestCloseUnmapsTheAttributeTree: Close releases the mapping (not the
// garbage collector), and every read after it answers as absent with
// ErrTreeClosed from Err, never a fault.
func TestCloseUnmapsTheAttributeTree(t *testing.T) {
	tr, at, path := closedAttrIndex(t, 5000)
	if at.Name(core.Key(at.Len()-1)) == "" && at.NumChildren(core.Root) == 0 {
		t.Fatal("the open tree reads nothing")
	}
	if !mapped(t, path) {
		t.Fatal("the attribute tree is not mapped while open")
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	if mapped(t, path) {
		t.Error("the attribute tree is still mapped after Close")
	}
	for k := range core.Key(at.Len()) {
		if at.Name(k) != "" || at.Parent(k) != core.Root || at.NumChildren(k) != 0 || at.ChildRange(k, 0, 10) != nil {
			t.Fatalf("key %d reads after Close", k)
		}
	}
	if _, ok := at.Child(core.Root, "Threads"); ok {
		t.Error("Child answers after Close")
	}
	if err := at.Err(); !errors.Is(err, ErrTreeClosed) {
		t.Errorf("Err after Close = %v, want ErrTreeClosed", err)
	}
	if _, err := tr.LoadAttributes(); !errors.Is(err, ErrTreeClosed) {
		t.Errorf("LoadAttributes after Close = %v, want ErrTreeClosed", err)
	}
}

// TestCloseWhileReading closes a tree while goroutines read its attribute
// tree: the readers inside finish on mapped memory (no fault), later reads
// see it closed (run under -race in CI).
func TestCloseWhileReading(t *testing.T) {
	tr, at, _ := closedAttrIndex(t, 3000)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for i := 0; at.Err() == nil; i++ {
				k := core.Key((i*7 + g) % at.Len())
				at.Name(k)
				at.Child(at.Parent(k), "PID")
				at.EachChild(k, func(c core.Key) { at.Name(c) })
			}
		}()
	}
	close(start)
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if err := at.Err(); !errors.Is(err, ErrTreeClosed) {
		t.Errorf("Err after Close = %v, want ErrTreeClosed", err)
	}
}

// TestCloseBeforeTheAttributeTree: a tree closed before its attribute
// tree was loaded never maps it.
func TestCloseBeforeTheAttributeTree(t *testing.T) {
	first, _, path := closedAttrIndex(t, 10)
	first.Close()
	tr, err := Open(path, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tr.Close()
	if _, err := tr.LoadAttributes(); !errors.Is(err, ErrTreeClosed) {
		t.Errorf("LoadAttributes after Close = %v, want ErrTreeClosed", err)
	}
}
