package gantt

import (
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// labelRuns writes the names of the row's thread runs into its cells,
// after one column of margin: a label may fill its run to the end, since
// the next run's label starts after that run's own margin (a margin on
// both sides left "cat" where "cat 11022" fit, issue 30 item 5). The
// cursor's column keeps its mark.
func (b *Gantt) labelRuns(cells []drawCell, runs []frame.ThreadRun) {
	for _, r := range runs {
		text := b.runLabel(r, labelWidth(r))
		for i, ch := range text {
			cells[r.C0+1+i].text = ch // on the cursor's column too: writeCells shows both
		}
	}
}

// labelWidth is the cells a run's label may take: its columns but the
// margin before it.
func labelWidth(r frame.ThreadRun) int { return r.C1 - r.C0 }

// threadNamed is the Control Flow label ("name tid") of the thread whose
// attribute is Threads/<attr> ([core.ThreadName]), or attr when the
// Control Flow rows are not read yet or lack it.
func (b *Gantt) threadNamed(attr string) string {
	if cf := b.panes[frame.PaneControlFlow].tree; cf != nil {
		if i, ok := cf.ByTID(attr); ok {
			return cf.Node(i).Label
		}
	}
	return attr
}

// runLabel is, for a call, its function; for a thread run, the longest
// of "name tid", "name" and "tid" (the Control Flow row's name: the
// thread's last Exec_name) that fits in w cells, as runes one cell wide
// each; nil when none fits.
func (b *Gantt) runLabel(r frame.ThreadRun, w int) []rune {
	candidates := []string{r.Frame}
	if r.Frame == "" {
		id := strconv.FormatInt(r.Tid, 10)
		label := b.threadNamed(id)
		candidates = []string{label, strings.TrimSuffix(label, " "+id), id}
	}
	for _, s := range candidates {
		s = ui.Printable(s)
		if len([]rune(s)) <= w && frame.Cells(s) == len([]rune(s)) {
			return []rune(s)
		}
	}
	return nil
}
