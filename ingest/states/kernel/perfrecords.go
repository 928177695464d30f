package kernel

import (
	"github.com/tracetui/tracetui/core"
)

// perf.data's side-band records, as ingest/perfdata delivers them: the
// thread context, then perf_comm {pid, tid, comm, exec}, perf_fork and
// perf_exit {pid, ppid, tid, ptid}, perf_switch {out, preempt,
// next_prev_pid, next_prev_tid}.

// Field slots of the side-band handlers (hPerfFork uses fork's slots).
const (
	// perf_comm
	sCommPID, sCommTID, sCommName = 0, 1, 2
	// perf_exit
	sExitTID = 0
	// perf_switch
	sSwOut, sSwPreempt, sSwOther = 0, 1, 2
)

// perfDataFields are the side-band records' fields by handler, added to
// the ftrace layout's.
func perfDataFields() [numHandlers][numSlots]string {
	f := linuxFields
	f[hPerfComm] = [numSlots]string{"pid", "tid", "comm"}
	f[hPerfFork] = [numSlots]string{"", "ptid", "ppid", "", "tid", "pid"}
	f[hPerfExit] = [numSlots]string{"tid"}
	f[hPerfSwitch] = [numSlots]string{"out", "preempt", "next_prev_tid"}
	return f
}

// perfDataLayout is the ftrace layout (perf.data's tracepoints are named
// and fielded as trace.dat's) plus the side-band records; with switches,
// perf_switch and perf_exit records set thread and CPU states (a trace
// without a sched_switch tracepoint), else they are ignored (sched_switch
// says it all, prev_state included).
func perfDataLayout(name string, switches bool) *Layout {
	l := *LayoutFtrace
	l.name = name
	l.events = withEvents(linuxTracepoints(false), "perf_comm", hPerfComm, "perf_fork", hPerfFork)
	delete(l.events, "task_newtask") // not read from perf.data so far (clone flags come from its raw syscalls)
	if switches {
		l.events["perf_switch"] = hPerfSwitch
		l.events["perf_exit"] = hPerfExit
	}
	l.fields = perfDataFields()
	l.sideband = "perf_"
	return &l
}

// The layouts of perf.data files (ingest/perfdata), chosen by [Detect].
var (
	// LayoutPerfData reads a perf.data file without a sched_switch
	// tracepoint: the ftrace layout for its tracepoints, COMM, FORK and
	// EXIT records name and parent threads, and SWITCH records
	// (--switch-events) give on- and off-CPU states.
	LayoutPerfData = perfDataLayout("perfdata", true)
	// LayoutPerfDataSched reads a perf.data file with sched_switch
	// tracepoints: as LayoutPerfData, but SWITCH records are ignored.
	LayoutPerfDataSched = perfDataLayout("perfdata-sched", false)
)

// perfComm: the thread's name is the record's comm (an exec's or a
// prctl's), its PID the record's pid.
func (a *Analysis) perfComm(c *cpu, ev *core.Event, p *classPlan) {
	tid, ok := intField(ev, p.f[sCommTID])
	if !ok || tid <= 0 {
		return
	}
	i := a.thread(tid, cpuNum(c))
	if i < 0 {
		return
	}
	th := a.threads.at(i)
	a.setExecName(th, textField(ev, p.f[sCommName]))
	if pid, ok := intField(ev, p.f[sCommPID]); ok && pid > 0 && fitsInt32(pid) {
		a.setInt(th, subPID, int32(pid))
	}
}

// perfFork: a thread is created, as sched_process_fork (with the process
// ids); perf's synthesized records for the threads that existed when it
// started (their context's thread 0) give only the parent and process.
func (a *Analysis) perfFork(c *cpu, ev *core.Event, p *classPlan) {
	if tid, ok := intField(ev, p.sbTID); ok && tid == 0 {
		child, ok1 := intField(ev, p.f[sChildTID])
		parent, ok2 := intField(ev, p.f[sParentTID])
		pid, ok3 := intField(ev, p.f[sChildPID])
		if !ok1 || child <= 0 {
			return
		}
		i := a.thread(child, cpuNum(c))
		if i < 0 {
			return
		}
		th := a.threads.at(i)
		if ok2 && parent > 0 && fitsInt32(parent) {
			a.setInt(th, subPPID, int32(parent))
		}
		if ok3 && pid > 0 && fitsInt32(pid) {
			a.setInt(th, subPID, int32(pid))
		}
		return
	}
	if tid, ok := intField(ev, p.f[sChildTID]); ok {
		if i := a.knownThread(tid, -1); i >= 0 {
			a.threads.at(i).exiting = false // a tid reused
		}
	}
	a.fork(c, ev, p)
	a.linkFork(c, ev, p)
}

