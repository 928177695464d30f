package history

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// randomAttributes adds n attributes under random parents to tr, with
// names drawn from a small set (so that siblings and cousins share names)
// and some unique ones (as thread ids are).
func randomAttributes(r *rand.Rand, tr *core.AttributeTree, n int) {
	common := []string{"Threads", "CPUs", "Exec_name", "PID", "a", "b", "é", ""}
	for tr.Len() < n {
		parent := core.Root
		if tr.Len() > 0 && r.IntN(8) > 0 {
			parent = core.Key(r.IntN(tr.Len()))
		}
		name := common[r.IntN(len(common))]
		if r.IntN(2) == 0 {
			name = fmt.Sprint(r.IntN(4 * n))
		}
		tr.Add(parent, name)
	}
}

// TestStoredAttributesMatchMemory: a stored attribute tree answers every
// method exactly as the in-memory tree it was written from.
func TestStoredAttributesMatchMemory(t *testing.T) {
	r := coretest.Rand(t)
	for round := range 20 {
		n := r.IntN(3000)
		if round == 0 {
			n = 0
		}
		path := filepath.Join(t.TempDir(), "index")
		b, err := Create(path, 0, Options{})
		if err != nil {
			t.Fatal(err)
		}
		randomAttributes(r, b.Attributes(), n)
		want := b.Attributes()
		if err := b.Close(10); err != nil {
			t.Fatal(err)
		}
		got, err := openChecked(t, path, OpenOptions{}).LoadAttributes()
		if err != nil {
			t.Fatal(err)
		}
		compareAttributes(t, r, got, want)
		if err := got.Err(); err != nil {
			t.Fatal(err)
		}
	}
}

func compareAttributes(t *testing.T, r *rand.Rand, got, want *core.AttributeTree) {
	t.Helper()
	if got.Len() != want.Len() {
		t.Fatalf("%d attributes, want %d", got.Len(), want.Len())
	}
	if g, w := got.Children(core.Root), want.Children(core.Root); !slices.Equal(g, w) {
		t.Fatalf("top level %v, want %v", g, w)
	}
	for k := core.Root; k < core.Key(want.Len()); k++ {
		all := want.Children(k)
		if g := got.NumChildren(k); g != len(all) || want.NumChildren(k) != len(all) {
			t.Fatalf("key %d: %d children (in memory %d), want %d", k, g, want.NumChildren(k), len(all))
		}
		lo, hi := r.IntN(len(all)+2)-1, r.IntN(len(all)+2)
		w := all[min(max(lo, 0), len(all)):min(max(hi, lo, 0), len(all))]
		if g, m := got.ChildRange(k, lo, hi), want.ChildRange(k, lo, hi); !slices.Equal(g, w) || !slices.Equal(m, w) {
			t.Fatalf("key %d: ChildRange(%d, %d) = %v (in memory %v), want %v", k, lo, hi, g, m, w)
		}
		if k == core.Root {
			continue
		}
		if g, w := got.Parent(k), want.Parent(k); g != w {
			t.Fatalf("key %d: parent %d, want %d", k, g, w)
		}
		if g, w := got.Path(k), want.Path(k); g != w {
			t.Fatalf("key %d: path %q, want %q", k, g, w)
		}
		if g, w := got.Children(k), want.Children(k); !slices.Equal(g, w) {
			t.Fatalf("key %d: children %v, want %v", k, g, w)
		}
		if g, ok := got.Child(want.Parent(k), want.Name(k)); !ok || g != k {
			t.Fatalf("key %d: Child(%d, %q) = %d, %v", k, want.Parent(k), want.Name(k), g, ok)
		}
		// A name that exists somewhere, asked of a random parent.
		p, name := core.Key(r.IntN(want.Len()+1))-1, want.Name(core.Key(r.IntN(want.Len())))
		gk, gok := got.Child(p, name)
		wk, wok := want.Child(p, name)
		if gk != wk || gok != wok {
			t.Fatalf("Child(%d, %q) = %d, %v; want %d, %v", p, name, gk, gok, wk, wok)
		}
	}
	for _, name := range []string{"", "zzz", "Threads", "-1", "\xff"} {
		gk, gok := got.Child(core.Root, name)
		wk, wok := want.Child(core.Root, name)
		if gk != wk || gok != wok {
			t.Fatalf("Child(Root, %q) = %d, %v; want %d, %v", name, gk, gok, wk, wok)
		}
	}
	for _, pat := range []string{"*", "*/*", "a/*", "[0-4]*/b", "Threads/*/Exec_name"} {
		if g, w := got.Glob(pat), want.Glob(pat); !slices.Equal(g, w) {
			t.Fatalf("Glob(%q) = %v, want %v", pat, g, w)
		}
	}
}

// TestDamagedAttributePage: a damaged page of the stored tree reads as
// absent, never as another tree: the tree's Err, LoadAttributes and Check
// report it.
func TestDamagedAttributePage(t *testing.T) {
	r := coretest.Rand(t)
	path := filepath.Join(t.TempDir(), "index")
	b, err := Create(path, 0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	randomAttributes(r, b.Attributes(), 5000)
	if err := b.Close(10); err != nil {
		t.Fatal(err)
	}
	tr := openChecked(t, path, OpenOptions{})
	h := *tr.hdr
	l := tr.attrStore.l
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pos := h.attrOff + l.bodyStart() + uint64(r.IntN(int(l.bodyLen())))
	data[pos] ^= byte(1 + r.IntN(255))
	bad := filepath.Join(t.TempDir(), "bad")
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	dt, err := Open(bad, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer dt.Close()
	at, err := dt.LoadAttributes()
	if err != nil {
		t.Fatalf("LoadAttributes before reading the damaged page: %v", err)
	}
	for k := range core.Key(at.Len()) {
		at.Children(k)
		at.Child(at.Parent(k), at.Name(k))
	}
	if _, err := dt.LoadAttributes(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("byte %d flipped, every key read: LoadAttributes = %v, want ErrCorrupt", pos, err)
	}
	if err := dt.Check(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("byte %d flipped: Check = %v", pos, err)
	}
}

// BenchmarkWriteAttributes encodes an attribute tree of `gen --threads
// 200000`'s shape (200 000 threads of seven attributes each: 1.6 M
// attributes) into a file, as Close does.
func BenchmarkWriteAttributes(b *testing.B) {
	tr := core.NewAttributeTree()
	threads := tr.Add(core.Root, "Threads")
	for i := range 200_000 {
		th := tr.Add(threads, strconv.Itoa(1000+i))
		for _, sub := range []string{"Exec_name", "PPID", "Prio", "System_call", "Waker", "CPU", "Status"} {
			tr.Add(th, sub)
		}
	}
	f, err := os.Create(filepath.Join(b.TempDir(), "attrs"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.ResetTimer()
	for range b.N {
		if _, _, err := writeAttributes(f, 0, tr); err != nil {
			b.Fatal(err)
		}
	}
}
