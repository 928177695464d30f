package frame

import (
	"math/bits"

	"github.com/tracetui/tracetui/core"
)

// timeView is the visible time range [T0, T1] (inclusive, like intervals)
// cut into Cols columns, inside the trace bounds [Start, End]. Column c
// covers [ColStart(c), ColStart(c+1)-1]; columns differ in width by at most
// one nanosecond.
type Window struct {
	Start, End core.Time // trace bounds
	T0, T1     core.Time // visible range
	Cols       int
}

// Span is the visible duration in nanoseconds (T1-T0+1).
func (v Window) Span() core.Time { return v.T1 - v.T0 + 1 }

// TraceSpan is the whole trace's duration.
func (v Window) TraceSpan() core.Time { return v.End - v.Start + 1 }

// ColStart returns the first instant of column c (c may be Cols: T1+1).
func (v Window) ColStart(c int) core.Time {
	if v.Cols <= 0 {
		return v.T0
	}
	hi, lo := bits.Mul64(uint64(v.Span()), uint64(c))
	q, _ := bits.Div64(hi, lo, uint64(v.Cols))
	return v.T0 + core.Time(q)
}

// ColEnd returns the last instant of column c.
func (v Window) ColEnd(c int) core.Time { return v.ColStart(c+1) - 1 }

// ColOf returns the column holding t, clamped to [0, Cols-1].
func (v Window) ColOf(t core.Time) int {
	if t <= v.T0 || v.Cols <= 0 {
		return 0
	}
	if t >= v.T1 {
		return v.Cols - 1
	}
	// Column c starts at T0 + floor(span*c/cols); t is in the largest c
	// whose start is <= t. ceil-based inverse, then fix up by one.
	hi, lo := bits.Mul64(uint64(t-v.T0), uint64(v.Cols))
	c, _ := bits.Div64(hi, lo, uint64(v.Span()))
	col := int(c)
	for col+1 < v.Cols && v.ColStart(col+1) <= t {
		col++
	}
	for col > 0 && v.ColStart(col) > t {
		col--
	}
	return col
}

// ColWidth is the nominal duration of one column.
func (v Window) ColWidth() core.Time {
	if v.Cols <= 0 {
		return v.Span()
	}
	return max(1, v.Span()/core.Time(v.Cols))
}

// MinSpan is the narrowest range allowed: one nanosecond per column (or
// the whole trace if it is shorter).
func (v Window) MinSpan() core.Time { return min(max(core.Time(v.Cols), 1), v.TraceSpan()) }

// WithRange returns the window showing [t0, t0+span-1], the span clamped to
// [minSpan, trace span] and the range moved inside the trace bounds.
func (v Window) WithRange(t0, span core.Time) Window {
	span = max(span, v.MinSpan())
	span = min(span, v.TraceSpan())
	t0 = max(t0, v.Start)
	if t0 > v.End-span+1 {
		t0 = v.End - span + 1
	}
	v.T0, v.T1 = t0, t0+span-1
	return v
}

// Whole returns the window of the whole trace.
func (v Window) Whole() Window { return v.WithRange(v.Start, v.TraceSpan()) }

// Zoom returns the window scaled by factor (< 1 zooms in) keeping anchor at
// the same place on screen.
func (v Window) Zoom(anchor core.Time, factor float64) Window {
	span := v.Span()
	frac := float64(anchor-v.T0) / float64(span)
	newSpan := core.Time(float64(span) * factor)
	if factor < 1 && newSpan >= span {
		newSpan = span - 1 // always make progress
	}
	newSpan = min(max(newSpan, v.MinSpan()), v.TraceSpan())
	return v.WithRange(anchor-core.Time(frac*float64(newSpan)), newSpan)
}

// Pan returns the window moved by d nanoseconds (clamped to the trace).
func (v Window) Pan(d core.Time) Window { return v.WithRange(v.T0+d, v.Span()) }

// Showing returns the window moved the least so that t is visible.
func (v Window) Showing(t core.Time) Window {
	switch {
	case t < v.T0:
		return v.WithRange(t, v.Span())
	case t > v.T1:
		return v.WithRange(t-v.Span()+1, v.Span())
	}
	return v
}

// CentredOn returns the window of the same span centred on t.
func (v Window) CentredOn(t core.Time) Window { return v.WithRange(t-v.Span()/2, v.Span()) }

// ZoomFactor is how many times narrower the window is than the trace.
func (v Window) ZoomFactor() float64 { return float64(v.TraceSpan()) / float64(v.Span()) }
