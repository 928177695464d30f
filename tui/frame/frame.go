package frame

import (
	"context"

	"slices"
	"time"

	"github.com/tracetui/tracetui/core"
)

// Frame queries.
//
// A frame is one 2D query: the status attributes of the visible rows (plus
// the few attributes the details line reads at the cursor) over the visible
// range, reduced to one cell per (row, column). A cell shows the row's
// dominant state in the column (the value covering the most time) and is
// marked when the row changed state more than once in it.
//
// Two ways to ask, chosen per frame (and a third for the rows the index
// summarises, when the frame is dense: framesummary.go):
//
//   - exact: Query2D over [T0, T1]. Every interval in range is read, so
//     the dominant state and the change count are exact. Its cost grows
//     with the intervals in range: millions for a zoomed-out CPU row.
//   - sampled: Query2DTimes at the first and last instant of every column,
//     two points inside it, and the cursor. Its cost is bounded by
//     rows x columns x 4 intervals whatever the zoom. The intervals met
//     are exact, so a column's first and last intervals are always known:
//     the "changed more than once" mark stays exact (a column whose known
//     intervals leave a gap held at least one more interval, so at least
//     two changes). The dominant state is computed from the known
//     intervals only: it can be wrong only when the unseen gaps, which are
//     shorter than the column, hold more of another state than the known
//     intervals hold of the winner; such columns are always marked, so a
//     solid cell is always exact.
//
// The choice uses the interval density measured by the previous frames
// (intervals per row per nanosecond): exact when the expected count is
// within exactBudget intervals per cell. An exact query that meets more than
// exactCap intervals per cell stops early and the frame is re-asked
// sampled, so a wrong guess costs at most exactCap intervals per cell.
// Before any frame measured it, the density is guessed from the history's
// interval count (densityPrior), and exact is tried unless the guess is
// above exactCap; a sampled frame never lowers the measure (measuredRate).
// When the history keeps summaries, a guessed frame asks them first: they
// count the served rows' intervals without reading a node, and the frame
// keeps them when those rows are busy, else asks exactly. When every row
// is drawn from summaries, the CPU rows' runs alone are sampled, at
// runTimes' instants (a third of the columns).
const (
	exactBudget = 2 // expected intervals per cell below which exact is tried
	ExactCap    = 8 // intervals per cell above which exact gives up
	slotsPerCel = 4 // distinct values tracked per cell
	// summaryFrom is the expected intervals per cell from which the rows
	// the history summarises are drawn from summaries (framesummary.go):
	// exact frames below 2 intervals per cell still read 1 385 nodes on a
	// 1.3 M-event ftrace capture, as a key's few intervals sit in leaves
	// full of other keys.
	summaryFrom = 0.25
	// summaryMinIntervals: below this many expected intervals exact costs
	// little whatever the density, and stays exact.
	summaryMinIntervals = 10_000
)

// QueryMode is how a frame was asked.
type QueryMode uint8

const (
	ModeExact QueryMode = iota
	ModeSampled
	ModeSummary // some rows from the history's summaries (framesummary.go)
)

// String names the mode, as the status line prints it.
func (m QueryMode) String() string {
	switch m {
	case ModeExact:
		return "exact"
	case ModeSummary:
		return "summary"
	}
	return "sampled"
}

// FrameRow is one row of a frame request.
type FrameRow struct {
	Key    core.Key // -1: nothing to draw
	Domain ValueDomain
}

