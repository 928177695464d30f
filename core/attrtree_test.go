package core

import (
	"slices"
	"strings"
	"testing"
)

func TestAttributeTreePrefixesAndLookup(t *testing.T) {
	tr := NewAttributeTree()
	exec := tr.AddPath("Threads", "42", "Exec_name")
	if tr.Len() != 3 {
		t.Fatalf("Len = %d, want 3 (every prefix keyed)", tr.Len())
	}
	if got := tr.Path(exec); got != "Threads/42/Exec_name" {
		t.Errorf("Path = %q", got)
	}
	if k, ok := tr.Lookup("Threads/42"); !ok || tr.Parent(exec) != k || tr.Name(k) != "42" {
		t.Errorf("Lookup(Threads/42) = %d, %v", k, ok)
	}
	if again := tr.AddPath("Threads", "42", "Exec_name"); again != exec || tr.Len() != 3 {
		t.Errorf("re-adding created a key: %d vs %d, len %d", again, exec, tr.Len())
	}
	if _, ok := tr.Lookup("Threads/43"); ok {
		t.Error("Lookup found a missing path")
	}
	for k := Key(0); int(k) < tr.Len(); k++ {
		if p := tr.Parent(k); p != Root && p >= k {
			t.Errorf("parent %d of %d is not older", p, k)
		}
	}
}

func TestAttributeTreeGlobAndChildren(t *testing.T) {
	tr := NewAttributeTree()
	var want []Key
	for _, tid := range []string{"1", "20", "3"} {
		tr.AddPath("Threads", tid, "PPID")
		want = append(want, tr.AddPath("Threads", tid, "Exec_name"))
	}
	tr.AddPath("CPUs", "0")
	tr.AddPath("Threads", "99") // no Exec_name
	if got := tr.Glob("Threads/*/Exec_name"); !slices.Equal(got, want) {
		t.Errorf("Glob = %v, want %v", got, want)
	}
	if got := tr.Glob("Threads/[12]*/PPID"); len(got) != 2 {
		t.Errorf("Glob with class = %v, want 2 keys", got)
	}
	if got := tr.Glob("Nope/*"); got != nil {
		t.Errorf("Glob(Nope/*) = %v", got)
	}
	if got := tr.Glob("Threads/[/x"); got != nil {
		t.Errorf("malformed glob matched %v", got)
	}
	threads, _ := tr.Lookup("Threads")
	var names []string
	for _, c := range tr.Children(threads) {
		names = append(names, tr.Name(c))
	}
	if !slices.Equal(names, []string{"1", "20", "3", "99"}) {
		t.Errorf("Children = %v", names)
	}
	if top := tr.Children(Root); len(top) != 2 {
		t.Errorf("top-level = %v", top)
	}
}

// TestAttributeTreeGrow: a tree grown first behaves as one that was not,
// keeps what it held, and adding the keys it was grown for allocates
// nothing more.
func TestAttributeTreeGrow(t *testing.T) {
	names := make([]string, 1000)
	for i := range names {
		names[i] = "t" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
	}
	build := func(grow bool) *AttributeTree {
		tr := NewAttributeTree()
		threads := tr.AddPath("Threads")
		if grow {
			tr.Grow(2*len(names), len(names)+1)
		}
		for _, n := range names {
			k := tr.Add(threads, n)
			tr.Add(k, "Exec_name")
		}
		return tr
	}
	plain, grown := build(false), build(true)
	if plain.Len() != grown.Len() {
		t.Fatalf("Len %d vs %d", plain.Len(), grown.Len())
	}
	for k := Key(0); int(k) < plain.Len(); k++ {
		if plain.Path(k) != grown.Path(k) || plain.Parent(k) != grown.Parent(k) || !slices.Equal(plain.Children(k), grown.Children(k)) {
			t.Fatalf("key %d: %q vs %q", k, plain.Path(k), grown.Path(k))
		}
		if got, ok := grown.Lookup(plain.Path(k)); !ok || got != k {
			t.Fatalf("Lookup(%q) = %d, %v", plain.Path(k), got, ok)
		}
	}
	allocs := testing.AllocsPerRun(5, func() {
		tr := NewAttributeTree()
		tr.Grow(len(names), len(names))
		for _, n := range names {
			tr.Add(Root, n)
		}
	})
	if allocs > 40 {
		t.Errorf("adding %d keys after Grow: %.0f allocations", len(names), allocs)
	}
	tr := NewAttributeTree()
	tr.Grow(0, 0) // nothing to do
	tr.Grow(-1, 5)
	if tr.Len() != 0 || tr.Add(Root, "a") != 0 {
		t.Error("Grow of nothing broke the tree")
	}
}

// TestCheckGlob: a malformed glob is an error naming it (issue 18:
// `Threads/[abc` said "no attribute matches").
func TestCheckGlob(t *testing.T) {
	for _, g := range []string{"Threads/*/Exec_name", "CPUs/[0-3]/Current_thread", "a", ""} {
		if err := CheckGlob(g); err != nil {
			t.Errorf("CheckGlob(%q) = %v", g, err)
		}
	}
	for _, g := range []string{"Threads/[abc", `Threads/a\`, "[/x"} {
		if err := CheckGlob(g); err == nil || !strings.Contains(err.Error(), "malformed") {
			t.Errorf("CheckGlob(%q) = %v, want a malformed-pattern error", g, err)
		}
	}
}

// TestDecimalName: only the canonical spelling of a number below 2^32 is
// decimal, so that decimal names and their values map one to one.
func TestDecimalName(t *testing.T) {
	for _, tc := range []struct {
		s  string
		v  uint32
		ok bool
	}{
		{"0", 0, true}, {"7", 7, true}, {"42", 42, true}, {"4294967295", 1<<32 - 1, true},
		{"", 0, false}, {"00", 0, false}, {"042", 0, false}, {"+1", 0, false}, {"-1", 0, false},
		{"4294967296", 0, false}, {"10000000000", 0, false}, {"1a", 0, false}, {"0_1", 0, false}, {"١", 0, false},
	} {
		if v, ok := decimalName(tc.s); v != tc.v || ok != tc.ok {
			t.Errorf("decimalName(%q) = %d, %v; want %d, %v", tc.s, v, ok, tc.v, tc.ok)
		}
	}
}

// TestAttributeTreeAddIDUnknownID: an id that Intern did not return is a
// programming error, reported as such rather than as a broken tree.
func TestAttributeTreeAddIDUnknownID(t *testing.T) {
	tr := NewAttributeTree()
	id := tr.Intern("Exec_name")
	if k := tr.AddID(Root, id); tr.Name(k) != "Exec_name" {
		t.Fatalf("AddID(Root, %d) named %q", id, tr.Name(k))
	}
	defer func() {
		if recover() == nil {
			t.Fatal("AddID with an id past the interned names did not panic")
		}
	}()
	tr.AddID(Root, id+1)
}
