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
// These rows are kept out of the frame's other queries (exact, sampled,
// summaries), which would read one interval per sample, and out of its
// density measure.
//
// A cell with samples is drawn at a level, 1 to 8, of the most samples
// any samples row on screen has in one column (the peak): the rows share
// one scale, so a thread that took few samples looks light beside a busy
// one. A column without samples is empty.

// sampleRows returns the request's samples rows, and rows with their keys
// hidden (-1) from the other queries; rows itself when it has none.
func sampleRows(rows []FrameRow) (idx []int, others []FrameRow) {
	for i, r := range rows {
		if r.Domain == DomainSamples && r.Key >= 0 {
			idx = append(idx, i)
		}
	}
	if idx == nil {
		return nil, rows
	}
	others = slices.Clone(rows)
	for _, i := range idx {
		others[i].Key = -1
	}
	return idx, others
}

// countTimes are the instants whose running counts give the columns'
// samples: the one before the window, then each column's last instant.
func (b *FrameBuilder) countTimes() []core.Time {
	times := make([]core.Time, b.Cols+1)
	times[0] = b.Req.Window.T0 - 1
	for c := 0; c < b.Cols; c++ {
		times[c+1] = b.Starts[c+1] - 1
	}
	return times
}

// countSamples reads the samples rows' running counts at countTimes and
// sets their cells and f.Counts.
func (b *FrameBuilder) countSamples(ctx context.Context, f *Frame, rows []int, keys []core.Key) error {
	times := b.countTimes()
	rowOf := make(map[core.Key]int, len(rows))
	cum := make([][]int64, len(keys))
	for j, i := range rows {
		rowOf[keys[i]] = j
		cum[j] = make([]int64, len(times))
	}
	// times is non-decreasing (an empty column repeats its neighbour's).
	_, err := b.Req.Hist.Query2DTimes(ctx, keysOf(keys, rows), times, func(iv core.Interval) bool {
		f.Intervals++
		j, ok := rowOf[iv.Key]
		if !ok || iv.Value.IsNull() {
			return true
		}
		for t := lowerBound(times, iv.Start); t < len(times) && times[t] <= iv.End; t++ {
			cum[j][t] = iv.Value.Int()
		}
		return true
	})
	if err != nil {
		return err
	}
	f.Counts = make([][]int64, len(keys))
	var peak int64
	for j, i := range rows {
		counts := make([]int64, b.Cols)
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
				f.Cells[i*b.Cols+c] = cell{Paint: Paint{PalRunUser, '#'}, Known: true, Level: SampleLevel(n, peak)}
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

// keysOf returns keys[i] for each i of rows.
func keysOf(keys []core.Key, rows []int) []core.Key {
	out := make([]core.Key, len(rows))
	for j, i := range rows {
		out[j] = keys[i]
	}
	return out
}

// lowerBound returns the first index of sorted times at or after t.
func lowerBound(times []core.Time, t core.Time) int {
	i, _ := slices.BinarySearch(times, t)
	return i
}

// SampleCount returns the samples of frame row r in column c, and whether
// r is a samples row.
func (f *Frame) SampleCount(r, c int) (int64, bool) {
	if r < 0 || r >= len(f.Counts) || f.Counts[r] == nil || c < 0 || c >= len(f.Counts[r]) {
		return 0, false
	}
	return f.Counts[r][c], true
}