// FrameRequest is a copy of everything a frame query needs, so the query
// goroutine shares nothing mutable with the UI.
type FrameRequest struct {
	Seq    uint64
	Pane   int // the pane (Control Flow, Resources) it was asked for
	Hist   core.History
	Window Window
	Rows   []FrameRow
	Extra  []core.Key // read at the cursor only (details line)
	Runs   []RunKey   // the CPU rows' running threads, named in their runs (runlabels.go)
	Wake   WakeKeys   // the selected thread's, to say what ended its wait at the cursor
	Cursor core.Time
	Rate   float64 // intervals per row per ns seen by earlier frames; 0: unknown
	// Guessed: rate is densityPrior's guess, not a measure, so exact is
	// still tried unless the guess exceeds what exact gives up at.
	Guessed bool
	Names   *FrameNames // paints call-stack rows by frame name (nil: by value)
	// Summary: draw the rows the history's summaries serve from them
	// (framesummary.go), when it keeps any.
	Summary bool
	// Prev, when set, is the frame shown, asked for the same window, rows,
	// runs and cursor: only the details line's keys are read (framereuse.go).
	Prev *Frame
	Now  func() time.Time
	// Scratch is reused from frame to frame: the browser runs one query
	// at a time and gets it back with the frame, so no allocation of the
	// per-cell accumulators per keypress.
	Scratch *FrameScratch
}

// FrameScratch is the per-cell working memory of a frame query.
type FrameScratch struct {
	acc    []slotAcc
	starts []core.Time
}

// cell is one drawn Gantt cell.
type cell struct {
	Paint Paint
	Known bool  // some state is known in the column
	Multi bool  // the row changed state more than once in the column
	Level uint8 // counter rows: 1 to 8, the value's height in the row's range on screen (0: none)
}

// Frame is the answer to a frameRequest.
type Frame struct {
	Seq      uint64
	Pane     int
	Window   Window
	Keys     []core.Key // per row, as requested
	rows     []FrameRow // as requested (framereuse.go)
	runKeys  []RunKey
	cursor   core.Time
	Scratch  *FrameScratch
	Cells    []cell // len(keys) * window.Cols, row-major
	AtCursor map[core.Key]core.Interval
	Woke     core.Interval // Waker that ended the selected thread's wait at the cursor
	Woken    bool          // woke is set
	// Counts: per row, the samples of a samples row in each column (nil
	// for other rows); SamplePeak, the most in one column of any of them
	// (framesamples.go).
	Counts     [][]int64
	SamplePeak int64
	Runs       [][]ThreadRun // per row, the thread runs wide enough to name
	Mode       QueryMode
	Intervals  int // intervals read (both queries when exact gave up)
	Elapsed    time.Duration
	Rate       float64 // measured density, for the next request
	Err        error
}

// FrameBuilder holds the per-frame scratch state.
type FrameBuilder struct {
	Req         FrameRequest
	Cols        int
	Starts      []core.Time // column starts, cols+1 entries
	rowOf       map[core.Key]int
	acc         []slotAcc
	values      []core.Value
	ids         map[core.Value]int32
	smallIDs    [64]int32 // ids of int values 0..63 (kernel statuses), -1 unset
	atCursor    map[core.Key]core.Interval
	overflow    map[int][]overflowSlot // by cell index
	count       int
	limit       int // stop the query after this many intervals (0: none)
	stopped     bool
	levelIDs    []int32                // the dominant value of each known cell of the counter row being finished
	frameRow    core.Key               // the row whose frame paints are in framePaints
	framePaints map[int32]framePaintOf // by value id (framenames.go)
	runOf       map[core.Key]int       // Current_thread key -> its CPU row
	runs        [][]ThreadRun          // per row

	// Summary frames (framesummary.go).
	served       []bool    // per row: drawn from summaries (framesummary.go)
	sumCells     []sumCell // per cell of the served rows
	sumIntervals float64   // intervals of the served rows in the window, from their summaries
}

// RunFrame answers one request.
func RunFrame(ctx context.Context, req FrameRequest) *Frame {
	if req.Prev != nil {
		return reuseFrame(ctx, req)
	}
	if hasSampleRows(req.Rows) {
		return runWithSamples(ctx, req)
	}
	return runFrame(ctx, req)
}

