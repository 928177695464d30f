package kstats

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
)

// Report ends every followed state at end (the history's last instant,
// as history.Builder.EndStates does) and returns the whole trace's
// report: what stats.Compute returns for [start, end+1) with Top r.top
// and every part; nil when it followed too many threads (MaxThreads).
// Call it once, after the analyses' last change.
func (r *Recorder) Report(end core.Time) *Report {
	rep, threads, cpus := r.finishStates(end)
	if rep == nil {
		return nil
	}
	r.cpuUsage(rep, cpus, float64(end+1-r.start))
	r.syscalls(rep, threads)
	r.schedLatency(rep, threads)
	r.interrupts(rep, cpus)
	// the report holds what is needed: the followed states are garbage
	r.stop()
	return rep
}

// Encode returns the section of the report [Recorder.Report] returns
// (the bytes of [Encode] of it, with top), nil when it followed too many
// threads. The system calls' tables, most of a report at tens of
// thousands of threads, are summed and encoded on a goroutine of their
// own beside the rest: the index build waits for the section with a core
// idle. Call it once, in place of Report.
func (r *Recorder) Encode(end core.Time, top int) ([]byte, error) {
	rep, threads, cpus := r.finishStates(end)
	if rep == nil {
		return nil, nil
	}
	calls := &enc{}
	summed := make(chan struct{})
	go func() {
		defer close(summed)
		r.syscalls(rep, threads) // reads the threads and r.byTID; writes only its own fields of rep
		calls.reportCalls(rep)
	}()
	r.cpuUsage(rep, cpus, float64(end+1-r.start))
	r.schedLatency(rep, threads)
	r.interrupts(rep, cpus)
	head, tail := &enc{}, &enc{}
	head.reportHead(rep)
	tail.reportTail(rep)
	<-summed
	r.stop()
	body := &enc{b: make([]byte, 0, len(head.b)+len(calls.b)+len(tail.b)+4<<10)}
	body.b = append(append(append(body.b, head.b...), calls.b...), tail.b...)
	body.reportSlowest(rep) // the system calls' list is the goroutine's
	return encodeBody(body.b, top)
}

// finishStates ends every followed state at end (the history's last instant,
// as history.Builder.EndStates does) and returns the report to fill with
// the threads and CPUs in the attribute tree's order (stats.Compute's);
// a nil report when the recorder stopped (MaxThreads).
func (r *Recorder) finishStates(end core.Time) (*Report, []*thread, []*cpu) {
	r.drain()
	if r.off {
		return nil, nil, nil
	}
	r.flush()
	for k, tr := range r.tracks {
		if tr != nil {
			r.ended(tr, core.Interval{Key: core.Key(k), Start: tr.since, End: end, Value: tr.value}, false)
		}
	}
	at := r.Attributes()
	var threads []*thread
	if k := r.root(0, core.AttrThreads); k >= 0 {
		at.EachChild(k, func(c core.Key) {
			if th := r.thread(c); th != nil {
				threads = append(threads, th)
			}
		})
	}
	var cpus []*cpu
	if k := r.root(1, core.AttrCPUs); k >= 0 {
		at.EachChild(k, func(c core.Key) {
			if cp := r.cpu(c); cp != nil {
				cpus = append(cpus, cp)
			}
		})
	}
	return &Report{FromNS: int64(r.start), ToNS: int64(end) + 1}, threads, cpus
}

// comm returns a thread's last name ("" unknown).
func (r *Recorder) comm(tid int32) string {
	if th := r.byTID[tid]; th != nil {
		return th.name.Str()
	}
	return ""
}

// pid returns a thread's process id, or its tid and false when the trace
// does not say.
func (r *Recorder) pid(tid int32) (int32, bool) {
	if th := r.byTID[tid]; th != nil {
		if v := th.pid; v.Kind() == core.KindInt32 || v.Kind() == core.KindInt64 {
			return int32(v.Int()), true
		}
	}
	return tid, false
}

func (r *Recorder) cpuUsage(rep *Report, cpus []*cpu, span float64) {
	pct := func(ns int64) float64 { return float64(ns) * 100 / span }
	// the stretches before the CPUs' first switches come first in the
	// order of moves, then the runs (usage.firstCPU on)
	seedCPU := map[int32]int32{}
	seedMoves := map[int32]int64{}
	for _, c := range cpus {
		if c.seed == nil {
			continue
		}
		u := r.usage(c.seed.tid)
		u.ns += c.seed.ns
		c.ns += c.seed.ns
		if last, ok := seedCPU[c.seed.tid]; ok && last != c.num {
			seedMoves[c.seed.tid]++
		}
		seedCPU[c.seed.tid] = c.num
	}
	for _, c := range cpus {
		rep.CPUUsage.CPUs = append(rep.CPUUsage.CPUs, CPURow{CPU: c.num, NS: c.ns, Percent: pct(c.ns)})
	}
	tids := make([]int32, 0, len(r.use))
	for tid := range r.use {
		tids = append(tids, tid)
	}
	slices.Sort(tids)
	procs := map[int32]*ProcessUsage{}
	for _, tid := range tids {
		u := r.use[tid]
		moves := u.migrations + seedMoves[tid]
		if last, ok := seedCPU[tid]; ok && u.ran && last != u.firstCPU {
			moves++
		}
		tu := ThreadUsage{TID: tid, NS: u.ns, Percent: pct(u.ns), Migrations: moves, Comm: r.comm(tid)}
		var known bool
		tu.PID, known = r.pid(tid)
		if th := r.byTID[tid]; th != nil && th.hasPrio {
			tu.Prios = slices.Clone(th.prios)
		}
		rep.CPUUsage.Threads = append(rep.CPUUsage.Threads, tu)
		if known {
			AddToProcess(procs, tu, r.comm)
		}
	}
	rep.CPUUsage.Processes = ProcessRows(procs, pct)
	SortUsage(&rep.CPUUsage)
}

