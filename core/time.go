package core

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Time is a timestamp or a duration in nanoseconds.
type Time int64

// Time bounds usable as "no limit" in queries.
const (
	MinTime Time = math.MinInt64
	MaxTime Time = math.MaxInt64
)

// ErrBadTime is wrapped by [ParseTime] and [ParseDuration] errors.
var ErrBadTime = errors.New("bad time")

// timeUnits are tried in order: every two-letter suffix before the one-letter
// suffix it ends with.
var timeUnits = []struct {
	suffix string
	ns     float64
}{
	{"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"m", 60e9}, {"h", 3600e9},
}

// ParseDuration reads a duration: an integer count of nanoseconds ("1500")
// or a decimal number with a unit ns, us (or µs), ms, s, m, h ("12.5ms").
func ParseDuration(s string) (Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, fmt.Errorf("%w: empty", ErrBadTime)
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return Time(n), nil
	}
	num, mult := s, 0.0
	for _, u := range timeUnits { // ordered so "ms" is tried before "s" and "m"
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			num, mult = strings.TrimSpace(rest), u.ns
			break
		}
	}
	if mult == 0 {
		return 0, fmt.Errorf("%w: %q: want nanoseconds or a number with a unit (ns, us, ms, s, m, h)", ErrBadTime, s)
	}
	// Integers with a unit are exact; decimals go through float64, which
	// is exact to the nanosecond for any duration below ~104 days.
	if n, err := strconv.ParseInt(num, 10, 64); err == nil {
		if math.Abs(float64(n)*mult) >= math.MaxInt64 {
			return 0, fmt.Errorf("%w: %q: out of range", ErrBadTime, s)
		}
		return Time(n * int64(mult)), nil
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%w: %q: not a number", ErrBadTime, s)
	}
	v := math.Round(f * mult)
	if math.Abs(v) >= math.MaxInt64 {
		return 0, fmt.Errorf("%w: %q: out of range", ErrBadTime, s)
	}
	return Time(v), nil
}

// ParseTime reads a point in time given on the command line or typed in the
// browser. A leading '+' makes it relative to start ("+200us"); otherwise it
// is absolute: integer nanoseconds, a number with a unit ("12.5s"), or
// seconds with a fraction as the browser and dump print them
// ("1412670961.211260539").
func ParseTime(s string, start Time) (Time, error) {
	s = strings.TrimSpace(s)
	if rel, ok := strings.CutPrefix(s, "+"); ok {
		d, err := ParseDuration(rel)
		if err != nil {
			return 0, err
		}
		return start + d, nil
	}
	if sec, frac, ok := strings.Cut(s, "."); ok && isDigits(sec) && isDigits(frac) && len(frac) <= 9 {
		// Exact seconds.nanoseconds, no float rounding on epoch times.
		n, err := strconv.ParseInt(sec, 10, 64)
		f, _ := strconv.ParseInt(frac+strings.Repeat("0", 9-len(frac)), 10, 64)
		if err != nil || n > (math.MaxInt64-f)/1_000_000_000 {
			return 0, fmt.Errorf("%w: %q: out of range", ErrBadTime, s)
		}
		return Time(n*1e9 + f), nil
	}
	return ParseDuration(s)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// FormatDuration prints d with an adaptive unit and up to three significant
// decimals ("950ns", "12.5us", "3.007ms", "2.25s"), for rulers and status
// lines.
func FormatDuration(d Time) string {
	neg := d < 0
	a := float64(d)
	if neg {
		a = -a
	}
	var s string
	switch {
	case a < 1e3:
		s = strconv.FormatInt(int64(a), 10) + "ns"
	case a < 1e6:
		s = trimFloat(a/1e3) + "us"
	case a < 1e9:
		s = trimFloat(a/1e6) + "ms"
	default:
		s = trimFloat(a/1e9) + "s"
	}
	if neg {
		return "-" + s
	}
	return s
}

func trimFloat(v float64) string {
	s := strconv.FormatFloat(v, 'f', 3, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// FormatTimestamp prints t as seconds with nine decimals, the way
// babeltrace2 --clock-seconds does ("1412670961.211260539").
func FormatTimestamp(t Time) string {
	return string(AppendTimestamp(nil, t))
}

// AppendTimestamp appends [FormatTimestamp] of t to dst without allocating.
func AppendTimestamp(dst []byte, t Time) []byte {
	if t < 0 {
		dst = append(dst, '-')
		if t == MinTime {
			return append(dst, "9223372036.854775808"...)
		}
		t = -t
	}
	dst = strconv.AppendInt(dst, int64(t/1e9), 10)
	dst = append(dst, '.')
	frac := int64(t % 1e9)
	for div := int64(1e8); div > 0; div /= 10 {
		dst = append(dst, byte('0'+frac/div%10))
	}
	return dst
}