// runFrame answers a request without samples rows.
func runFrame(ctx context.Context, req FrameRequest) *Frame {
	began := req.Now()
	v := req.Window
	b := &FrameBuilder{Req: req, Cols: v.Cols, rowOf: make(map[core.Key]int, len(req.Rows)),
		ids: map[core.Value]int32{}, atCursor: map[core.Key]core.Interval{}}
	for i := range b.smallIDs {
		b.smallIDs[i] = -1
	}
	sc := req.Scratch
	if sc == nil {
		sc = &FrameScratch{}
	}
	sc.starts = grow(sc.starts, v.Cols+1)
	sc.acc = grow(sc.acc, len(req.Rows)*v.Cols)
	b.Starts, b.acc = sc.starts, sc.acc
	for c := range b.Starts {
		b.Starts[c] = v.ColStart(c)
	}
	keys := make([]core.Key, 0, len(req.Rows)+len(req.Extra))
	rowKeys := make([]core.Key, len(req.Rows))
	for i, r := range req.Rows {
		rowKeys[i] = r.Key
		if r.Key >= 0 {
			b.rowOf[r.Key] = i
			keys = append(keys, r.Key)
		}
	}
	drawn := len(keys) // the rows' keys come first
	keys = append(keys, req.Extra...)
	b.runOf = make(map[core.Key]int, len(req.Runs))
	for _, rk := range req.Runs {
		b.runOf[rk.Key] = rk.Row
		if _, drawn := b.rowOf[rk.Key]; !drawn { // a call-stack row's runs are its own intervals
			keys = append(keys, rk.Key)
		}
	}
	f := &Frame{Seq: req.Seq, Pane: req.Pane, Window: v, Keys: rowKeys, rows: req.Rows, runKeys: req.Runs, cursor: req.Cursor, Scratch: sc}

	b.reset()
	rowsLeft := len(req.Rows)
	budget := exactBudget
	if req.Guessed {
		budget = ExactCap
	}
	perCell := req.Rate * float64(v.Span()) / float64(max(v.Cols, 1)) // expected intervals per cell
	dense := req.Rate != 0 && perCell > float64(budget)               // exact would read too many
	busy := req.Rate != 0 && perCell > summaryFrom && perCell*float64(rowsLeft*v.Cols) > summaryMinIntervals
	if sz, ok := req.Hist.(core.Summarizer); ok && req.Summary && (busy || req.Guessed) {
		// A guessed density is an average over every row: the summaries
		// measure the rows they serve, for nothing, and a first frame
		// with busy rows draws them at once. (On gen --threads 200000 the
		// guess said sparse; exact gave up on the first screen's busy
		// rows and sampling read 751 nodes.)
		n, err := b.summarise(ctx, sz)
		if err != nil {
			f.Err = err
			return f
		}
		if n > 0 && req.Guessed && !b.summaryBusy(n) {
			// Sparse rows: exact is cheap, and exact. When the summaries
			// measured every row, their density decides as a measured
			// one would.
			if n == len(req.Rows) {
				dense = b.sumIntervals/float64(n*max(v.Cols, 1)) > float64(budget)
			}
			b.served, n = nil, 0
		}
		if n > 0 {
			left := slices.DeleteFunc(slices.Clone(keys[:drawn]), func(k core.Key) bool { return b.served[b.rowOf[k]] })
			rowsLeft = len(left)
			keys = append(left, keys[drawn:]...) // extra keeps the selected row's key for the details line
		}
	}
	cells := rowsLeft * v.Cols
	f.Mode = ModeSampled
	if rowsLeft > 0 && !dense {
		f.Mode = ModeExact
		b.reset()
		b.limit = ExactCap*cells + (len(req.Extra)+len(req.Runs))*v.Cols
		_, err := req.Hist.Query2D(ctx, keys, v.T0, v.T1, b.visit)
		if err != nil {
			f.Err = err
			return f
		}
		f.Intervals = b.count
		if b.stopped {
			f.Mode = ModeSampled
		}
	}
	if f.Mode == ModeSampled {
		b.reset()
		b.limit = 0
		times := []core.Time{req.Cursor} // every row drawn from summaries: the cursor for the details line
		switch {
		case rowsLeft > 0:
			times = b.sampleTimes()
		case len(req.Runs) > 0:
			times = b.RunTimes()
		}
		_, err := req.Hist.Query2DTimes(ctx, keys, times, b.visit)
		if err != nil {
			f.Err = err
			return f
		}
		f.Intervals += b.count
	}
	f.Rate = req.Rate
	if rowsLeft > 0 {
		left := req
		left.Rows = left.Rows[:rowsLeft] // the density of the rows queried (only their count is read)
		f.Rate = MeasuredRate(left, f, b.count)
	}
	if served := len(req.Rows) - rowsLeft; served > 0 {
		f.Mode = ModeSummary
		// The summaries count the intervals of the rows they drew: the
		// next frame, zoomed past the finest level, picks exact or sampled
		// by the real density rather than a stale guess. Like a sampled
		// frame's, this never lowers the estimate (a lower one sent later
		// frames of gen200k to exact for the other keys: more nodes).
		area := float64(v.Span())
		f.Rate = max(f.Rate, (b.sumIntervals/area+f.Rate*float64(rowsLeft))/float64(served+rowsLeft))
	}
	f.Cells = b.finish()
	f.Runs = b.finishRuns()
	f.AtCursor = b.atCursor
	f.Woke, f.Woken = readWaker(ctx, req.Hist, req.Wake, f.AtCursor)
	f.Elapsed = req.Now().Sub(began)
	return f
}

