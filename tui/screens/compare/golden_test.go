package compare

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/calltree"
	"github.com/tracetui/tracetui/ingest/query/diff"
	"github.com/tracetui/tracetui/tui/ui"
)

// tree builds a call tree from "a;b;c" paths and their self times.
func tree(self map[string]core.Time) *calltree.Node {
	root := &calltree.Node{}
	for path, t := range self {
		n := root
		n.Total += t
		for _, f := range strings.Split(path, ";") {
			var c *calltree.Node
			for _, x := range n.Children {
				if x.Name == f {
					c = x
				}
			}
			if c == nil {
				c = &calltree.Node{Name: f}
				n.Children = append(n.Children, c)
			}
			c.Total += t
			n = c
		}
		n.Self += t
	}
	var sortTree func(n *calltree.Node)
	sortTree = func(n *calltree.Node) { // largest first, as calltree does; ties by name
		for i := 1; i < len(n.Children); i++ {
			for j := i; j > 0 && (n.Children[j].Total > n.Children[j-1].Total ||
				n.Children[j].Total == n.Children[j-1].Total && n.Children[j].Name < n.Children[j-1].Name); j-- {
				n.Children[j], n.Children[j-1] = n.Children[j-1], n.Children[j]
			}
		}
		for _, c := range n.Children {
			sortTree(c)
		}
	}
	sortTree(root)
	return root
}

// TestGoldenFlame: the call tree tab with its differential flame graph
// (grown, shrunk and unchanged functions; one only in NEW) above the
// path table, in colour and in ASCII.
func TestGoldenFlame(t *testing.T) {
	base := tree(map[string]core.Time{"main;parse": 400, "main;render;draw": 300, "main;render;layout": 200, "main": 100})
	next := tree(map[string]core.Time{"main;parse": 200, "main;render;draw": 600, "main;render;layout": 205, "main;cache": 150, "main": 100})
	rows := []diff.PathRow{}
	for _, p := range []struct {
		path string
		b, n int64
	}{{"main;parse", 400, 200}, {"main;render;draw", 300, 600}, {"main;render;layout", 200, 205}, {"main;cache", 0, 150}, {"main", 100, 100}} {
		rows = append(rows, diff.PathRow{Path: p.path, BaseSelf: p.b, NewSelf: p.n, DeltaSelf: p.n - p.b})
	}
	for _, ascii := range []bool{false, true} {
		name := "colour"
		if ascii {
			name = "ascii"
		}
		t.Run(name, func(t *testing.T) {
			s := fixed(t)
			s.sh = shared(100, 30, ascii)
			s.Focus = CallTree
			_, seq := s.treeJb.Start(context.Background())
			s.got(Msg{seq: seq, tree: true, trees: &diff.Trees{Base: base, New: next, Rows: rows}})
			golden.RequireEqual(t, []byte(strings.Join(s.View(ui.Area{Width: 100, Height: 25}), "\n")))
		})
	}
}

// TestGoldenSamples: the call tree tab of two perf.data profiles: counts,
// not times, in the table and the flame graph's legend (ASCII).
func TestGoldenSamples(t *testing.T) {
	counts := func(m map[string]core.Time) *calltree.Node {
		root := tree(m)
		var mark func(n *calltree.Node)
		mark = func(n *calltree.Node) {
			n.Samples = true
			for _, c := range n.Children {
				mark(c)
			}
		}
		mark(root)
		return root
	}
	base := counts(map[string]core.Time{"main;sha256_block": 40, "main;read;entry_SYSCALL_64": 12, "main": 3})
	next := counts(map[string]core.Time{"main;sha256_block": 81, "main;read;entry_SYSCALL_64": 11, "main;write": 4, "main": 3})
	rows := []diff.PathRow{{Path: "main;sha256_block", BaseSelf: 40, NewSelf: 81, DeltaSelf: 41}, {Path: "main;write", NewSelf: 4, DeltaSelf: 4},
		{Path: "main;read;entry_SYSCALL_64", BaseSelf: 12, NewSelf: 11, DeltaSelf: -1}, {Path: "main", BaseSelf: 3, NewSelf: 3}}
	s := fixed(t)
	s.sh = shared(100, 30, true)
	s.Focus = CallTree
	_, seq := s.treeJb.Start(context.Background())
	s.got(Msg{seq: seq, tree: true, trees: &diff.Trees{Base: base, New: next, Rows: rows, Unit: diff.UnitSamples}})
	golden.RequireEqual(t, []byte(strings.Join(s.View(ui.Area{Width: 100, Height: 20}), "\n")))
}

// TestFlameChange: a function's glyph is its total's change from BASE,
// by call path (the same name under another caller is another function).
func TestFlameChange(t *testing.T) {
	base := tree(map[string]core.Time{"a;x": 100, "b;x": 100})
	next := tree(map[string]core.Time{"a;x": 104, "b;x": 300, "c": 10})
	f := diffFlame(base, next)
	got := map[string]byte{}
	var walk func(n *flameNode, path string)
	walk = func(n *flameNode, path string) {
		for _, c := range n.children {
			got[path+c.name] = c.change()
			walk(c, path+c.name+";")
		}
	}
	walk(f, "")
	want := map[string]byte{"a": '=', "a;x": '=', "b": '+', "b;x": '+', "c": '+'}
	for k, g := range want {
		if got[k] != g {
			t.Errorf("%s: %c, want %c", k, got[k], g)
		}
	}
	f = diffFlame(next, base) // the other way round: b shrunk, a the same
	for _, c := range f.children {
		if w := map[string]byte{"a": '=', "b": '-'}[c.name]; c.change() != w {
			t.Errorf("reversed: %s %c, want %c", c.name, c.change(), w)
		}
	}
}
