package gantt

import (
	"slices"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index/pstree"
	"github.com/tracetui/tracetui/tui/frame"
)

// TestRowThreads: F on a process row sums its leader thread (the row
// itself) and every thread below it, child processes' included; on a
// thread's samples row, that thread alone.
func TestRowThreads(t *testing.T) {
	rows := []pstree.Row{
		{Label: "python3 10", TIDLen: 2, Key: 1, Thread: 1, Parent: -1, Kind: pstree.KindProcess, Expanded: true},
		{Label: "samples", Key: 5, Thread: 1, Parent: 0, Kind: pstree.KindSamples},
		{Label: "worker 11", TIDLen: 2, Key: 2, Thread: 2, Parent: 0, Kind: pstree.KindThread},
		{Label: "child 12", TIDLen: 2, Key: 3, Thread: 3, Parent: 0, Kind: pstree.KindProcess},
		{Label: "t 13", TIDLen: 2, Key: 4, Thread: 4, Parent: 3, Kind: pstree.KindThread},
		{Label: "no leader", Key: -1, Thread: -1, Parent: -1, Kind: pstree.KindProcess},
		{Label: "t 20", TIDLen: 2, Key: 6, Thread: 6, Parent: 5, Kind: pstree.KindThread},
	}
	tree := frame.NewRowTree(frame.InMemoryRows(pstree.EncodeRows(rows, 0)), core.NewAttributeTree())
	find := func(label string) int32 {
		for i := range int32(tree.Len()) {
			if tree.Node(i).Label == label {
				return i
			}
		}
		t.Fatalf("no row %q", label)
		return -1
	}
	for _, c := range []struct {
		row  string
		want []core.Key
	}{
		{"python3 10", []core.Key{1, 2, 3, 4}},
		{"samples", []core.Key{1}},
		{"worker 11", []core.Key{2}},
		{"child 12", []core.Key{3, 4}},
		{"no leader", []core.Key{6}},
	} {
		got := rowThreads(tree, find(c.row))
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("F on %q sums threads %v, want %v", c.row, got, c.want)
		}
	}
}
