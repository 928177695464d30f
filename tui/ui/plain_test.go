package ui

import (
	"io"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/tracetui/tracetui/tui/frame"
)

// TestPlain: the browser's marks become ASCII of the same width in
// plain text; with SevenBit the trace's own text too ('?' per cell);
// colour leaves everything as it is.
func TestPlain(t *testing.T) {
	in := "k/↑ j/↓ move · ×2 +0ns–+1ms Web Conte… 日本 é"
	for _, c := range []struct {
		ascii, sevenBit bool
		want            string
	}{
		{false, false, in},
		{true, false, "k/^ j/v move . x2 +0ns-+1ms Web Conte~ 日本 é"},
		{true, true, "k/^ j/v move . x2 +0ns-+1ms Web Conte~ ???? ?"},
	} {
		st := NewStyles(lipgloss.NewRenderer(io.Discard), c.ascii)
		st.ASCII, st.SevenBit = c.ascii, c.sevenBit // the renderer may have no colour either
		got := st.Plain(in)
		if got != c.want {
			t.Errorf("ascii %v, 7-bit %v: %q, want %q", c.ascii, c.sevenBit, got, c.want)
		}
		if frame.Cells(got) != frame.Cells(in) {
			t.Errorf("ascii %v, 7-bit %v: %d cells, want %d", c.ascii, c.sevenBit, frame.Cells(got), frame.Cells(in))
		}
	}
}
