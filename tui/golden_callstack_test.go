package tui

import (
	"testing"

	"github.com/tracetui/tracetui/tui/frame/frametest"
)

// TestGoldenCallStackNames shows the call-stack rows of a user-space
// thread named by symbol (ASCII: each frame's first letter), the details
// line of a depth with an unresolved address, and the details pane.
func TestGoldenCallStackNames(t *testing.T) {
	tr := &frametest.SymbolTrace{MemTrace: &frametest.MemTrace{TraceName: "cyg", Hist: frametest.CygHistory(t), Table: &frametest.MemEvents{}}}
	for _, c := range []goldenCase{
		{name: "callstack_names_80x24_ascii", w: 80, h: 24, ascii: true, keys: []string{"j", "enter", "j", "j", ":", "+", "7", "5", "0", "n", "s", "enter"}},
		{name: "callstack_details_80x24_ascii", w: 80, h: 24, ascii: true, keys: []string{"j", ":", "+", "1", "5", "0", "n", "s", "enter", "i"}},
	} {
		t.Run(c.name, func(t *testing.T) { runGolden(t, tr, c) })
	}
}
