package frame

// The density a frame query is chosen by (see frame.go): guessed before
// the first frame, then measured by each frame for the next.

// DensityPrior is the density guessed before any frame measured one: the
// history's intervals spread evenly over the rows and time (0 when
// unknown). Without it the first frame of a dense trace tried exact first
// and gave up after exactCap intervals per cell (600 of its 1271 nodes on
// a 1.3 M-event ftrace capture) before sampling.
func DensityPrior(info TraceInfo, rows int) float64 {
	span := float64(info.End) - float64(info.Start) + 1
	if info.Intervals <= 0 || rows <= 0 || span <= 0 {
		return 0
	}
	return float64(info.Intervals) / (float64(rows) * span)
}

// MeasuredRate is the density a frame measured, for the next request:
// an exact frame counts every interval; a sampled one meets at most a few
// per cell, so its count is only a lower bound and never lowers the
// earlier estimate. Lowering it made the next frame try exact again, give
// up and sample, one key in two (both queries: 1271 nodes instead of 668
// on a 1.3 M-event ftrace capture), even when the samples saw mostly solid
// rows: a few busy rows hold most intervals. Zooming in shrinks the
// expected count and brings exact back.
func MeasuredRate(req FrameRequest, f *Frame, sampled int) float64 {
	area := float64(max(len(req.Rows), 1)) * float64(req.Window.Span())
	if f.Mode == ModeExact {
		return float64(f.Intervals) / area
	}
	rate := float64(sampled) / area
	if f.Intervals > sampled {
		// Exact gave up: the density is at least what it met.
		rate = max(rate, float64(f.Intervals-sampled)/area)
	}
	return max(rate, req.Rate)
}
