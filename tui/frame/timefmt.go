package frame

import (
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
)

// Times on screen carry the digits that tell apart the instants the
// screen can show: a ruler's ticks one step apart, the status line's
// bounds one column apart, a state interval's ends a hundredth of its
// duration apart. core.FormatDuration's three decimals read
// "3.233s 3.233s 3.233s" on a ruler zoomed to microseconds.

// durationUnits are FormatDuration's units, largest first.
var durationUnits = [...]struct {
	ns     core.Time
	digits int // decimals down to the nanosecond
	suffix string
}{{1e9, 9, "s"}, {1e6, 6, "ms"}, {1e3, 3, "us"}, {1, 0, "ns"}}

// FormatDurationAt prints d in the unit core.FormatDuration picks for its
// size, with at least its three decimals and as many more as it takes to
// tell apart two durations res apart (down to the nanosecond), rounded to
// the last digit printed and trailing zeros trimmed.
func FormatDurationAt(d, res core.Time) string {
	res = max(res, 1)
	neg := d < 0
	a := d
	if neg {
		a = -d
		if a < 0 { // MinTime
			return core.FormatDuration(d)
		}
	}
	u := durationUnits[len(durationUnits)-1]
	for _, x := range durationUnits {
		if a >= x.ns {
			u = x
			break
		}
	}
	dec, step := min(3, u.digits), u.ns
	for range dec {
		step /= 10
	}
	for dec < u.digits && step > res {
		dec, step = dec+1, step/10
	}
	if r := (a + step/2) / step * step; r != a {
		if u.digits > 0 && r >= 1000*u.ns && r > a { // 999.9996ms is 1s
			return FormatDurationAt(d+(r-a)*sign(d), res)
		}
		a = r
	}
	var sb strings.Builder
	if neg {
		sb.WriteByte('-')
	}
	sb.WriteString(strconv.FormatInt(int64(a/u.ns), 10))
	if dec > 0 {
		frac := strconv.FormatInt(int64(a%u.ns/step), 10)
		frac = strings.Repeat("0", dec-len(frac)) + frac
		if frac = strings.TrimRight(frac, "0"); frac != "" {
			sb.WriteByte('.')
			sb.WriteString(frac)
		}
	}
	sb.WriteString(u.suffix)
	return sb.String()
}

func sign(d core.Time) core.Time {
	if d < 0 {
		return -1
	}
	return 1
}

// FormatTimestampAt prints t as core.FormatTimestamp does (seconds, a
// point, decimals) with at least three decimals and as many more as it
// takes to tell apart two instants res apart, rounded to the last one.
func FormatTimestampAt(t, res core.Time) string {
	full := core.FormatTimestamp(t)
	unit, dec := core.Time(1e6), 3
	for dec < 9 && unit > max(res, 1) {
		unit, dec = unit/10, dec+1
	}
	if dec == 9 || t < 0 { // negative times are corrupt ones: all digits
		return full
	}
	if t > core.MaxTime-unit/2 { // rounding up would overflow
		return full
	}
	r := (t + unit/2) / unit * unit
	s := core.FormatTimestamp(r)
	return s[:len(s)-(9-dec)]
}

// RangeRes is the precision a range's bounds are printed with: a
// thousandth of the range, so the bounds of any range differ in print.
func RangeRes(from, to core.Time) core.Time { return max((to-from+1)/1000, 1) }

// IntervalRes is the precision of a state interval's ends: a hundredth
// of its duration, no coarser than a column.
func IntervalRes(iv core.Interval, col core.Time) core.Time {
	return max(min(iv.Duration()/100, col), 1)
}