// AddToProcess adds a thread's CPU time to its process's row in procs,
// made when first met and named comm(pid), else after the thread.
func AddToProcess(procs map[int32]*ProcessUsage, tu ThreadUsage, comm func(int32) string) {
	p := procs[tu.PID]
	if p == nil {
		p = &ProcessUsage{PID: tu.PID, Comm: comm(tu.PID)}
		procs[tu.PID] = p
	}
	if p.Comm == "" {
		p.Comm = tu.Comm
	}
	p.NS += tu.NS
	p.Threads = append(p.Threads, tu.TID)
}

// ProcessRows returns the rows of procs, each with its percent of the
// range (pct) and its threads in order.
func ProcessRows(procs map[int32]*ProcessUsage, pct func(int64) float64) []ProcessUsage {
	out := make([]ProcessUsage, 0, len(procs))
	for _, p := range procs {
		p.Percent = pct(p.NS)
		slices.Sort(p.Threads)
		out = append(out, *p)
	}
	return out
}

// SortUsage puts the busiest threads and processes first.
func SortUsage(u *CPUUsage) {
	slices.SortFunc(u.Threads, func(a, b ThreadUsage) int {
		return cmp.Or(cmp.Compare(b.NS, a.NS), cmp.Compare(a.TID, b.TID))
	})
	slices.SortFunc(u.Processes, func(a, b ProcessUsage) int {
		return cmp.Or(cmp.Compare(b.NS, a.NS), cmp.Compare(a.PID, b.PID))
	})
}

func (r *Recorder) syscalls(rep *Report, threads []*thread) {
	all := map[string]*CallStats{}
	for _, th := range threads {
		if !th.hasSys {
			continue
		}
		MergeCalls(all, th.calls)
		if len(th.calls) > 0 {
			rep.ThreadSyscalls = append(rep.ThreadSyscalls, ThreadSyscalls{TID: th.tid, Comm: r.comm(th.tid), Syscalls: th.calls.Rows()})
		}
	}
	rep.Syscalls = SyscallRows(all)
	slices.SortFunc(rep.ThreadSyscalls, func(a, b ThreadSyscalls) int { return cmp.Compare(a.TID, b.TID) })
	rep.Slowest.Syscalls = r.slowCalls.List(nil)
}

func (r *Recorder) schedLatency(rep *Report, threads []*thread) {
	procs := map[int32]*LatencyRow{}
	for _, th := range threads {
		if th.sched.Count == 0 {
			continue
		}
		pid, known := r.pid(th.tid)
		AddLatency(rep, procs, LatencyRow{TID: th.tid, PID: pid, Comm: r.comm(th.tid), Stats: th.sched}, known, r.comm)
	}
	for _, p := range procs {
		rep.ProcessLatency = append(rep.ProcessLatency, *p)
	}
	SortLatency(rep)
	rep.Slowest.SchedLatency = r.slowSched.List(func(o Occurrence, _ int8, _ int64) string { return ThreadName(r.comm(o.TID), o.TID) })
}

// AddLatency adds a thread's wake-up latency row to rep and, when the
// trace says its process (known), merges it into the process's row in
// procs, made when first met and named comm(pid), else after the thread.
func AddLatency(rep *Report, procs map[int32]*LatencyRow, row LatencyRow, known bool, comm func(int32) string) {
	rep.SchedLatency = append(rep.SchedLatency, row)
	if !known {
		return // no process row made up from one thread
	}
	p := procs[row.PID]
	if p == nil {
		p = &LatencyRow{TID: row.PID, PID: row.PID, Comm: comm(row.PID)}
		if p.Comm == "" {
			p.Comm = row.Comm
		}
		procs[row.PID] = p
	}
	p.Merge(&row.Stats)
}

// SortLatency puts the threads and processes with the worst latency first.
func SortLatency(rep *Report) {
	byMax := func(a, b LatencyRow) int { return cmp.Or(cmp.Compare(b.MaxNS, a.MaxNS), cmp.Compare(a.TID, b.TID)) }
	slices.SortFunc(rep.SchedLatency, byMax)
	slices.SortFunc(rep.ProcessLatency, byMax)
}

// ThreadName formats "comm (tid)" for occurrence names.
func ThreadName(comm string, tid int32) string {
	var b strings.Builder
	b.WriteString(comm)
	b.WriteString(" (")
	b.WriteString(strconv.Itoa(int(tid)))
	b.WriteString(")")
	return b.String()
}

func (r *Recorder) interrupts(rep *Report, cpus []*cpu) {
	hard, soft, raise := map[int64]*Stats{}, map[int64]*Stats{}, map[int64]*Stats{}
	for _, c := range cpus {
		MergeIRQs(hard, c.hard)
		MergeIRQs(soft, c.soft)
		MergeIRQs(raise, c.raise)
	}
	hardName := func(n int64) string {
		v := core.Null()
		if p := r.irqNames[n]; p != nil {
			v = *p
		}
		return HardName(n, v)
	}
	rep.IRQs = append(IRQRows(KindHard, hard, hardName), IRQRows(KindSoft, soft, SoftName)...)
	rep.SoftRaise = IRQRows(KindSoft, raise, SoftName)
	name := func(o Occurrence, kind int8, n int64) string { return IRQOccurrenceName(kind, n, hardName) }
	rep.Slowest.IRQs, rep.Slowest.SoftRaise = r.slowIRQ.List(name), r.slowRaise.List(name)
}
