package stats

import (
	"cmp"
	"slices"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/states/kernel/sysnames"
)

// neverReturn are the calls whose System_call interval is not a call's
// duration: the thread ends inside them.
var neverReturn = map[string]bool{"exit": true, "exit_group": true}

// syscallBatch counts each thread's complete System_call intervals, for
// the threads of a batch.
func (q *query) syscallBatch(rep *Report, a *accumulators, batch []threadKeys) {
	all, slow := a.calls, &a.slowCalls
	for i := range batch {
		th := &batch[i]
		if th.sys < 0 {
			continue
		}
		forkAt := q.forkTime(th) // a child's first call is its parent's fork: not its own
		mine := map[string]*callStats{}
		errs := q.row(th.sysErr) // in time order, as the calls
		for _, iv := range q.row(th.sys) {
			if iv.Value.IsNull() || !q.closed(iv) || iv.Start == forkAt {
				continue
			}
			name := iv.Value.Str()
			if neverReturn[name] {
				continue
			}
			outcome := "success"
			for len(errs) > 0 && errs[0].End <= iv.End {
				errs = errs[1:]
			}
			if len(errs) > 0 && errs[0].Contains(iv.End+1) && !errs[0].Value.IsNull() {
				outcome = sysnames.Errno(errs[0].Value.Int())
			}
			for _, m := range []map[string]*callStats{mine, all} {
				s := m[name]
				if s == nil {
					s = &callStats{returns: map[string]int64{}}
					m[name] = s
				}
				s.Add(iv.Duration())
				s.returns[outcome]++
			}
			slow.add(Occurrence{Name: name, TID: th.tid, CPU: -1, StartNS: int64(iv.Start), DurationNS: int64(iv.Duration())})
		}
		if len(mine) > 0 {
			rep.ThreadSyscalls = append(rep.ThreadSyscalls, ThreadSyscalls{TID: th.tid, Comm: q.comm(th.tid), Syscalls: syscallRows(mine)})
		}
	}
}

// syscallFinish lists the calls summed over every batch.
func (q *query) syscallFinish(rep *Report, a *accumulators) {
	rep.Syscalls = syscallRows(a.calls)
	slices.SortFunc(rep.ThreadSyscalls, func(a, b ThreadSyscalls) int { return cmp.Compare(a.TID, b.TID) })
	rep.Slowest.Syscalls = a.slowCalls.list
}

// callStats is a system call's durations and outcomes.
type callStats struct {
	Stats
	returns map[string]int64
}

// syscallRows lists per-name statistics by count, most frequent first.
func syscallRows(m map[string]*callStats) []SyscallRow {
	out := make([]SyscallRow, 0, len(m))
	for name, s := range m {
		out = append(out, SyscallRow{Name: name, Stats: s.Stats, Returns: s.returns})
	}
	slices.SortFunc(out, func(a, b SyscallRow) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// forkTime returns when a thread was forked (its PPID was first set), -1
// if not in the range.
func (q *query) forkTime(th *threadKeys) core.Time {
	if th.ppid >= 0 {
		for _, iv := range q.row(th.ppid) {
			if !iv.Value.IsNull() {
				return iv.Start
			}
		}
	}
	return -1
}
