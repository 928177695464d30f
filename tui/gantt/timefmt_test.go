package gantt

import (
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"
)

// TestFormatDurationAtPrecision: a duration printed precise to res reads
// back within res/2 of itself, and two durations
// res apart never print the same; coarse precisions print what
// core.FormatDuration prints for round values.
func TestFormatDurationAtPrecision(t *testing.T) {
	rng := coretest.Rand(t)
	for range 5000 {
		d := core.Time(rng.Int64N(1e14))
		if rng.IntN(4) == 0 {
			d = core.Time(rng.Int64N(1e6))
		}
		res := core.Time(1)
		for range rng.IntN(12) {
			res *= 10
		}
		res *= core.Time(1 + rng.IntN(5))
		s := frame.FormatDurationAt(d, res)
		p, err := core.ParseDuration(s)
		if err != nil {
			t.Fatalf("formatDurationAt(%d, %d) = %q: %v", d, res, s, err)
		}
		if 2*max(p-d, d-p) > res {
			t.Fatalf("formatDurationAt(%d, %d) = %q reads %d: want within res/2", d, res, s, p)
		}
		if n := frame.FormatDurationAt(d+res, res); n == s {
			t.Fatalf("%d and %d both print %q at precision %d", d, d+res, s, res)
		}
		if neg := frame.FormatDurationAt(-d, res); d > 0 && neg != "-"+s {
			t.Fatalf("formatDurationAt(%d, %d) = %q, want -%s", -d, res, neg, s)
		}
	}
	for _, c := range []struct {
		d, res core.Time
		want   string
	}{
		{3_233_000_000, 1e9, "3.233s"},
		{3_233_000_123, 1, "3.233000123s"},
		{3_233_000_123, 1000, "3.233s"},
		{3_233_001_123, 1000, "3.233001s"},
		{2_500_000, 1e6, "2.5ms"},
		{950, 1e9, "950ns"},
		{12_500, 10, "12.5us"},
		{12_534, 1, "12.534us"},
		{0, 1, "0ns"},
		{9_999_999, 50_000, "10ms"},
		{999_999_999, 10_000, "1s"},
		{-999_999_999, 10_000, "-1s"},
	} {
		if got := frame.FormatDurationAt(c.d, c.res); got != c.want {
			t.Errorf("formatDurationAt(%d, %d) = %q, want %q", c.d, c.res, got, c.want)
		}
		if c.res >= 1e6 && core.FormatDuration(c.d) != c.want {
			t.Errorf("coarse precision of %d: %q, core.FormatDuration %q", c.d, c.want, core.FormatDuration(c.d))
		}
	}
}

// TestRulerLabelsDistinct: at every zoom down to a nanosecond per column,
// the ruler's tick labels differ from each other (the ruler read
// "3.233s 3.233s 3.233s" at ×65 536), as offsets and as absolute times
// (the T toggle), and fit between their ticks.
func TestRulerLabelsDistinct(t *testing.T) {
	rng := coretest.Rand(t)
	for range 300 {
		start := core.Time(rng.Int64N(2e18))
		traceSpan := core.Time(1e6 + rng.Int64N(1e12))
		cols := 20 + rng.IntN(300)
		span := max(core.Time(cols), traceSpan>>rng.IntN(40))
		t0 := start + core.Time(rng.Int64N(int64(traceSpan-span+1)))
		v := frame.Window{Start: start, End: start + traceSpan - 1, T0: t0, T1: t0 + span - 1, Cols: cols}
		for _, abs := range []bool{false, true} {
			sh := &ui.Shared{AbsTimes: abs}
			step := rulerStep(sh, v, cols)
			seen := map[string]core.Time{}
			for tk := firstTick(sh, v, step); tk <= v.T1; tk += step {
				base := v.Start
				if abs {
					base = 0
				}
				if (tk-base)%step != 0 {
					t.Fatalf("abs %v view %+v step %d: tick %d is not round", abs, v, step, tk)
				}
				lab := sh.TickLabel(v.Start, tk, step)
				if prev, ok := seen[lab]; ok {
					t.Fatalf("abs %v view %+v step %d: ticks %d and %d both read %q", abs, v, step, prev, tk, lab)
				}
				seen[lab] = tk
				if want := sh.RelTime(v.Start, tk, step); strings.TrimPrefix(want, "+") != lab || abs == strings.HasPrefix(want, "+") {
					t.Fatalf("abs %v: tick %d reads %q, the status line %q", abs, tk, lab, want)
				}
			}
		}
	}
}

// TestFormatTimestampAtPrecision: an absolute time printed precise to res
// is FormatTimestamp's digits rounded to res (within res/2, at least
// three decimals), and two instants res apart never print the same.
func TestFormatTimestampAtPrecision(t *testing.T) {
	rng := coretest.Rand(t)
	for range 5000 {
		tm := core.Time(rng.Int64N(4e18))
		res := core.Time(1)
		for range rng.IntN(13) {
			res *= 10
		}
		res *= core.Time(1 + rng.IntN(5))
		s := frame.FormatTimestampAt(tm, res)
		p, err := core.ParseTime(s, 0)
		if err != nil {
			t.Fatalf("formatTimestampAt(%d, %d) = %q: %v", tm, res, s, err)
		}
		if 2*max(p-tm, tm-p) > max(res, 1e6) {
			t.Fatalf("formatTimestampAt(%d, %d) = %q reads %d: want within res/2", tm, res, s, p)
		}
		if dot := strings.IndexByte(s, '.'); dot < 0 || len(s)-dot-1 < 3 {
			t.Fatalf("formatTimestampAt(%d, %d) = %q: want three decimals or more", tm, res, s)
		}
		if n := frame.FormatTimestampAt(tm+res, res); n == s {
			t.Fatalf("%d and %d both print %q at precision %d", tm, tm+res, s, res)
		}
	}
	// Instant and precision → print.
	examples := map[[2]core.Time]string{
		{1412670961_123456789, 1}:    "1412670961.123456789",
		{1412670961_123456789, 1000}: "1412670961.123457",
		{1412670961_123456789, 5e8}:  "1412670961.123",
		{1412670961_999999999, 1e6}:  "1412670962.000",
	}
	for in, want := range examples {
		if got := frame.FormatTimestampAt(in[0], in[1]); got != want {
			t.Errorf("formatTimestampAt(%d, %d) = %q, want %q", in[0], in[1], got, want)
		}
	}
}
