package tui

import (
	"slices"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
)

// Thread names inside Resources runs. A CPU row draws the CPU's status;
// where one thread runs over enough whole columns, its name is written
// into the run, as KernelShark and Trace Compass do. The frame query reads
// each CPU row's Current_thread along with the statuses (the runs), and
// the drawing names them from the Control Flow rows. Call-stack rows
// label their calls the same way, with the function's name (resolved in
// the frame query by frameNames, framenames.go).

// runKey asks the frame for the thread runs of one row.
type runKey struct {
	row int      // index in frameRequest.rows
	key core.Key // the row's CPUs/<n>/Current_thread
}

// threadRun is a thread running over the whole columns c0..c1 of a row,
// or a call (frame, named off the UI goroutine) of a call-stack row.
type threadRun struct {
	c0, c1 int
	tid    int64
	frame  string // the call's function ("": a thread run)
}

// minRunCols is the narrowest run worth a label: one character and a
// column of margin on each side.
const minRunCols = 3

// runKeyOf is the runKey of request row i, when n is a CPU row (its
// Current_thread) or a call-stack row (its own frames, see
// framenames.go).
func runKeyOf(at *core.AttributeTree, n *node, i int) (runKey, bool) {
	if n.kind == kindCallStack {
		return runKey{row: i, key: n.key}, n.key >= 0
	}
	if n.kind != kindCPU {
		return runKey{}, false
	}
	k, ok := at.Child(n.key, core.AttrCurrentThread)
	return runKey{row: i, key: k}, ok
}

// addRun records the whole columns a Current_thread interval covers,
// when they are enough for a label (the idle thread, 0, is not named:
// its CPU shows idle).
func (b *frameBuilder) addRun(row int, iv core.Interval) {
	frames := b.req.rows[row].domain == domainFrame
	if k := iv.Value.Kind(); !frames && (k != core.KindInt32 && k != core.KindInt64 || iv.Value.Int() <= 0) || iv.Value.IsNull() {
		return
	}
	v := b.req.view
	s, e := max(iv.Start, v.T0), min(iv.End, v.T1)
	if s > e {
		return
	}
	c0, c1 := b.colOf(s), b.colOf(e)
	if b.starts[c0] < iv.Start {
		c0++ // the first column is only partly the thread's
	}
	if b.starts[c1+1]-1 > iv.End {
		c1--
	}
	switch {
	case c1-c0+1 < minRunCols:
	case frames:
		b.runs[row] = append(b.runs[row], threadRun{c0: c0, c1: c1, frame: b.req.names.describe(iv.Key, domainFrame, iv.Value)})
	default:
		b.runs[row] = append(b.runs[row], threadRun{c0: c0, c1: c1, tid: iv.Value.Int()})
	}
}

// finishRuns sorts each row's runs and drops the repeats (a sampled query
// meets a long interval at every column).
func (b *frameBuilder) finishRuns() [][]threadRun {
	for r, runs := range b.runs {
		slices.SortFunc(runs, func(x, y threadRun) int { return x.c0 - y.c0 })
		b.runs[r] = slices.CompactFunc(runs, func(x, y threadRun) bool { return x.c0 == y.c0 })
	}
	return b.runs
}

// labelRuns writes the names of the row's thread runs into its cells.
// The cursor's column keeps its mark.
func (b *browser) labelRuns(cells []drawCell, runs []threadRun) {
	for _, r := range runs {
		text := b.runLabel(r, r.c1-r.c0+1-2)
		for i, ch := range text {
			if c := &cells[r.c0+1+i]; c.variant != variantCursor {
				c.text = ch
			}
		}
	}
}

// threadNamed is the Control Flow label ("name tid") of the thread whose
// attribute is Threads/<attr> ([core.ThreadName]), or attr when the
// Control Flow rows are not read yet or lack it.
func (b *browser) threadNamed(attr string) string {
	if cf := b.panes[viewControlFlow].tree; cf != nil {
		if i, ok := cf.byTID(attr); ok {
			return cf.node(i).label
		}
	}
	return attr
}

// runLabel is, for a call, its function; for a thread run, the longest
// of "name tid", "name" and "tid" (the Control Flow row's name: the
// thread's last Exec_name) that fits in w cells, as runes one cell wide
// each; nil when none fits.
func (b *browser) runLabel(r threadRun, w int) []rune {
	candidates := []string{r.frame}
	if r.frame == "" {
		id := strconv.FormatInt(r.tid, 10)
		label := b.threadNamed(id)
		candidates = []string{label, strings.TrimSuffix(label, " "+id), id}
	}
	for _, s := range candidates {
		s = printable(s)
		if len([]rune(s)) <= w && cells(s) == len([]rune(s)) {
			return []rune(s)
		}
	}
	return nil
}
