package gantt

import (
	"fmt"
	"strings"

	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// samplesText is the details line of a thread's samples row (perf.data
// profiles, tui/frame/framesamples.go): whose samples, those of the
// cursor's column and of the screen, the scale (the full glyph's count),
// and the key of the selection's flame graph.
func (b *Gantt) samplesText(n *frame.Node, f *frame.Frame) string {
	who := "samples"
	if n.Parent >= 0 {
		who = "samples of " + b.tree().Node(n.Parent).Label
	}
	fr := -1
	for i, k := range f.Keys {
		if k == n.Key {
			fr = i
			break
		}
	}
	v := f.Window
	if fr < 0 || v != b.win || fr >= len(f.Counts) || f.Counts[fr] == nil {
		return who + " · …"
	}
	var total int64
	for _, c := range f.Counts[fr] {
		total += c
	}
	parts := []string{who}
	if b.cursor >= v.T0 && b.cursor <= v.T1 {
		c := v.ColOf(b.cursor)
		for c > 0 && v.ColStart(c) > b.cursor {
			c--
		}
		cnt, _ := f.SampleCount(fr, c)
		res := v.ColWidth()
		parts = append(parts, fmt.Sprintf("%d in column %s→%s", cnt,
			b.sh.RelTime(b.win.Start, v.ColStart(c), res), b.sh.RelTime(b.win.Start, v.ColEnd(c), res)))
	}
	full := levelBlocks[len(levelBlocks)-1]
	if b.sh.Styles.ASCII {
		full = levelASCII[len(levelASCII)-1]
	}
	parts = append(parts, fmt.Sprintf("%d on screen", total), fmt.Sprintf("%s = %d/column", full, f.SamplePeak),
		ui.K(b.sh.Keys.CallTree)+" flame graph")
	return strings.Join(parts, " · ")
}
