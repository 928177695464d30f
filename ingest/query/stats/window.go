package stats

import "github.com/tracetui/tracetui/ingest/states/kernel/kstats"

// A thread of more intervals in the range than a batch's budget is read
// a window of time at a time (readAhead), so that the memory of a
// `stats` over a range does not grow with its busiest thread: the
// analyses go through each window's rows in turn, keeping what a thread's
// row whole would have given them so far (threadRun), and add the
// thread's rows after the last window.

// threadRun is what the analyses keep of a thread between its windows.
type threadRun struct {
	sched schedRun
	calls kstats.Calls
	prios []int32
}

// windowAnalyses runs the analyses of parts over a window of time of one
// thread's rows, and adds the thread's rows at the last window. Once
// Compute is cancelled it stops (Compute returns the context's error).
func (q *query) windowAnalyses(rep *Report, a *accumulators, parts Part, th *threadKeys, win *window, run *threadRun) {
	if parts&PartCPU != 0 && th.prio >= 0 {
		run.prios = appendPrios(run.prios, q.row(th.prio))
	}
	if parts&PartSyscalls != 0 && th.sys >= 0 && !q.syscallRow(a, th, win, &run.calls) {
		return
	}
	if parts&PartSched != 0 && !q.schedWindow(a, th, win, &run.sched) {
		return
	}
	if win.i < win.n-1 {
		return
	}
	if i, ok := a.usageAt[th.tid]; ok && parts&PartCPU != 0 {
		rep.CPUUsage.Threads[i].Prios = run.prios
	}
	if parts&PartSyscalls != 0 && th.sys >= 0 {
		q.syscallEnd(rep, a, th, run.calls)
	}
	if parts&PartSched != 0 {
		q.schedEnd(rep, a, th, &run.sched)
	}
}
