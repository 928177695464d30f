package kstats

import (
	"cmp"
	"slices"

	"github.com/tracetui/tracetui/core"
)

// NeverReturn are the calls whose System_call interval is not a call's
// duration: the thread ends inside them.
var NeverReturn = map[string]bool{"exit": true, "exit_group": true}

// CallStats is a system call's durations and outcomes.
type CallStats struct {
	Stats
	Returns map[string]int64
}

// AddCall records one call of name that lasted d and ended with outcome
// ("success" or an errno name).
func AddCall(m map[string]*CallStats, name, outcome string, d core.Time) {
	s := m[name]
	if s == nil {
		s = &CallStats{Returns: map[string]int64{}}
		m[name] = s
	}
	s.Add(d)
	s.Returns[outcome]++
}

// MergeCalls adds one thread's calls (from) to the trace's (into).
func MergeCalls(into, from map[string]*CallStats) {
	for name, s := range from {
		t := into[name]
		if t == nil {
			t = &CallStats{Returns: map[string]int64{}}
			into[name] = t
		}
		t.Merge(&s.Stats)
		for o, n := range s.Returns {
			t.Returns[o] += n
		}
	}
}

// SyscallRows lists per-name statistics by count, most frequent first.
func SyscallRows(m map[string]*CallStats) []SyscallRow {
	out := make([]SyscallRow, 0, len(m))
	for name, s := range m {
		out = append(out, SyscallRow{Name: name, Stats: s.Stats, Returns: s.Returns})
	}
	slices.SortFunc(out, func(a, b SyscallRow) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name))
	})
	return out
}
