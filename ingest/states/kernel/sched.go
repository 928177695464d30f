package kernel

import (
	"github.com/tracetui/tracetui/core"
)

// schedSwitch: the previous thread leaves the CPU (its status from
// prev_state), the next one runs on it (Trace Compass's
// SchedSwitchHandler).
func (a *Analysis) schedSwitch(c *cpu, ev *core.Event, p *classPlan) {
	if c == nil {
		return
	}
	prevTID, ok1 := intField(ev, p.f[sPrevTID])
	nextTID, ok2 := intField(ev, p.f[sNextTID])
	if !ok1 || !ok2 {
		return
	}
	a.endLostInterrupts(c)
	if pi := a.thread(prevTID, c.num); pi >= 0 {
		prev := a.threads.at(pi)
		status, runnable := prevStatus(ev.Field(int(p.f[sPrevState])))
		a.setStatus(prev, status)
		if !runnable {
			a.setNull(prev, subCPURQ) // off every run queue until woken
		}
		a.setExecName(prev, textField(ev, p.f[sPrevComm]))
		if prio, ok := intField(ev, p.f[sPrevPrio]); ok && fitsInt32(prio) {
			a.setInt(prev, subPrio, int32(prio))
		}
	}
	next := a.setCurrent(c, nextTID)
	if next == nil {
		c.cur, c.curTh, c.mode = -1, -1, modeUnknown
		a.updateCPU(c)
		return
	}
	a.setStatus(next, running(c, next))
	a.setInt(next, subCPURQ, c.num)
	a.setExecName(next, textField(ev, p.f[sNextComm]))
	if prio, ok := intField(ev, p.f[sNextPrio]); ok && fitsInt32(prio) {
		a.setInt(next, subPrio, int32(prio))
	}
	c.mode = modeUser
	if next.inKernel() {
		c.mode = modeSyscall
	}
	a.updateCPU(c)
}

// wakeup (sched_wakeup, sched_waking, sched_wakeup_new): the thread is
// runnable, so it waits for a CPU unless it is already on one; it is
// queued on target_cpu (Trace Compass's SchedWakeupHandler).
func (a *Analysis) wakeup(ev *core.Event, p *classPlan) {
	tid, ok := intField(ev, p.f[sWakeTID])
	if !ok || tid <= 0 {
		return
	}
	i := a.thread(tid, -1)
	if i < 0 {
		return
	}
	th := a.threads.at(i)
	switch core.ThreadStatus(th.status) {
	case core.ThreadRunUser, core.ThreadRunSyscall, core.ThreadInterrupted:
	default:
		a.setStatus(th, int8(core.ThreadWaitCPU))
	}
	if target, ok := intField(ev, p.f[sWakeTarget]); ok && target >= 0 && target < maxCPUs {
		a.setInt(th, subCPURQ, int32(target))
	}
	if a.layout.wakeupPrio {
		if prio, ok := intField(ev, p.f[sWakePrio]); ok && fitsInt32(prio) {
			a.setInt(th, subPrio, int32(prio))
		}
	}
	a.fillExecName(th, textField(ev, p.f[sWakeComm]))
}

// fork: the child gets its name, PPID (the forking thread, as in Trace
// Compass), PID when the tracer records it, the parent's current system
// call, and waits for a CPU (Trace Compass's ProcessForkHandler).
func (a *Analysis) fork(c *cpu, ev *core.Event, p *classPlan) {
	childTID, ok := intField(ev, p.f[sChildTID])
	if !ok || childTID <= 0 {
		return
	}
	cpuNum := int32(-1)
	if c != nil {
		cpuNum = c.num
	}
	ci := a.thread(childTID, cpuNum)
	if ci < 0 {
		return
	}
	var parent *thread
	parentTID, ok := intField(ev, p.f[sParentTID])
	if ok {
		if pi := a.thread(parentTID, cpuNum); pi >= 0 {
			parent = a.threads.at(pi)
		}
	}
	child := a.threads.at(ci) // after creating the parent: the record may move
	if ok && parentTID >= 0 && fitsInt32(parentTID) {
		a.setInt(child, subPPID, int32(parentTID))
	}
	if name := textField(ev, p.f[sChildComm]); len(cutNUL(name)) > 0 {
		a.setExecName(child, name)
	} else if parent != nil && parent.known&(1<<subExecName) != 0 {
		a.setValue(child, subExecName, a.sink.Value(parent.sub[subExecName]))
	}
	if pid, ok := intField(ev, p.f[sChildPID]); ok && pid > 0 && fitsInt32(pid) {
		a.setInt(child, subPID, int32(pid))
	} else if pid, ok := a.clones.childPID(parentTID, childTID, parent); ok {
		a.setInt(child, subPID, pid)
	}
	a.setStatus(child, int8(core.ThreadWaitCPU))
	if parent != nil {
		a.setSyscall(child, parent.sys)
		a.fillExecName(parent, textField(ev, p.f[sParentComm]))
		if pid, ok := intField(ev, p.f[sParentPID]); ok && pid > 0 && fitsInt32(pid) {
			a.fillInt(parent, subPID, int32(pid))
		}
	}
}

// exec: the thread's name becomes the base name of the executed file.
func (a *Analysis) exec(c *cpu, ev *core.Event, p *classPlan) {
	th := a.subject(c, ev, p.f[sExecTID])
	if th == nil {
		return
	}
	a.setExecName(th, baseName(textField(ev, p.f[sExecFile])))
	if !th.execed {
		th.execed = true
		if c != nil && a.currentThread(c) == th && th.status != statusNull {
			a.runOn(c, th) // a kernel thread's child now runs user code
		}
	}
	// After exec the thread leads its process (a non-leader that execs
	// takes the leader's id): its tid is the process id.
	tid, ok := intField(ev, p.f[sExecTID])
	if !ok && c != nil {
		tid, ok = int64(c.cur), true
	}
	if ok && tid > 0 && fitsInt32(tid) {
		a.setInt(th, subPID, int32(tid))
	}
}