// grow returns s resized to n, reusing its memory when it is large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func (b *FrameBuilder) reset() {
	b.levelIDs = b.levelIDs[:0]
	for i := range b.acc {
		if b.served != nil && b.served[i/b.Cols] {
			continue // drawn from summaries, once
		}
		b.acc[i] = slotAcc{vals: [slotsPerCel]int32{-1, -1, -1, -1}}
	}
	b.count, b.stopped = 0, false
	clear(b.atCursor)
	for cell := range b.overflow {
		if b.served == nil || !b.served[cell/b.Cols] {
			delete(b.overflow, cell)
		}
	}
	b.runs = make([][]ThreadRun, len(b.Req.Rows))
}

// sampleTimes returns the instants of a sampled query: each column's first
// and last instant and two inside it, and the cursor.
func (b *FrameBuilder) sampleTimes() []core.Time {
	times := make([]core.Time, 0, 4*b.Cols+1)
	for c := 0; c < b.Cols; c++ {
		s, e := b.Starts[c], b.Starts[c+1]-1
		if e < s {
			continue
		}
		w := e - s + 1
		times = append(times, s)
		if w > 3 {
			times = append(times, s+w/3, s+2*w/3)
		}
		if e > s {
			times = append(times, e)
		}
	}
	return append(times, b.Req.Cursor)
}

// RunTimes are the instants that find every run worth a label when no
// row needs sampling (all drawn from summaries): the start of every
// MinRunCols-th column, and the cursor. A run worth a label covers
// MinRunCols whole columns, so it holds one of those starts. On
// gen --threads 200000's Resources pane the runs' query read 1 617 nodes
// at sampleTimes' 653 instants.
func (b *FrameBuilder) RunTimes() []core.Time {
	times := make([]core.Time, 0, b.Cols/MinRunCols+2)
	for c := 0; c < b.Cols; c += MinRunCols {
		times = append(times, b.Starts[c])
	}
	return append(times, b.Req.Cursor)
}

// visit accumulates one interval into the cells it overlaps.
func (b *FrameBuilder) visit(iv core.Interval) bool {
	b.count++
	if b.limit > 0 && b.count > b.limit {
		b.stopped = true
		return false
	}
	if iv.Contains(b.Req.Cursor) {
		b.atCursor[iv.Key] = iv
	}
	if r, ok := b.runOf[iv.Key]; ok {
		b.addRun(r, iv)
	}
	row, ok := b.rowOf[iv.Key]
	if !ok || b.served != nil && b.served[row] {
		return true
	}
	v := b.Req.Window
	s, e := max(iv.Start, v.T0), min(iv.End, v.T1)
	if s > e {
		return true
	}
	id := b.intern(iv.Value)
	base := row * b.Cols
	for c := b.colOf(s); c < b.Cols && b.Starts[c] <= e; c++ {
		cs, ce := b.Starts[c], b.Starts[c+1]-1
		if ce < cs {
			continue
		}
		b.addCell(base+c, id, min(e, ce)-max(s, cs)+1)
	}
	return true
}
