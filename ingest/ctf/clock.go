package ctf

import (
	"errors"
	"math"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// clockConv converts clock values (cycles) to nanoseconds from the
// clock's origin exactly as babeltrace2 2.0 does (bt_util_ns_from_origin):
// the offset in cycles is first folded into whole seconds, frequencies
// other than 1 GHz go through a float64 division, and values that do not
// fit an int64 are errors.
type clockConv struct {
	freq   uint64
	baseNS int64
}

var errClockRange = errors.New("clock value out of the int64 nanosecond range")

func newClockConv(c *tsdl.Clock) (clockConv, error) {
	freq := c.Freq
	offS := c.OffsetS
	cycles := uint64(c.Offset)
	if c.Offset < 0 {
		// A negative offset (section 8) borrows whole seconds so that
		// the cycles left are in [0, freq).
		neg := uint64(-(c.Offset + 1)) + 1 // |offset| without overflowing at MinInt64
		sec := neg/freq + 1
		if sec > math.MaxInt64 || offS < math.MinInt64+int64(sec) {
			return clockConv{}, errClockRange
		}
		offS -= int64(sec)
		cycles = sec*freq - neg // in (0, freq]: folded below when it is freq
	}
	if cycles >= freq {
		sec := cycles / freq
		if sec > math.MaxInt64 || (offS > 0 && int64(sec) > math.MaxInt64-offS) {
			return clockConv{}, errClockRange
		}
		offS += int64(sec)
		cycles -= sec * freq
	}
	if offS <= math.MinInt64/1_000_000_000-1 || offS >= math.MaxInt64/1_000_000_000-1 {
		return clockConv{}, errClockRange
	}
	return clockConv{freq: freq, baseNS: offS*1_000_000_000 + int64(nsFromCycles(freq, cycles))}, nil
}

// nsFromCycles is bt_util_ns_from_value.
func nsFromCycles(freq, v uint64) uint64 {
	if freq == 1_000_000_000 {
		return v
	}
	d := (1e9 * float64(v)) / float64(freq)
	if d >= float64(math.MaxUint64) {
		return math.MaxUint64
	}
	return uint64(d)
}

// ns returns the time of a clock value, or false when it overflows.
func (cv clockConv) ns(cycles uint64) (core.Time, bool) {
	v := nsFromCycles(cv.freq, cycles)
	if v >= math.MaxInt64 {
		return 0, false
	}
	if cv.baseNS > 0 && int64(v) > math.MaxInt64-cv.baseNS {
		return 0, false
	}
	return core.Time(cv.baseNS + int64(v)), true
}
