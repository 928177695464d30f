package core_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// TestAttributeTreeMatchesReference adds random attributes (by name, or
// by the name's id from Intern), with Grow, interning alone and child
// listings interleaved, and checks every lookup and listing against
// a brute-force reference: a map of (parent, name) and a list of parents.
func TestAttributeTreeMatchesReference(t *testing.T) {
	r := coretest.Rand(t)
	type ref struct {
		parent core.Key
		name   string
	}
	tr := core.NewAttributeTree()
	keyOf := map[ref]core.Key{}
	var parents []core.Key
	for step := range 4000 {
		switch r.IntN(50) {
		case 0:
			tr.Grow(r.IntN(300), r.IntN(10))
		case 2: // a name interned before any key has it
			tr.Intern(fmt.Sprint("n", r.IntN(40)))
		case 1: // a listing between additions (its index is then rebuilt)
			p := core.Key(r.IntN(len(parents)+1)) - 1
			var want []core.Key
			for k, q := range parents {
				if q == p {
					want = append(want, core.Key(k))
				}
			}
			if got := tr.Children(p); !slices.Equal(got, want) {
				t.Fatalf("step %d: Children(%d) = %v, want %v", step, p, got, want)
			}
			if n := tr.NumChildren(p); n != len(want) {
				t.Fatalf("step %d: NumChildren(%d) = %d, want %d", step, p, n, len(want))
			}
		}
		p := core.Root
		if len(parents) > 0 && r.IntN(6) > 0 {
			p = core.Key(r.IntN(len(parents)))
		}
		name := fmt.Sprint(r.IntN(40))
		if r.IntN(4) == 0 { // decimal-looking names that are not one canonical number
			name = []string{"007", "0", "00", "", "-1", "+1", "4294967295", "4294967296", "99999999999", "1e3", "12a", "Exec_name"}[r.IntN(12)]
		}
		if r.IntN(8) == 0 { // numbers on either side of the ones kept in pages, and across pages
			name = fmt.Sprint([]int{r.IntN(1 << 23), 1<<22 - 1 - r.IntN(3), 1<<22 + r.IntN(3), 255 + r.IntN(3)}[r.IntN(4)])
		}
		var k core.Key
		if r.IntN(2) == 0 {
			k = tr.Add(p, name)
		} else { // the same through the name's id
			id := tr.Intern(name)
			if tr.NameOfID(id) != name {
				t.Fatalf("step %d: Intern(%q) = %d, which names %q", step, name, id, tr.NameOfID(id))
			}
			k = tr.AddID(p, id)
		}
		if want, ok := keyOf[ref{p, name}]; ok {
			if k != want {
				t.Fatalf("step %d: Add(%d, %q) = %d, had %d", step, p, name, k, want)
			}
			continue
		}
		if int(k) != len(parents) {
			t.Fatalf("step %d: new key %d, want %d", step, k, len(parents))
		}
		keyOf[ref{p, name}] = k
		parents = append(parents, p)
	}
	for rf, k := range keyOf {
		if got, ok := tr.Child(rf.parent, rf.name); !ok || got != k || tr.Parent(k) != rf.parent || tr.Name(k) != rf.name {
			t.Fatalf("Child(%d, %q) = %d, %v; want %d", rf.parent, rf.name, got, ok, k)
		}
		if _, ok := tr.Child(rf.parent, rf.name+"x"); ok {
			t.Fatalf("Child(%d, %q) found a key that was never added", rf.parent, rf.name+"x")
		}
	}
}

// TestAttributeTreeAcrossPages adds attributes past two full pages of the
// tree's storage (and several growths of its key table) and checks every
// key's parent, name and look-up against the reference.
func TestAttributeTreeAcrossPages(t *testing.T) {
	r := coretest.Rand(t)
	tr := core.NewAttributeTree()
	const n = 2<<16 + 1000
	parents := make([]core.Key, 0, n)
	names := make([]string, 0, n)
	for len(parents) < n {
		p := core.Root
		if len(parents) > 0 && r.IntN(8) > 0 {
			p = core.Key(r.IntN(len(parents)))
		}
		name := fmt.Sprint(r.IntN(5000)) // names shared by many keys
		if k, ok := tr.Child(p, name); ok {
			if parents[k] != p || names[k] != name {
				t.Fatalf("Child(%d, %q) = %d, which is (%d, %q)", p, name, k, parents[k], names[k])
			}
			continue
		}
		if k := tr.Add(p, name); int(k) != len(parents) {
			t.Fatalf("Add(%d, %q) = %d, want the new key %d", p, name, k, len(parents))
		}
		parents, names = append(parents, p), append(names, name)
	}
	if tr.Len() != n {
		t.Fatalf("Len() = %d, want %d", tr.Len(), n)
	}
	for k := range core.Key(n) {
		if tr.Parent(k) != parents[k] || tr.Name(k) != names[k] {
			t.Fatalf("key %d: (%d, %q), want (%d, %q)", k, tr.Parent(k), tr.Name(k), parents[k], names[k])
		}
		if got, ok := tr.Child(parents[k], names[k]); !ok || got != k {
			t.Fatalf("Child(%d, %q) = %d, %v; want %d", parents[k], names[k], got, ok, k)
		}
	}
	if _, ok := tr.Child(core.Key(n-1), "absent"); ok {
		t.Fatal("Child found an absent name")
	}
}
