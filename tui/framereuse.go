package tui

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

// reusable reports whether prev, the frame shown, has every cell and run
// req would draw.
func (req *frameRequest) reusable(prev *frame) bool {
	return prev != nil && prev.err == nil && !req.guessed && prev.pane == req.pane && prev.view == req.view &&
		prev.cursor == req.cursor && slices.Equal(prev.rows, req.rows) && slices.Equal(prev.runKeys, req.runs)
}

// reuseFrame answers req from req.prev: its cells and runs, with the
// details line's keys read at the cursor.
func reuseFrame(ctx context.Context, req frameRequest) *frame {
	began := req.now()
	p := req.prev
	f := &frame{seq: req.seq, pane: req.pane, view: p.view, keys: p.keys, rows: p.rows, runKeys: p.runKeys, cursor: p.cursor,
		scratch: req.scratch, cells: p.cells, runs: p.runs, mode: p.mode, rate: p.rate,
		atCursor: make(map[core.Key]core.Interval, len(req.extra))}
	if len(req.extra) > 0 {
		_, err := req.hist.Query2DTimes(ctx, req.extra, []core.Time{req.cursor}, func(iv core.Interval) bool {
			f.atCursor[iv.Key] = iv
			f.intervals++
			return true
		})
		if err != nil {
			f.err = err
			return f
		}
	}
	f.woke, f.woken = readWaker(ctx, req.hist, req.wake, f.atCursor)
	f.elapsed = req.now().Sub(began)
	return f
}
