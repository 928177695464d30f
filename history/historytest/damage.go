// Package historytest helps tests of the history's users damage an index
// file the way a bad disk would.
package historytest

import (
	"os"
	"testing"

	"github.com/tracetui/tracetui/history"
)

// DamageNodes flips a byte inside every node of the index at path that
// opening does not read (the header and the root are checked on open), so
// the index still opens and the damage shows when a query reads a node.
// It fails the test when no node can be damaged so.
func DamageNodes(t testing.TB, path string) {
	t.Helper()
	tree, err := history.Open(path, history.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	in := tree.Info()
	tree.Close()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	write := func() {
		if err := os.WriteFile(path, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	damaged := 0
	for s := 0; s < in.Nodes; s++ {
		// 40 bytes in: past the node's header, inside its intervals.
		at := (s+1)*in.BlockSize + 40
		raw[at] ^= 0x5a
		write()
		if tree, err := history.Open(path, history.OpenOptions{}); err == nil {
			tree.Close()
			damaged++
		} else {
			raw[at] ^= 0x5a
		}
	}
	write()
	if damaged == 0 {
		t.Fatal("no node can be damaged without breaking the open: the trace is too small")
	}
}
