package kernel

import (
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// cpu mirrors the state of one CPUs/<n> attribute and its children.
type cpu struct {
	num     int32
	key     core.Key // CPUs/<n>, -1 until its status is first known
	curKey  core.Key // CPUs/<n>/Current_thread, -1 until known
	irqsKey core.Key // CPUs/<n>/IRQs, -1 until an IRQ is seen
	softKey core.Key // CPUs/<n>/Soft_IRQs, -1 until a soft IRQ is seen
	cur     int32    // current thread id, -1 unknown
	curTh   int32    // index of the current thread's record, -1 unknown
	idle    int32    // index of the record of "0_<n>", -1 until needed
	status  int8     // mirror of CPUs/<n> (core.CPUStatus or statusNull)
	mode    int8     // what the current thread runs: modeUnknown, modeUser, modeSyscall

	irqActive   int32 // IRQ handlers running (entered, not exited)
	softRunning int32 // soft IRQs running
	irqIdx      idMap // IRQ number -> index in irqs
	irqs        []irqState
	softIdx     idMap // vector -> index in softs
	softs       []softState
}

const (
	modeUnknown int8 = iota
	modeUser
	modeSyscall
)

type irqState struct {
	key    core.Key
	active bool
}

type softState struct {
	key     core.Key
	state   int8 // statusNull, CPUStatusSoftIRQ (running) or CPUStatusSoftIRQRaised
	pending bool // raised again while running: raised, not null, after the exit
}

// cpu returns the record of CPU n (0 <= n < maxCPUs), creating it.
func (a *Analysis) cpu(n int32) *cpu {
	if int(n) < len(a.cpus) {
		if c := a.cpus[n]; c != nil {
			return c
		}
	} else {
		a.cpus = append(a.cpus, make([]*cpu, int(n)+1-len(a.cpus))...)
	}
	c := &cpu{num: n, key: -1, curKey: -1, irqsKey: -1, softKey: -1, cur: -1, curTh: -1, idle: -1, status: statusNull}
	a.cpus[n] = c
	return c
}

// cpuKey returns the key of CPUs/<n>, creating it.
func (a *Analysis) cpuKey(c *cpu) core.Key {
	if c.key < 0 {
		if a.cpusKey < 0 {
			a.cpusKey = a.tree.Add(core.Root, core.AttrCPUs)
		}
		c.key = a.tree.Add(a.cpusKey, strconv.Itoa(int(c.num)))
	}
	return c.key
}

// currentThread returns the record of the thread running on c, or nil
// when unknown.
func (a *Analysis) currentThread(c *cpu) *thread {
	if c == nil || c.curTh < 0 {
		return nil
	}
	return a.threads.at(c.curTh)
}

// setCurrent makes thread tid the one running on c.
func (a *Analysis) setCurrent(c *cpu, tid int64) *thread {
	i := a.thread(tid, c.num)
	if i < 0 {
		return nil
	}
	c.cur, c.curTh = int32(tid), i
	if c.curKey < 0 {
		c.curKey = a.tree.Add(a.cpuKey(c), core.AttrCurrentThread)
	}
	a.modify(c.curKey, core.Int32(int32(tid)))
	return a.threads.at(i)
}

// updateCPU recomputes the CPU's status from what runs on it, as Trace
// Compass's getCpuStatus does: an IRQ handler, else a soft IRQ, else the
// current thread's mode (idle for the idle thread, null if unknown).
func (a *Analysis) updateCPU(c *cpu) {
	s := int8(statusNull)
	switch {
	case c.irqActive > 0:
		s = int8(core.CPUStatusIRQ)
	case c.softRunning > 0:
		s = int8(core.CPUStatusSoftIRQ)
	case c.mode == modeSyscall:
		s = int8(core.CPURunSyscall)
	case c.cur == 0:
		s = int8(core.CPUIdle)
	case c.mode == modeUser:
		s = int8(core.CPURunUser)
	}
	if s == c.status {
		return
	}
	c.status = s
	if s == statusNull {
		a.modify(c.key, core.Null()) // non-null before, so the key exists
		return
	}
	a.modify(a.cpuKey(c), core.Int32(int32(s)))
}

// adoptContext learns the thread running on c from a context field
// (ftrace's line prefix, perf_tid, an LTTng tid context), and fills the
// thread's PID from the matching process context. In a consistent trace
// the context names the thread the last sched_switch put on the CPU; it
// says more when no sched_switch has been seen yet on the CPU, or when
// the trace lacks scheduling events (a syscalls-only capture).
func (a *Analysis) adoptContext(c *cpu, ev *core.Event, p *classPlan) {
	tid, ok := intField(ev, p.ctxTID)
	if !ok {
		return
	}
	if tid != int64(c.cur) {
		a.replaceCurrent(c, tid)
	}
	if p.ctxPID >= 0 && tid == int64(c.cur) && tid > 0 {
		th := a.threads.at(c.curTh)
		if th.known&(1<<subPID) == 0 {
			if pid, ok := intField(ev, p.ctxPID); ok && pid > 0 && fitsInt32(pid) {
				a.setInt(th, subPID, int32(pid))
			}
		}
	}
}

// replaceCurrent makes tid the thread running on c without a
// sched_switch saying how the previous one left: the previous thread
// waits for an unknown reason (the idle thread for a CPU) and leaves c's
// run queue (Current_cpu_rq null: a lost switch says nothing of where it
// went); the new one, if its state was known, runs in the mode its last
// system call events left it in, as after a switch (otherwise the CPU's mode
// is unknown), and is on c's run queue.
func (a *Analysis) replaceCurrent(c *cpu, tid int64) {
	if i := a.thread(tid, c.num); i < 0 {
		return
	}
	if old := a.currentThread(c); old != nil {
		switch {
		case old.exiting: // a perf EXIT record: it is gone
			old.exiting = false
			a.setStatus(old, statusNull)
			a.setNull(old, subCPURQ)
		case c.cur == 0:
			a.setStatus(old, int8(core.ThreadWaitCPU))
		case old.status == int8(core.ThreadRunUser), old.status == int8(core.ThreadRunSyscall),
			old.status == int8(core.ThreadInterrupted):
			a.setStatus(old, int8(core.ThreadWaitUnknown))
			if old.known&(1<<subCPURQ) != 0 && old.num[subCPURQ] == c.num {
				a.setNull(old, subCPURQ) // where it went is unknown
			}
		}
	}
	th := a.setCurrent(c, tid)
	c.mode = modeUnknown
	if th.status != statusNull {
		c.mode = modeUser
		if th.inKernel() {
			c.mode = modeSyscall
		}
		a.setStatus(th, running(c, th))
	}
	a.setInt(th, subCPURQ, c.num)
	a.updateCPU(c)
}

// irq returns the state of IRQ n on c, creating it.
func (a *Analysis) irq(c *cpu, n int64) *irqState {
	if i := c.irqIdx.get(n); i >= 0 {
		return &c.irqs[i]
	}
	if c.irqsKey < 0 {
		c.irqsKey = a.tree.Add(a.cpuKey(c), core.AttrIRQs)
	}
	c.irqs = append(c.irqs, irqState{key: a.tree.Add(c.irqsKey, strconv.FormatInt(n, 10))})
	c.irqIdx.set(n, int32(len(c.irqs)-1))
	return &c.irqs[len(c.irqs)-1]
}

// soft returns the state of soft IRQ vector v on c, creating it.
func (a *Analysis) soft(c *cpu, v int64) *softState {
	if i := c.softIdx.get(v); i >= 0 {
		return &c.softs[i]
	}
	if c.softKey < 0 {
		c.softKey = a.tree.Add(a.cpuKey(c), core.AttrSoftIRQs)
	}
	c.softs = append(c.softs, softState{key: a.tree.Add(c.softKey, strconv.FormatInt(v, 10)), state: statusNull})
	c.softIdx.set(v, int32(len(c.softs)-1))
	return &c.softs[len(c.softs)-1]
}

// endLostInterrupts ends the interrupts still marked running on c when an
// event that only happens in thread context (a context switch, a system
// call entry or exit) shows that their exit events were lost.
func (a *Analysis) endLostInterrupts(c *cpu) {
	if c.irqActive == 0 && c.softRunning == 0 {
		return
	}
	for i := range c.irqs {
		if q := &c.irqs[i]; q.active {
			q.active = false
			a.modify(q.key, core.Null())
		}
	}
	for i := range c.softs {
		if s := &c.softs[i]; s.state == int8(core.CPUStatusSoftIRQ) {
			a.endSoft(s)
		}
	}
	c.irqActive, c.softRunning = 0, 0
}

// endSoft ends a running soft IRQ: raised if it was raised again while
// running, else null.
func (a *Analysis) endSoft(s *softState) {
	next := int8(statusNull)
	if s.pending {
		next = int8(core.CPUStatusSoftIRQRaised)
	}
	s.pending = false
	a.setSoft(s, next)
}

func (a *Analysis) setSoft(s *softState, v int8) {
	if s.state == v {
		return
	}
	s.state = v
	if v == statusNull {
		a.modify(s.key, core.Null())
		return
	}
	a.modify(s.key, core.Int32(int32(v)))
}
