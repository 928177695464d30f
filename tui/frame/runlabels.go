package frame

import (
	"slices"

	"github.com/tracetui/tracetui/core"
)

// Thread names inside Resources runs. A CPU row draws the CPU's status;
// where one thread runs over enough whole columns, its name is written
// into the run, as KernelShark and Trace Compass do. The frame query reads
// each CPU row's Current_thread along with the statuses (the runs), and
// the drawing names them from the Control Flow rows. Call-stack rows
// label their calls the same way, with the function's name (resolved in
// the frame query by frameNames, framenames.go).

// RunKey asks the frame for the thread runs of one row.
type RunKey struct {
	Row int      // index in frameRequest.rows
	Key core.Key // the row's CPUs/<n>/Current_thread
}

// ThreadRun is a thread running over the whole columns c0..c1 of a row,
// or a call (frame, named off the UI goroutine) of a call-stack row.
type ThreadRun struct {
	C0, C1 int
	Tid    int64
	Frame  string // the call's function ("": a thread run)
}

// MinRunCols is the narrowest run worth a label: a column of margin and
// two characters.
const MinRunCols = 3

// RunKeyOf is the runKey of request row i, when n is a CPU row (its
// Current_thread) or a call-stack row (its own frames, see
// framenames.go).
func RunKeyOf(at *core.AttributeTree, n *Node, i int) (RunKey, bool) {
	if n.Kind == KindCallStack {
		return RunKey{Row: i, Key: n.Key}, n.Key >= 0
	}
	if n.Kind != KindCPU {
		return RunKey{}, false
	}
	k, ok := at.Child(n.Key, core.AttrCurrentThread)
	return RunKey{Row: i, Key: k}, ok
}

// addRun records the whole columns a Current_thread interval covers,
// when they are enough for a label (the idle thread, 0, is not named:
// its CPU shows idle).
func (b *FrameBuilder) addRun(row int, iv core.Interval) {
	frames := b.Req.Rows[row].Domain == DomainFrame
	if k := iv.Value.Kind(); !frames && (k != core.KindInt32 && k != core.KindInt64 || iv.Value.Int() <= 0) || iv.Value.IsNull() {
		return
	}
	v := b.Req.Window
	s, e := max(iv.Start, v.T0), min(iv.End, v.T1)
	if s > e {
		return
	}
	c0, c1 := b.colOf(s), b.colOf(e)
	if b.Starts[c0] < iv.Start {
		c0++ // the first column is only partly the thread's
	}
	if b.Starts[c1+1]-1 > iv.End {
		c1--
	}
	switch {
	case c1-c0+1 < MinRunCols:
	case frames:
		b.runs[row] = append(b.runs[row], ThreadRun{C0: c0, C1: c1, Frame: b.Req.Names.Describe(iv.Key, DomainFrame, iv.Value)})
	default:
		b.runs[row] = append(b.runs[row], ThreadRun{C0: c0, C1: c1, Tid: iv.Value.Int()})
	}
}

// finishRuns sorts each row's runs and drops the repeats (a sampled query
// meets a long interval at every column).
func (b *FrameBuilder) finishRuns() [][]ThreadRun {
	for r, runs := range b.runs {
		slices.SortFunc(runs, func(x, y ThreadRun) int { return x.C0 - y.C0 })
		b.runs[r] = slices.CompactFunc(runs, func(x, y ThreadRun) bool { return x.C0 == y.C0 })
	}
	return b.runs
}