// exit: the thread is still running (its last sched_switch gives its
// status); only a missing name is filled.
func (a *Analysis) exit(c *cpu, ev *core.Event, p *classPlan) {
	if th := a.subject(c, ev, p.f[sProcTID]); th != nil {
		a.fillExecName(th, textField(ev, p.f[sProcComm]))
	}
}

// free: the thread is gone; its attribute and every sub-attribute become
// null (Trace Compass's ProcessFreeHandler removes the attribute).
func (a *Analysis) free(c *cpu, ev *core.Event, p *classPlan) {
	tid, ok := intField(ev, p.f[sProcTID])
	if !ok || tid <= 0 {
		return
	}
	i := a.knownThread(tid, -1)
	if i < 0 {
		return
	}
	th := a.threads.at(i)
	a.setStatus(th, statusNull)
	th.sys = -1
	for s := range numSubs {
		a.setNull(th, s)
	}
}

// piSetprio: priority inheritance changed the thread's priority.
func (a *Analysis) piSetprio(c *cpu, ev *core.Event, p *classPlan) {
	th := a.subject(c, ev, p.f[sPiTID])
	if th == nil {
		return
	}
	if prio, ok := intField(ev, p.f[sPiPrio]); ok && fitsInt32(prio) {
		a.setInt(th, subPrio, int32(prio))
	}
}

// migrate: the thread moves to dest_cpu's run queue.
func (a *Analysis) migrate(ev *core.Event, p *classPlan) {
	tid, ok := intField(ev, p.f[sMigTID])
	dest, ok2 := intField(ev, p.f[sMigDest])
	if !ok || !ok2 || tid <= 0 || dest < 0 || dest >= maxCPUs {
		return
	}
	if i := a.thread(tid, -1); i >= 0 {
		a.setInt(a.threads.at(i), subCPURQ, int32(dest))
	}
}

// subject returns the thread an event is about: the one named by its tid
// field, else the one running on its CPU.
func (a *Analysis) subject(c *cpu, ev *core.Event, tidField int16) *thread {
	cpuNum := int32(-1)
	if c != nil {
		cpuNum = c.num
	}
	if tid, ok := intField(ev, tidField); ok {
		if i := a.thread(tid, cpuNum); i >= 0 {
			return a.threads.at(i)
		}
		return nil
	}
	return a.currentThread(c)
}

// Linux task state bits, as sched_switch's prev_state reports them in
// kernels before 4.14 (the values Trace Compass decodes).
const (
	taskInterruptible   = 1
	taskUninterruptible = 2
	exitDead            = 16 // EXIT_DEAD: what kernels >= 4.14 report for a task's last switch
	taskDead            = 64
	// taskPreempted are the bits kernels or-ed into a preempted task's
	// state: TASK_STATE_MAX before 4.1 (1024, later TASK_NOLOAD), 4.1-4.10
	// (2048) and 4.11-4.13 (4096). Trace Compass masks them.
	taskPreempted = 1024 | 2048 | 4096
	taskNoload    = 1024
)

// prevStatus decides the status of a thread leaving its CPU, from
// sched_switch's prev_state, as Trace Compass's setOldProcessStatus does:
// runnable (0, ignoring the preemption bits) waits for a CPU and stays on
// its run queue; (un)interruptible sleep is blocked; TASK_DEAD or
// EXIT_DEAD leaves a null status (the thread has exited); anything else
// (EXIT_ZOMBIE included) waits for an unknown reason. ftrace's letters
// ("R", "R+", "S", "D|K", "I"...) are mapped to the same bits first.
func prevStatus(f core.Field) (status int8, runnable bool) {
	var state int64
	switch f.Kind {
	case core.FieldInt, core.FieldUint, core.FieldEnum:
		state = f.Int
	case core.FieldString:
		state = stateLetters(f.Bytes)
	default:
		return int8(core.ThreadWaitUnknown), false
	}
	state &^= taskPreempted
	switch {
	case state == 0:
		return int8(core.ThreadWaitCPU), true
	case state&(taskInterruptible|taskUninterruptible) != 0:
		return int8(core.ThreadWaitBlocked), false
	case state&(taskDead|exitDead) != 0:
		return statusNull, false
	}
	return int8(core.ThreadWaitUnknown), false
}

// stateLetters maps ftrace's prev_state letters to task state bits.
// Unknown letters map to a bit of their own, so they read as "wait
// unknown" rather than runnable.
func stateLetters(b []byte) int64 {
	b = cutNUL(b)
	if len(b) == 0 {
		return 1 << 20
	}
	var s int64
	for _, ch := range b {
		switch ch {
		case 'R', '+', '|', ' ': // running; '+' marks preemption
		case 'S':
			s |= taskInterruptible
		case 'D':
			s |= taskUninterruptible
		case 'T':
			s |= 4 // __TASK_STOPPED
		case 't':
			s |= 8 // __TASK_TRACED
		case 'X':
			s |= exitDead
		case 'Z':
			s |= 32 // EXIT_ZOMBIE
		case 'x':
			s |= taskDead
		case 'K':
			s |= 128 // TASK_WAKEKILL
		case 'W':
			s |= 256 // TASK_WAKING
		case 'P':
			s |= 512 // TASK_PARKED
		case 'N':
			s |= taskNoload
		case 'I':
			s |= taskUninterruptible | taskNoload // TASK_IDLE
		default:
			s |= 1 << 20
		}
	}
	return s
}
