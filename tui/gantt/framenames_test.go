package gantt

import (
	"strings"
	"testing"

	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// TestCallStackRowsNameFrames: the call-stack rows of the Gantt, the
// details line (of a depth, and of the thread, whose value is its
// outermost frame) and the details pane name frames by symbol when the
// trace has symbols (each distinct frame resolved once), and print unresolved
// addresses, or every address without symbols, as core.FormatAddress
// does, as the call tree does.
func TestCallStackRowsNameFrames(t *testing.T) {
	for _, withSymbols := range []bool{true, false} {
		mt := &frametest.MemTrace{TraceName: "cyg", Hist: frametest.CygHistory(t), Table: &frametest.MemEvents{}}
		var tr frame.Trace = mt
		st := &frametest.SymbolTrace{MemTrace: mt}
		if withSymbols {
			tr = st
		}
		hs := newHarness(t, tr, 100, 24, true)
		b := hs.b()
		tree := b.tree()
		tree.SelectNode(frametest.TidRow(t, tree, "42"))
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
		if withSymbols && st.Lookups.Load() > 3 {
			t.Errorf("%d look-ups for 3 distinct frames", st.Lookups.Load())
		}
	}
}
