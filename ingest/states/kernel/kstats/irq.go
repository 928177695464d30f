package kstats

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// The kinds of interrupt: Worst's tie-breaker and IRQRow.Kind.
const (
	KindHard int8 = iota
	KindSoft
)

// AddIRQ records one interrupt interval of IRQ or vector n on cpu in m
// and w.
func AddIRQ(m map[int64]*Stats, w *Worst, kind int8, n int64, cpu int32, iv core.Interval) {
	s := m[n]
	if s == nil {
		s = &Stats{}
		m[n] = s
	}
	s.Add(iv.Duration())
	w.Add(Occurrence{TID: -1, CPU: cpu, StartNS: int64(iv.Start), DurationNS: int64(iv.Duration())}, kind, n)
}

// MergeIRQs adds one CPU's statistics (from) to the trace's (into).
func MergeIRQs(into, from map[int64]*Stats) {
	for n, s := range from {
		t := into[n]
		if t == nil {
			t = &Stats{}
			into[n] = t
		}
		t.Merge(s)
	}
}

// IRQOccurrenceName names an interrupt occurrence: "irq 30 i915",
// "softirq TIMER"; hardName names hard IRQ n.
func IRQOccurrenceName(kind int8, n int64, hardName func(int64) string) string {
	if kind == KindSoft {
		return "softirq " + SoftName(n)
	}
	return "irq " + IRQRow{Kind: "hard", IRQ: n, Name: hardName(n)}.Label()
}

// IRQRows lists per-number statistics by number.
func IRQRows(kind int8, m map[int64]*Stats, name func(int64) string) []IRQRow {
	k := "hard"
	if kind == KindSoft {
		k = "soft"
	}
	out := make([]IRQRow, 0, len(m))
	for n, s := range m {
		out = append(out, IRQRow{Kind: k, IRQ: n, Name: name(n), Stats: *s})
	}
	slices.SortFunc(out, func(a, b IRQRow) int { return cmp.Compare(a.IRQ, b.IRQ) })
	return out
}

// HardName names hard IRQ n by its handler's name, or by its number when
// the trace does not say ("" or not a string).
func HardName(n int64, v core.Value) string {
	if v.Kind() == core.KindString && v.Str() != "" {
		return v.Str()
	}
	return strconv.FormatInt(n, 10)
}