// perfExit: the thread is exiting. When CPU-wide switches are recorded
// (perf record -a --switch-events), its last switch out will come: it is
// marked so that this switch (or the next thread seen on its CPU) leaves
// it with a null status, as a sched_switch with prev_state dead does.
// Otherwise (a per-thread recording: its events end with it) its status
// becomes null now, and its CPU's thread unknown.
func (a *Analysis) perfExit(c *cpu, ev *core.Event, p *classPlan) {
	tid, ok := intField(ev, p.f[sExitTID])
	if !ok || tid <= 0 {
		return
	}
	i := a.knownThread(tid, cpuNum(c))
	if i < 0 {
		return
	}
	th := a.threads.at(i)
	if c != nil && a.cpuWideSwitch {
		th.exiting = true
		return
	}
	a.setStatus(th, statusNull)
	a.setNull(th, subCPURQ)
	if c != nil && c.curTh == i {
		c.cur, c.curTh, c.mode = -1, -1, modeUnknown
		a.updateCPU(c)
	}
}

// perfSwitch: a SWITCH record (or SWITCH_CPU_WIDE, which also names the
// other thread). Out: the thread in the context leaves the CPU, waiting
// for it if preempted, else blocked (null if it exited); the next thread
// runs if the record names it, else the CPU's thread is unknown. In: the
// thread in the context (adopted before this handler) runs.
func (a *Analysis) perfSwitch(c *cpu, ev *core.Event, p *classPlan) {
	out, _ := intField(ev, p.f[sSwOut])
	if c == nil {
		a.perfSwitchThread(ev, p, out != 0)
		return
	}
	if out == 0 {
		a.endLostInterrupts(c)
		if th := a.currentThread(c); th != nil {
			a.runOn(c, th)
		}
		return
	}
	a.endLostInterrupts(c)
	if prev := a.currentThread(c); prev != nil {
		a.switchedOut(prev, ev, p)
	}
	next, ok := intField(ev, p.f[sSwOther])
	a.cpuWideSwitch = a.cpuWideSwitch || ok
	if !ok || next < 0 {
		c.cur, c.curTh, c.mode = -1, -1, modeUnknown
		a.updateCPU(c)
		return
	}
	if th := a.setCurrent(c, next); th != nil {
		a.runOn(c, th)
	} else {
		c.cur, c.curTh, c.mode = -1, -1, modeUnknown
		a.updateCPU(c)
	}
}

// switchedOut sets the status of a thread a SWITCH record takes off its
// CPU: waiting for one if preempted, else blocked; null if it exited.
func (a *Analysis) switchedOut(th *thread, ev *core.Event, p *classPlan) {
	preempt, _ := intField(ev, p.f[sSwPreempt])
	switch {
	case th.exiting:
		th.exiting = false
		a.setStatus(th, statusNull)
		a.setNull(th, subCPURQ)
	case preempt != 0:
		a.setStatus(th, int8(core.ThreadWaitCPU))
	default:
		a.setStatus(th, int8(core.ThreadWaitBlocked))
		a.setNull(th, subCPURQ)
	}
}

// perfSwitchThread handles a SWITCH record without a CPU (a per-thread
// recording without PERF_SAMPLE_CPU): only the thread of its context
// changes, running (in its system call, if any) or off its CPU.
func (a *Analysis) perfSwitchThread(ev *core.Event, p *classPlan, out bool) {
	tid, ok := intField(ev, p.ctxTID)
	if !ok || tid <= 0 {
		return
	}
	i := a.thread(tid, -1)
	if i < 0 {
		return
	}
	th := a.threads.at(i)
	if out {
		a.switchedOut(th, ev, p)
		return
	}
	a.setStatus(th, running(nil, th))
}

// runOn makes th, the current thread of c, run there: in its system call
// or user mode.
func (a *Analysis) runOn(c *cpu, th *thread) {
	a.setStatus(th, running(c, th))
	a.setInt(th, subCPURQ, c.num)
	c.mode = modeUser
	if th.inKernel() {
		c.mode = modeSyscall
	}
	a.updateCPU(c)
}

// cpuNum returns c's number, -1 for nil.
func cpuNum(c *cpu) int32 {
	if c == nil {
		return -1
	}
	return c.num
}
