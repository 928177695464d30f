package analyses

import (
	"cmp"
	"slices"

	"github.com/tracetui/tracetui/core"
)

// run is one stretch of a thread on a CPU.
type run struct {
	start core.Time
	cpu   int32
}

// cpuUsage charges each CPU's Current_thread intervals to their thread
// (tid 0, the idle thread, to nobody).
func (q *query) cpuUsage(rep *Report) {
	span := float64(q.to - q.from)
	pct := func(ns int64) float64 { return float64(ns) * 100 / span }
	byTID := map[int32]*ThreadUsage{}
	runs := map[int32][]run{}
	for _, c := range q.cpus {
		row := CPURow{CPU: c.num}
		if c.cur >= 0 {
			for _, iv := range q.rows[c.cur] {
				if iv.Value.IsNull() || iv.Value.Int() <= 0 {
					continue
				}
				ns := q.clip(iv)
				if ns == 0 {
					continue
				}
				tid := int32(iv.Value.Int())
				u := byTID[tid]
				if u == nil {
					u = &ThreadUsage{TID: tid}
					byTID[tid] = u
				}
				u.NS += ns
				row.NS += ns
				runs[tid] = append(runs[tid], run{iv.Start, c.num})
			}
		}
		row.Percent = pct(row.NS)
		rep.CPUUsage.CPUs = append(rep.CPUUsage.CPUs, row)
	}
	procs := map[int32]*ProcessUsage{}
	for tid, u := range byTID {
		u.PID, u.Comm, u.Percent = q.pid(tid), q.comm(tid), pct(u.NS)
		r := runs[tid]
		slices.SortFunc(r, func(a, b run) int { return cmp.Compare(a.start, b.start) })
		for i := 1; i < len(r); i++ {
			if r[i].cpu != r[i-1].cpu {
				u.Migrations++
			}
		}
		u.Prios = q.prios(tid)
		rep.CPUUsage.Threads = append(rep.CPUUsage.Threads, *u)
		p := procs[u.PID]
		if p == nil {
			p = &ProcessUsage{PID: u.PID, Comm: q.comm(u.PID)}
			procs[u.PID] = p
		}
		if p.Comm == "" {
			p.Comm = u.Comm
		}
		p.NS += u.NS
		p.Threads = append(p.Threads, tid)
	}
	for _, p := range procs {
		p.Percent = pct(p.NS)
		slices.Sort(p.Threads)
		rep.CPUUsage.Processes = append(rep.CPUUsage.Processes, *p)
	}
	slices.SortFunc(rep.CPUUsage.Threads, func(a, b ThreadUsage) int {
		return cmp.Or(cmp.Compare(b.NS, a.NS), cmp.Compare(a.TID, b.TID))
	})
	slices.SortFunc(rep.CPUUsage.Processes, func(a, b ProcessUsage) int {
		return cmp.Or(cmp.Compare(b.NS, a.NS), cmp.Compare(a.PID, b.PID))
	})
}

// prios lists the distinct priorities a thread had in the range.
func (q *query) prios(tid int32) []int32 {
	th := q.byTID[tid]
	if th == nil || th.prio < 0 {
		return nil
	}
	var out []int32
	for _, iv := range q.rows[th.prio] {
		if !iv.Value.IsNull() && !slices.Contains(out, int32(iv.Value.Int())) {
			out = append(out, int32(iv.Value.Int()))
		}
	}
	return out
}
