package kstats

import (
	"strconv"
	"unicode/utf8"
)

// The report's text lines are appended field by field, as fmt would
// print them with the verbs named below: at 50 000 threads the text is
// 34 MB, and fmt's Fprintf took most of a whole-trace `stats`
// (TestTextLinesAsFmt checks each against fmt).

// line is a text line being made.
type line []byte

// left appends s padded with spaces to w runes (fmt's %-ws).
func (l line) left(s string, w int) line {
	l = append(l, s...)
	return l.pad(w - utf8.RuneCountInString(s))
}

// right appends s padded on its left with spaces to w runes (%ws).
func (l line) right(s string, w int) line {
	return append(l.pad(w-utf8.RuneCountInString(s)), s...)
}

// int appends v right-aligned in w bytes (%wd).
func (l line) int(v int64, w int) line {
	var d [20]byte
	s := strconv.AppendInt(d[:0], v, 10)
	return append(l.pad(w-len(s)), s...)
}

// fixed appends v with p decimals right-aligned in w bytes (%w.pf).
func (l line) fixed(v float64, p, w int) line {
	var d [32]byte
	s := strconv.AppendFloat(d[:0], v, 'f', p, 64)
	return append(l.pad(w-len(s)), s...)
}

// micros appends ns in µs with 3 decimals right-aligned in w bytes, as
// fixed(float64(ns)/1e3, 3, w) does: below 2^51 ns (26 days) the double
// is exact and its quotient by 1e3 within half a thousandth of the
// exact one (its ulp is below 0.001 up to 2^43 µs), so it rounds back to
// the integer's digits, written as they are (strconv's float formatting
// was a third of the text's time).
func (l line) micros(ns int64, w int) line {
	if ns <= -1<<51 || ns >= 1<<51 {
		return l.fixed(float64(ns)/1e3, 3, w)
	}
	var d [24]byte
	u := ns
	if u < 0 {
		u = -u
	}
	s := strconv.AppendInt(d[:0], u/1000, 10)
	f := u % 1000
	s = append(s, '.', byte('0'+f/100), byte('0'+f/10%10), byte('0'+f%10))
	if ns < 0 {
		l = l.pad(w - len(s) - 1)
		return append(append(l, '-'), s...)
	}
	return append(l.pad(w-len(s)), s...)
}

func (l line) pad(n int) line {
	for ; n > 0; n-- {
		l = append(l, ' ')
	}
	return l
}

// appendStatsLine appends the line of statsLine: "%-32s %8d %12.3f
// %12.3f %12.3f %12s %14.3f\n" of the name, count, min, mean, max, stdev
// ("?" below two values) and total, in µs.
func appendStatsLine(l line, name string, s *Stats) line {
	l = l.left(name, 32).pad(1).int(s.Count, 8).pad(1)
	l = l.micros(s.MinNS, 12).pad(1).fixed(s.MeanNS/1e3, 3, 12).pad(1).micros(s.MaxNS, 12).pad(1)
	if s.Count > 1 {
		l = l.fixed(s.StdevNS/1e3, 3, 12)
	} else {
		l = l.right("?", 12) // lttng-analyses' mark for fewer than two values
	}
	return append(l.pad(1).micros(s.TotalNS, 14), '\n')
}

// appendWho appends a thread's name as lttng-analyses writes it, "comm
// (pid, TID: tid)", the pid left out when negative.
func appendWho(l line, comm string, pid, tid int32) line {
	l = append(append(l, comm...), " ("...)
	if pid >= 0 {
		l = append(strconv.AppendInt(l, int64(pid), 10), ", "...)
	}
	return append(strconv.AppendInt(append(l, "TID: "...), int64(tid), 10), ')')
}

// appendUsageLine appends a thread's CPU usage line: "%-32s %8.2f %8.3f
// %10d  %v\n" of its name, percent, ms, migrations and priorities.
func appendUsageLine(l line, t *ThreadUsage) line {
	var name [64]byte
	l = l.left(string(appendWho(name[:0], t.Comm, t.PID, t.TID)), 32).pad(1)
	l = l.fixed(t.Percent, 2, 8).pad(1).fixed(float64(t.NS)/1e6, 3, 8).pad(1).int(t.Migrations, 10).pad(2)
	l = append(l, '[')
	for i, p := range t.Prios {
		if i > 0 {
			l = append(l, ' ')
		}
		l = strconv.AppendInt(l, int64(p), 10)
	}
	return append(l, "]\n"...)
}
