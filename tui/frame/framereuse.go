package frame

import (
	"context"
	"slices"

	"github.com/tracetui/tracetui/core"
)

// Frames that only move the cursor row.
//
// A key that selects another row of the same screen (j, k) changes
// neither the view, nor the rows, nor the CPU rows' runs, nor the cursor's
// time: only the details line, which reads the new row's keys at the
// cursor. The browser then hands the frame shown to the request, and the
// query reads those keys alone, a point query, instead of the whole frame
// again (on gen --threads 200000's Resources view: the runs' 580 nodes).

// Reusable reports whether prev, the frame shown, has every cell and run
// req would draw.
func (req *FrameRequest) Reusable(prev *Frame) bool {
	return prev != nil && prev.Err == nil && !req.Guessed && prev.Pane == req.Pane && prev.Window == req.Window &&
		prev.cursor == req.Cursor && slices.Equal(prev.rows, req.Rows) && slices.Equal(prev.runKeys, req.Runs)
}

// reuseFrame answers req from req.prev: its cells and runs, with the
// details line's keys read at the cursor.
func reuseFrame(ctx context.Context, req FrameRequest) *Frame {
	began := req.Now()
	p := req.Prev
	f := &Frame{Seq: req.Seq, Pane: req.Pane, Window: p.Window, Keys: p.Keys, rows: p.rows, runKeys: p.runKeys, cursor: p.cursor,
		Scratch: req.Scratch, Cells: p.Cells, Counts: p.Counts, SamplePeak: p.SamplePeak, Runs: p.Runs, Mode: p.Mode, Rate: p.Rate,
		AtCursor: make(map[core.Key]core.Interval, len(req.Extra))}
	if len(req.Extra) > 0 {
		_, err := req.Hist.Query2DTimes(ctx, req.Extra, []core.Time{req.Cursor}, func(iv core.Interval) bool {
			f.AtCursor[iv.Key] = iv
			f.Intervals++
			return true
		})
		if err != nil {
			f.Err = err
			return f
		}
	}
	f.Woke, f.Woken = readWaker(ctx, req.Hist, req.Wake, f.AtCursor)
	f.Elapsed = req.Now().Sub(began)
	return f
}
