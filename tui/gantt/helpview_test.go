package gantt

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/tracetui/tracetui/tui/frame/frametest"
	"github.com/tracetui/tracetui/tui/screens/help"
)

// TestHelpTextIsNeverCut: at 80 columns and more, no line of the help is
// cut (every key, description and note reads whole: the help scrolls
// instead) or wider than the screen, in colour and in ASCII.
func TestHelpTextIsNeverCut(t *testing.T) {
	for _, ascii := range []bool{false, true} {
		hs := newHarness(t, frametest.NewDemoTrace(), 80, 24, ascii)
		for _, w := range []int{80, 100, 160} {
			for i, l := range help.HelpText(hs.b().sh, w) {
				plain := ansi.Strip(l)
				if strings.Contains(plain, "…") || ansi.StringWidth(l) > w {
					t.Errorf("ascii %v width %d: line %d cut or too wide: %q", ascii, w, i, plain)
				}
			}
		}
	}
}
