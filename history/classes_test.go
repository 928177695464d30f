package history

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core"
)

func TestClassesOfPaths(t *testing.T) {
	tr := core.NewAttributeTree()
	paths := [][]string{
		{"Threads"}, {"Threads", "1234"}, {"Threads", "1234", "Exec_name"}, {"Threads", "7", "Exec_name"},
		{"Threads", "0_3"}, {"CPUs", "2", "IRQs", "18"}, {"CPUs", "0", "IRQs", "1"}, {"Threads", "7", "PPID"},
		{"Misc", "Exec_name"}, {"Threads", "swapper", "Exec_name"},
	}
	for _, p := range paths {
		tr.AddPath(p...)
	}
	c := newClasser(false)
	c.extend(tr)
	class := func(p ...string) uint16 {
		k, ok := tr.Lookup(filepath.Join(p...))
		if !ok {
			t.Fatalf("no key %v", p)
		}
		return c.class(k)
	}
	same := [][2][]string{
		{{"Threads", "1234"}, {"Threads", "0_3"}},
		{{"Threads", "1234", "Exec_name"}, {"Threads", "7", "Exec_name"}},
		{{"CPUs", "2", "IRQs", "18"}, {"CPUs", "0", "IRQs", "1"}},
	}
	for _, s := range same {
		if class(s[0]...) != class(s[1]...) {
			t.Errorf("%v and %v: classes %d and %d, want the same", s[0], s[1], class(s[0]...), class(s[1]...))
		}
	}
	differ := [][2][]string{
		{{"Threads", "7", "Exec_name"}, {"Threads", "7", "PPID"}},
		{{"Threads", "7", "Exec_name"}, {"Misc", "Exec_name"}},
		{{"Threads", "7", "Exec_name"}, {"Threads", "swapper", "Exec_name"}},
		{{"Threads"}, {"Threads", "7"}},
	}
	for _, d := range differ {
		if class(d[0]...) == class(d[1]...) {
			t.Errorf("%v and %v: both class %d", d[0], d[1], class(d[0]...))
		}
	}
	// Dense, in order of first appearance, and what decodeClasses accepts.
	next := uint16(0)
	for k := range core.Key(c.len()) {
		if id := c.class(k); id > next {
			t.Fatalf("key %d: class %d before %d", k, id, next)
		}
		if c.class(k) == next {
			next++
		}
	}
	if int(next) != c.count() {
		t.Fatalf("count %d, %d ids used", c.count(), next)
	}
	if _, err := decodeClasses(c.encode(), uint32(c.len()), uint32(c.count())); err != nil {
		t.Fatal(err)
	}
}

// TestClassOverflow: past 65535 shapes, the rest share the last id.
func TestClassOverflow(t *testing.T) {
	tr := core.NewAttributeTree()
	const n = maxClasses + 100
	for i := range n {
		tr.Add(core.Root, string([]byte{'a' + byte(i%26), 'a' + byte(i/26%26), 'a' + byte(i/676%26), 'a' + byte(i/17576)}))
	}
	c := newClasser(false)
	c.extend(tr)
	if c.count() != maxClasses || c.class(maxClasses-2) != maxClasses-2 || c.class(maxClasses-1) != maxClasses-1 || c.class(n-1) != maxClasses-1 {
		t.Fatalf("count %d, classes %d %d %d", c.count(), c.class(maxClasses-2), c.class(maxClasses-1), c.class(n-1))
	}
	if _, err := decodeClasses(c.encode(), n, maxClasses); err != nil {
		t.Fatal(err)
	}
}

func TestDecodeClassesRefuses(t *testing.T) {
	for _, c := range []struct {
		name  string
		of    []uint16
		bytes int // -1: as encoded
		count uint32
	}{
		{"skipped id", []uint16{0, 2, 1}, -1, 3},
		{"first not 0", []uint16{1, 0}, -1, 2},
		{"count too high", []uint16{0, 1, 1}, -1, 3},
		{"count too low", []uint16{0, 1, 2}, -1, 2},
		{"short", []uint16{0, 1, 2}, 5, 3},
	} {
		b := appendClasses(nil, c.of)
		if c.bytes >= 0 {
			b = b[:c.bytes]
		}
		if _, err := decodeClasses(b, uint32(len(c.of)), c.count); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", c.name, err)
		}
	}
}

// TestDamagedClassTable: a damaged class table is an error of the queries
// that need it and of Check, never a wrong answer; Full, which reads
// every class, does not need it.
func TestDamagedClassTable(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	mem := buildTiny(t, good, Options{BlockSize: 2048, MaxChildren: 4})
	tr := openChecked(t, good, OpenOptions{})
	h := *tr.hdr
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	b := slices.Clone(data)
	b[h.classOff+1] ^= 0x10
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(bad, b, 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err = Open(bad, OpenOptions{})
	if err != nil {
		t.Fatalf("Open: %v (the class table is read on first use)", err)
	}
	defer tr.Close()
	keys := allKeys(mem)
	if _, err := tr.Query2D(bg, keys, core.MinTime, core.MaxTime, func(core.Interval) bool { return true }); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Query2D: %v, want ErrCorrupt", err)
	}
	if _, _, err := tr.Single(bg, keys[0], h.start); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Single: %v, want ErrCorrupt", err)
	}
	if err := tr.Check(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Check: %v, want ErrCorrupt", err)
	}
	if _, err := tr.Full(bg, h.start, func(core.Interval) bool { return true }); err != nil {
		t.Errorf("Full: %v", err)
	}
}
