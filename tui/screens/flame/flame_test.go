package flame

import (
	"cmp"
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/query/calltree"
	"github.com/tracetui/tracetui/keymap"
	"github.com/tracetui/tracetui/tui/ui"
	"github.com/tracetui/tracetui/tui/ui/headless"
)

// samplesTree builds a tree of samples from "a;b;c" paths and their self
// counts, as calltree.FromSamples would.
func samplesTree(self map[string]int64) *calltree.Node {
	root := &calltree.Node{Samples: true}
	for path, k := range self {
		n := root
		n.Total += core.Time(k)
		for _, f := range strings.Split(path, ";") {
			var c *calltree.Node
			for _, x := range n.Children {
				if x.Name == f {
					c = x
				}
			}
			if c == nil {
				c = &calltree.Node{Name: f, Samples: true}
				n.Children = append(n.Children, c)
			}
			c.Total += core.Time(k)
			c.Calls += k
			n = c
		}
		n.Self += core.Time(k)
	}
	var sortTree func(n *calltree.Node)
	sortTree = func(n *calltree.Node) { // largest first, as calltree does
		slices.SortFunc(n.Children, func(a, b *calltree.Node) int {
			return cmp.Or(cmp.Compare(b.Total, a.Total), cmp.Compare(a.Name, b.Name))
		})
		for _, c := range n.Children {
			sortTree(c)
		}
	}
	sortTree(root)
	return root
}

// request is a side whose tree is given.
func request(what string, root *calltree.Node, path []string) Request {
	return Request{What: what, From: 0, To: 100, Node: -1, Path: path,
		Samples: func(context.Context, core.Time, core.Time, []core.Key) (*calltree.Node, error) { return root, nil }}
}

// run executes a command (a batch too) and gives what it leads to to the
// screen.
func run(v *Screen, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			run(v, c)
		}
	case nil:
	default:
		run(v, v.Update(msg).Cmd)
	}
}

func newShared() *ui.Shared {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	return &ui.Shared{Width: 100, Height: 30, Styles: ui.NewStyles(r, true), Keys: keymap.Default()}
}

// TestPathAndSides: opened at a call path, each side's tree has the
// path's callers expanded and the cursor on it; the Focus key swaps the
// sides, each keeping its cursor; on a side without the path the cursor
// is on its deepest caller there and the title says so.
func TestPathAndSides(t *testing.T) {
	next := samplesTree(map[string]int64{"main;render;draw": 6, "main;parse": 2, "main": 1})
	base := samplesTree(map[string]int64{"main;render;layout": 3, "main;parse": 4})
	path := []string{"main", "render", "draw"}
	b := request("BASE", base, path)
	r := request("NEW", next, path)
	r.Other = &b
	v, cmd := New(context.Background(), newShared(), r)
	run(v, cmd)
	selected := func() string {
		if v.cur >= len(v.lines) {
			return ""
		}
		return v.lines[v.cur].n.Name
	}
	if v.Status != "" || selected() != "draw" || v.lines[v.cur].depth != 2 {
		t.Fatalf("NEW: status %q, selected %q", v.Status, selected())
	}
	view := strings.Join(v.View(ui.Area{Width: 100, Height: 25}), "\n")
	if !strings.Contains(view, "Call tree (tab: the other side) of NEW") {
		t.Fatalf("NEW's view:\n%s", view)
	}
	v.Update(headless.Key("tab"))
	// BASE: main > {parse 4, render 3 > layout 3}; render selected and open.
	if v.what != "BASE (the call path is not on this side: its deepest caller here is selected)" || selected() != "render" || v.cur != 2 {
		t.Fatalf("BASE: %q, selected %q", v.what, selected())
	}
	v.Update(headless.Key("down"))
	if selected() != "layout" {
		t.Fatalf("BASE after down: %q", selected())
	}
	v.Update(headless.Key("tab"))
	if v.what != "NEW" || selected() != "draw" {
		t.Fatalf("back to NEW: %q, selected %q", v.what, selected())
	}
	// Without another side, tab does nothing.
	single, cmd := New(context.Background(), newShared(), request("one", next, nil))
	run(single, cmd)
	single.Update(headless.Key("tab"))
	if single.what != "one" || single.cur != 0 {
		t.Fatalf("tab without another side: %q, cursor %d", single.what, single.cur)
	}
}

// TestGoldenSides: the call tree opened from the comparison at a call
// path, NEW's side (the path's callers open, the cursor on it), then
// BASE's (the path absent: its deepest caller selected and open).
func TestGoldenSides(t *testing.T) {
	next := samplesTree(map[string]int64{"main;render;draw": 6, "main;parse": 2, "main": 1})
	base := samplesTree(map[string]int64{"main;render;layout": 3, "main;parse": 4})
	path := []string{"main", "render", "draw"}
	b := request("BASE b.data at main > render > draw", base, path)
	r := request("NEW n.data at main > render > draw", next, path)
	r.Other = &b
	v, cmd := New(context.Background(), newShared(), r)
	run(v, cmd)
	var out []string
	for range 2 {
		out = append(out, v.View(ui.Area{Width: 100, Height: 14})...)
		v.Update(headless.Key("tab"))
	}
	golden.RequireEqual(t, []byte(strings.Join(out, "\n")))
}

// TestNoZoom: enter on a side that is not the Gantt's trace says so
// instead of zooming.
func TestNoZoom(t *testing.T) {
	root := &calltree.Node{Total: 10, Children: []*calltree.Node{{Name: "f", Calls: 1, Total: 10, Self: 10, Max: 10, LongestStart: 1, LongestEnd: 10}}}
	r := request("NEW", root, nil)
	r.NoZoom = true
	v, cmd := New(context.Background(), newShared(), r)
	run(v, cmd)
	st := v.Update(headless.Key("enter"))
	if st.Done || st.Cmd != nil || !strings.Contains(st.Note, "not the one in Control Flow") {
		t.Fatalf("enter with NoZoom: %+v", st)
	}
	r.NoZoom = false
	v, cmd = New(context.Background(), newShared(), r)
	run(v, cmd)
	st = v.Update(headless.Key("enter"))
	if z, ok := st.Cmd().(ui.ZoomMsg); !st.Done || !ok || z.T0 != 1 || z.T1 != 10 {
		t.Fatalf("enter: %+v", st)
	}
}
