package tui

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// cygHistory is a user-space trace as the call stack analysis indexes
// cyg-profile: thread 42 of process 40 runs main (0x401136), which calls
// draw (0x4011a0) twice, then 0x4f0000 (no symbol).
func cygHistory(t *testing.T) *core.MemHistory {
	m := core.NewMemHistory(0)
	at := m.Attributes()
	set := modifier(t, m)
	th := at.AddPath(core.AttrThreads, "42")
	set(at.AddPath(core.AttrThreads, "42", core.AttrPID), 0, core.Int32(40))
	set(at.AddPath(core.AttrThreads, "42", core.AttrExecName), 0, core.String("glxgears"))
	set(th, 0, core.String(core.FormatAddress(0x401136)))
	set(at.AddPath(core.AttrThreads, "42", core.AttrCallStack, "1"), 0, core.Int64(0x401136))
	d2 := at.AddPath(core.AttrThreads, "42", core.AttrCallStack, "2")
	for _, tm := range []core.Time{100, 400} {
		set(d2, tm, core.Int64(0x4011a0))
		set(d2, tm+200, core.Null())
	}
	set(d2, 700, core.Int64(0x4f0000))
	set(d2, 900, core.Null())
	if err := m.Close(1000); err != nil {
		t.Fatal(err)
	}
	return m
}

// modifier returns a function setting states of m, failing the test on
// an error.
func modifier(t *testing.T, m *core.MemHistory) func(k core.Key, tm core.Time, v core.Value) {
	return func(k core.Key, tm core.Time, v core.Value) {
		t.Helper()
		if err := m.Modify(k, tm, v); err != nil {
			t.Fatal(err)
		}
	}
}

// symbolTrace is a memTrace that names frames as a symbol table would
// (what main.go's adapter does with the trace's resolver), counting the
// look-ups.
type symbolTrace struct {
	*frametest.MemTrace
	lookups atomic.Int64
}

func (s *symbolTrace) FrameLabel(_ core.Key, v core.Value) string {
	s.lookups.Add(1)
	switch {
	case v.Kind() != core.KindInt64:
		return v.String()
	case v.Int() == 0x401136:
		return "main"
	case v.Int() == 0x4011a0:
		return "draw"
	}
	return core.FrameText(v)
}

// TestCallStackRowsNameFrames: the call-stack rows of the Gantt, the
// details line (of a depth, and of the thread, whose value is its
// outermost frame) and the details pane name frames by symbol when the
// trace has symbols (each distinct frame resolved once), and print unresolved
// addresses, or every address without symbols, as core.FormatAddress
// does, as the call tree does.
func TestCallStackRowsNameFrames(t *testing.T) {
	for _, withSymbols := range []bool{true, false} {
		mt := &frametest.MemTrace{TraceName: "cyg", Hist: cygHistory(t), Table: &frametest.MemEvents{}}
		var tr frame.Trace = mt
		st := &symbolTrace{MemTrace: mt}
		if withSymbols {
			tr = st
		}
		hs := newHarness(t, tr, 100, 24, true)
		b := hs.b()
		tree := b.tree()
		tree.SelectNode(tidRow(t, tree, "42"))
		tree.Toggle() // the call stack rows
		hs.press("down")
		hs.press("down") // depth 2
		if got := hs.selectedLabel(); got != "depth 2" {
			t.Fatalf("selected %q, want depth 2", got)
		}
		outer, inner, unknown := "main", "draw", "0x4f0000"
		if !withSymbols {
			outer, inner = "0x401136", "0x4011a0"
		}
		hs.Run(b.moveCursor(150, true))
		if d := b.detailsText(); !strings.Contains(d, inner+" ") {
			t.Errorf("symbols %v: details line %q, want %q", withSymbols, d, inner)
		}
		hs.Run(b.moveCursor(750, true))
		if d := b.detailsText(); !strings.Contains(d, unknown+" ") {
			t.Errorf("symbols %v: details line %q, want the address %s", withSymbols, d, unknown)
		}
		// ASCII: a frame's glyph is the first letter of its name.
		screen := hs.view()
		wantGlyph := map[bool]string{true: "dd", false: "00"}[withSymbols]
		var row string
		for _, l := range strings.Split(screen, "\n") {
			if strings.Contains(l, "depth 2") && !strings.Contains(l, "·") { // the row, not the details line
				row = l
			}
		}
		if !strings.Contains(row, wantGlyph) {
			t.Errorf("symbols %v: depth 2 row %q has no %q", withSymbols, row, wantGlyph)
		}
		// The pane lists the thread's frames the same way.
		hs.press("up")
		hs.press("up") // the thread
		hs.Run(b.moveCursor(150, true))
		// A user-space thread's own value is its outermost frame.
		if d := b.detailsText(); !strings.Contains(d, "glxgears 42 · "+outer+" ") {
			t.Errorf("symbols %v: thread's details line %q, want %q", withSymbols, d, outer)
		}
		hs.press("details")
		pane := hs.view()
		for _, want := range []string{"CallStack/1", outer, "CallStack/2", inner} {
			if !strings.Contains(pane, want) {
				t.Errorf("symbols %v: details pane has no %q:\n%s", withSymbols, want, pane)
			}
		}
		if strings.Contains(pane, "4198710") { // 0x401136 in decimal
			t.Errorf("symbols %v: an address in decimal in the pane:\n%s", withSymbols, pane)
		}
		if withSymbols && st.lookups.Load() > 3 {
			t.Errorf("%d look-ups for 3 distinct frames", st.lookups.Load())
		}
	}
}

// TestGoldenCallStackNames shows the call-stack rows of a user-space
// thread named by symbol (ASCII: each frame's first letter), the details
// line of a depth with an unresolved address, and the details pane.
func TestGoldenCallStackNames(t *testing.T) {
	tr := &symbolTrace{MemTrace: &frametest.MemTrace{TraceName: "cyg", Hist: cygHistory(t), Table: &frametest.MemEvents{}}}
	for _, c := range []goldenCase{
		{name: "callstack_names_80x24_ascii", w: 80, h: 24, ascii: true, keys: []string{"j", "enter", "j", "j", ":", "+", "7", "5", "0", "n", "s", "enter"}},
		{name: "callstack_details_80x24_ascii", w: 80, h: 24, ascii: true, keys: []string{"j", ":", "+", "1", "5", "0", "n", "s", "enter", "i"}},
	} {
		t.Run(c.name, func(t *testing.T) { runGolden(t, tr, c) })
	}
}
