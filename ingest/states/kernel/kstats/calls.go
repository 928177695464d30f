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

// Calls is one thread's system calls by name, in the order first made: a
// slice searched from the start, not a map (a thread makes a few kinds
// of calls; at 50 000 threads the maps and their entries were a good
// part of the index build's collections).
type Calls []NamedCalls

// NamedCalls is the calls of one name.
type NamedCalls struct {
	Name string
	CallStats
}

// Add records one call of name that lasted d and ended with outcome
// ("success" or an errno name).
func (c *Calls) Add(name, outcome string, d core.Time) {
	i := 0
	for i < len(*c) && (*c)[i].Name != name {
		i++
	}
	if i == len(*c) {
		*c = append(*c, NamedCalls{Name: name})
	}
	s := &(*c)[i].CallStats
	s.Add(d)
	s.count(outcome, 1)
}

// MergeCalls adds one thread's calls (from) to the trace's (into).
func MergeCalls(into map[string]*CallStats, from Calls) {
	for i := range from {
		s := &from[i]
		t := into[s.Name]
		if t == nil {
			t = &CallStats{}
			into[s.Name] = t
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
		out = append(out, s.row(name))
	}
	sortSyscallRows(out)
	return out
}

// Rows is [SyscallRows] of a thread's calls.
func (c Calls) Rows() []SyscallRow {
	out := make([]SyscallRow, 0, len(c))
	for i := range c {
		out = append(out, c[i].row(c[i].Name))
	}
	sortSyscallRows(out)
	return out
}

func (s *CallStats) row(name string) SyscallRow {
	returns := make(Outcomes, len(s.returns))
	for i, o := range s.returns {
		returns[i] = Outcome{Name: o.name, N: o.n}
	}
	slices.SortFunc(returns, func(a, b Outcome) int { return cmp.Compare(a.Name, b.Name) })
	return SyscallRow{Name: name, Stats: s.Stats, Returns: returns}
}

func sortSyscallRows(rows []SyscallRow) {
	slices.SortFunc(rows, func(a, b SyscallRow) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name))
	})
}
