package kstats

import (
	"cmp"
	"slices"

	"github.com/tracetui/tracetui/core"
)

// NeverReturn are the calls whose System_call interval is not a call's
// duration: the thread ends inside them.
var NeverReturn = map[string]bool{"exit": true, "exit_group": true}

// CallStats is a system call's durations and outcomes (a slice, not a
// map: a thread's table of calls is most of the index build's memory at
// tens of thousands of threads, and a call has one to three outcomes).
type CallStats struct {
	Stats
	returns []outcome
}

type outcome struct {
	name string
	n    int64
}

func (s *CallStats) count(name string, n int64) {
	for i := range s.returns {
		if s.returns[i].name == name {
			s.returns[i].n += n
			return
		}
	}
	s.returns = append(s.returns, outcome{name, n})
}

// AddCall records one call of name that lasted d and ended with outcome
// ("success" or an errno name).
func AddCall(m map[string]*CallStats, name, outcome string, d core.Time) {
	s := m[name]
	if s == nil {
		s = &CallStats{}
		m[name] = s
	}
	s.Add(d)
	s.count(outcome, 1)
}

// MergeCalls adds one thread's calls (from) to the trace's (into).
func MergeCalls(into, from map[string]*CallStats) {
	for name, s := range from {
		t := into[name]
		if t == nil {
			t = &CallStats{}
			into[name] = t
		}
		t.Merge(&s.Stats)
		for _, o := range s.returns {
			t.count(o.name, o.n)
		}
	}
}

// SyscallRows lists per-name statistics by count, most frequent first.
func SyscallRows(m map[string]*CallStats) []SyscallRow {
	out := make([]SyscallRow, 0, len(m))
	for name, s := range m {
		returns := make(map[string]int64, len(s.returns))
		for _, o := range s.returns {
			returns[o.name] = o.n
		}
		out = append(out, SyscallRow{Name: name, Stats: s.Stats, Returns: returns})
	}
	slices.SortFunc(out, func(a, b SyscallRow) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name))
	})
	return out
}
