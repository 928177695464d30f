package gantt

import (
	"context"
	"regexp"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// A Chrome-like history: string states, thread ids that are not numbers,
// a process known only by Processes/<pid>/Exec_name, call stacks.
func chromeLikeHistory(t *testing.T) *core.MemHistory {
	m := core.NewMemHistory(0)
	at := m.Attributes()
	set := frametest.Modifier(t, m)
	set(at.AddPath("Processes", "7", core.AttrExecName), 0, core.String("chrome"))
	for i, tid := range []string{"7.main", "7.io"} {
		k := at.AddPath(core.AttrThreads, tid)
		set(at.AddPath(core.AttrThreads, tid, core.AttrPID), 0, core.Int32(7))
		set(at.AddPath(core.AttrThreads, tid, core.AttrExecName), 0, core.String([]string{"CrBrowserMain", "Chrome_IOThread"}[i]))
		set(at.AddPath(core.AttrThreads, tid, core.AttrCallStack, "1"), 0, core.String("RunTask"))
		set(at.AddPath(core.AttrThreads, tid, core.AttrCallStack, "2"), 0, core.String("Layout"))
		set(k, 0, core.String("RunTask"))
	}
	set(at.AddPath(core.AttrThreads, "orphan"), 5, core.String("Idle"))
	if err := m.Close(100); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestControlFlowOfNonKernelTrace(t *testing.T) {
	tree, err := frame.BuildControlFlow(context.Background(), chromeLikeHistory(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for v := range tree.VisibleLen() {
		labels = append(labels, tree.Node(tree.VisibleRow(v)).Label)
	}
	want := []string{"chrome 7", "Chrome_IOThread 7.io", "CrBrowserMain 7.main", "orphan"}
	if len(labels) != len(want) {
		t.Fatalf("rows %q, want %q", labels, want)
	}
	for i := range want {
		if labels[i] != want[i] {
			t.Fatalf("rows %q, want %q", labels, want)
		}
	}
	// Call stacks are collapsed children of their thread.
	main := frametest.TidRow(t, tree, "7.main")
	if n, c := tree.Node(main), tree.Children(main); len(c) != 2 || n.Expanded || tree.Node(c[0]).Label != "depth 1" {
		t.Errorf("7.main children %v expanded %v", c, n.Expanded)
	}
	tree.SelectNode(main)
	tree.Toggle()
	if tree.VisibleLen() != 6 {
		t.Errorf("%d rows after expanding the call stack, want 6", tree.VisibleLen())
	}
	// String states get a stable colour and their first letter as glyph.
	p := frame.PaintOf(frame.DomainThread, core.String("RunTask"))
	if p != frame.PaintOf(frame.DomainThread, core.String("RunTask")) || p.Glyph != 'R' || p.Colour < frame.PalStrings {
		t.Errorf("paint of a string state: %+v", p)
	}
	if n, i, total := findIn(tree, regexp.MustCompile("IOThread"), false); n != frametest.TidRow(t, tree, "7.io") || i != 1 || total != 1 {
		t.Errorf("find: node %d, match %d of %d", n, i, total)
	}
}

// TestControlFlowGroupsThreadsUnderLeaders checks the kernel grouping on
// the demo: threads under their process's leader, idle threads at the top
// level, names as the latest Exec_name.
func TestControlFlowGroupsThreadsUnderLeaders(t *testing.T) {
	tree, err := frame.BuildControlFlow(context.Background(), frametest.NewDemoTrace().Hist, nil)
	if err != nil {
		t.Fatal(err)
	}
	ffRow := frametest.TidRow(t, tree, "2000")
	ff, ffKids := tree.Node(ffRow), tree.Children(ffRow)
	if ff.Kind != frame.KindProcess || len(ffKids) != 2 || tree.Node(ffKids[0]).Label != "Web Content 2001" {
		t.Errorf("firefox 2000: %+v", ff)
	}
	if n := tree.Node(frametest.TidRow(t, tree, "1200")); n.Label != "ls 1200" {
		t.Errorf("bash after exec is %q, want the latest name ls", n.Label)
	}
	if n := tree.Node(frametest.TidRow(t, tree, "0_1")); n.Parent != -1 || n.Label != "swapper/1 0_1" {
		t.Errorf("idle thread: %+v", n)
	}
}
