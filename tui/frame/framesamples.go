package frame

import (
	"context"
	"slices"

	"github.com/tracetui/tracetui/core"
)

// Sample-density rows.
//
// A thread's samples row draws Threads/<tid>/Samples, the running count
// of its samples (ingest/states/samples: the count up to and including
// each instant). Its column [s, e] holds Samples(e) - Samples(s-1)
// samples, so the whole row is one point read per column boundary: the
// frame asks every samples row on screen at once, with one Query2DTimes
// at the instant before the window and the last instant of each column,
// whatever the zoom and however many samples lie in the window (a null
// count, before the thread's first sample, is 0). The counts are exact.
// The other rows are asked as a request of their own (exact, sampled or
// from summaries, by their own density), then the samples rows: the
// frame's other queries would read one interval per sample, and the
// other rows are drawn exactly as without the samples rows.
//
// Cost: at most cols+1 intervals per samples row, fewer when the row
// holds fewer intervals in the window (neighbouring boundaries then share
// one); a row of many samples zoomed out reads about one leaf per column
// (a leaf holds some 300 intervals of one key). BenchmarkFrameSampleRows
// (on-disk R-SHT, 200 columns, 8 threads of 1 M and 7 x 100 k samples,
// warm cache, load 7 on 2 cores): 0.74 ms of CPU for the whole trace
// with the 8 samples rows, 0.36 ms without them; zoomed x1000, 0.097
// against 0.081 ms.
//
// A cell with samples is drawn at a level, 1 to 8, of the most samples
// any samples row on screen has in one column (the peak): the rows share
// one scale, so a thread that took few samples looks light beside a busy
// one. A column without samples is empty.

// hasSampleRows reports whether rows hold a samples row.
func hasSampleRows(rows []FrameRow) bool {
	for _, r := range rows {
		if r.Domain == DomainSamples && r.Key >= 0 {
			return true
		}
	}
	return false
}

// runWithSamples answers a request with samples rows: the other rows as
// a request of their own (so they are asked and drawn exactly as without
// the samples rows), then the samples rows' counts; the frame has every
// row of req.
func runWithSamples(ctx context.Context, req FrameRequest) *Frame {
	began := req.Now()
	sub := req
	sub.Rows = make([]FrameRow, 0, len(req.Rows))
	at := make([]int, len(req.Rows)) // row of req -> row of sub, -1 for a samples row
	var samples []int
	for i, r := range req.Rows {
		at[i] = -1
		if r.Domain == DomainSamples && r.Key >= 0 {
			samples = append(samples, i)
			continue
		}
		at[i] = len(sub.Rows)
		sub.Rows = append(sub.Rows, r)
	}
	sub.Runs = make([]RunKey, len(req.Runs))
	for j, rk := range req.Runs {
		sub.Runs[j] = RunKey{Row: at[rk.Row], Key: rk.Key} // never a samples row (RunKeyOf)
	}
	f := runFrame(ctx, sub)
	if f.Err != nil {
		return f
	}
	cols := req.Window.Cols
	cells := make([]cell, len(req.Rows)*cols)
	runs := make([][]ThreadRun, len(req.Rows))
	keys := make([]core.Key, len(req.Rows))
	for i, r := range req.Rows {
		keys[i] = r.Key
		if j := at[i]; j >= 0 {
			copy(cells[i*cols:(i+1)*cols], f.Cells[j*cols:(j+1)*cols])
			if j < len(f.Runs) {
				runs[i] = f.Runs[j]
			}
		}
	}
	f.Keys, f.rows, f.runKeys, f.Cells, f.Runs = keys, req.Rows, req.Runs, cells, runs
	if err := countSamples(ctx, req, f, samples); err != nil {
		f.Err = err
		return f
	}
	f.Elapsed = req.Now().Sub(began)
	return f
}

// countTimes are the instants whose running counts give the columns'
// samples: the one before the window, then each column's last instant
// (non-decreasing: an empty column repeats its neighbour's).
func countTimes(v Window) []core.Time {
	times := make([]core.Time, v.Cols+1)
	times[0] = v.T0 - 1
	for c := 0; c < v.Cols; c++ {
		times[c+1] = v.ColStart(c+1) - 1
	}
	return times
}

// countSamples reads the samples rows' running counts at countTimes and
// sets their cells, f.Counts and f.SamplePeak.
func countSamples(ctx context.Context, req FrameRequest, f *Frame, rows []int) error {
	v := req.Window
	times := countTimes(v)
	rowOf := make(map[core.Key]int, len(rows))
	keys := make([]core.Key, len(rows))
	cum := make([][]int64, len(rows))
	for j, i := range rows {
		keys[j] = req.Rows[i].Key
		rowOf[keys[j]] = j
		cum[j] = make([]int64, len(times))
	}
	_, err := req.Hist.Query2DTimes(ctx, keys, times, func(iv core.Interval) bool {
		f.Intervals++
		j, ok := rowOf[iv.Key]
		if !ok || iv.Value.IsNull() {
			return true
		}
		t, _ := slices.BinarySearch(times, iv.Start)
		for ; t < len(times) && times[t] <= iv.End; t++ {
			cum[j][t] = iv.Value.Int()
		}
		return true
	})
	if err != nil {
		return err
	}
	f.Counts = make([][]int64, len(req.Rows))
	var peak int64
	for j, i := range rows {
		counts := make([]int64, v.Cols)
		for c := range counts {
			counts[c] = max(cum[j][c+1]-cum[j][c], 0)
			peak = max(peak, counts[c])
		}
		f.Counts[i] = counts
	}
	f.SamplePeak = peak
	for _, i := range rows {
		for c, n := range f.Counts[i] {
			if n > 0 {
				f.Cells[i*v.Cols+c] = cell{Paint: Paint{PalRunUser, '#'}, Known: true, Level: SampleLevel(n, peak)}
			}
		}
	}
	return nil
}

// SampleLevel is the level, 1 to 8, of a column of n > 0 samples when the
// busiest column on screen has peak: n/peak rounded up to eighths.
func SampleLevel(n, peak int64) uint8 {
	if n <= 0 || peak <= 0 {
		return 0
	}
	return uint8(min((n*8+peak-1)/peak, 8))
}

// SampleCount returns the samples of frame row r in column c, and whether
// r is a samples row.
func (f *Frame) SampleCount(r, c int) (int64, bool) {
	if r < 0 || r >= len(f.Counts) || f.Counts[r] == nil || c < 0 || c >= len(f.Counts[r]) {
		return 0, false
	}
	return f.Counts[r][c], true
}
