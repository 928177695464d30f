package kernel

import (
	"github.com/tracetui/tracetui/core"
)

// sysEntry: the running thread enters a system call (Trace Compass's
// SysEntryHandler). A raw entry (a number, no name) does not replace the
// name a named entry of the same call gave.
func (a *Analysis) sysEntry(c *cpu, ev *core.Event, p *classPlan) {
	if c == nil {
		return
	}
	a.endLostInterrupts(c)
	c.mode = modeSyscall
	if th := a.currentThread(c); th != nil {
		id := p.sys
		if id < 0 {
			if th.sys >= 0 {
				id = th.sys // a named entry of this call came first
			} else if n, ok := intField(ev, p.f[sNumber]); ok {
				id = a.rawSysID(n)
			} else {
				id = a.sysID("unknown")
			}
		}
		a.setSyscall(th, id)
		a.noteClone(c, th, ev, p)
		a.setNull(th, subSysError) // the previous call's failure is over
		a.setStatus(th, int8(core.ThreadRunSyscall))
	}
	a.updateCPU(c)
}

// sysExit: the running thread is back in user mode (SysExitHandler); a
// failed call's return value goes to System_call_error.
func (a *Analysis) sysExit(c *cpu, ev *core.Event, p *classPlan) {
	if c == nil {
		return
	}
	a.endLostInterrupts(c)
	c.mode = modeUser
	if th := a.currentThread(c); th != nil {
		if ret, ok := intField(ev, p.f[sRet]); ok && ret < 0 && ret >= -4095 && th.sys >= 0 {
			a.setInt(th, subSysError, int32(ret))
		}
		a.setSyscall(th, -1)
		a.endClone(c)
		a.setStatus(th, int8(core.ThreadRunUser))
	}
	a.updateCPU(c)
}

// irqEntry: IRQ n runs on the CPU, interrupting the current thread
// (IrqEntryHandler).
func (a *Analysis) irqEntry(c *cpu, ev *core.Event, p *classPlan) {
	n, ok := intField(ev, p.f[sNumber])
	if c == nil || !ok {
		return
	}
	a.setIRQName(n, textField(ev, p.f[sIRQName]))
	q := a.irq(c, n)
	if !q.active {
		q.active = true
		c.irqActive++
		a.modify(q.key, core.Int32(int32(core.CPUStatusIRQ)))
	}
	a.interrupt(c)
}

// irqExit: IRQ n is done; the thread resumes unless another interrupt
// still runs on the CPU (IrqExitHandler).
func (a *Analysis) irqExit(c *cpu, ev *core.Event, p *classPlan) {
	n, ok := intField(ev, p.f[sNumber])
	if c == nil || !ok {
		return
	}
	if i := c.irqIdx.get(n); i >= 0 {
		if q := &c.irqs[i]; q.active {
			q.active = false
			c.irqActive--
			a.modify(q.key, core.Null())
		}
	}
	a.resume(c)
}

// softRaise: soft IRQ vec is pending on the CPU (SoftIrqRaiseHandler).
// Raised while it runs, it stays shown running and becomes raised at its
// exit.
func (a *Analysis) softRaise(c *cpu, ev *core.Event, p *classPlan) {
	v, ok := intField(ev, p.f[sNumber])
	if c == nil || !ok {
		return
	}
	s := a.soft(c, v)
	if s.state == int8(core.CPUStatusSoftIRQ) {
		s.pending = true
		return
	}
	a.setSoft(s, int8(core.CPUStatusSoftIRQRaised))
}

// softEntry: soft IRQ vec runs, interrupting the current thread
// (SoftIrqEntryHandler).
func (a *Analysis) softEntry(c *cpu, ev *core.Event, p *classPlan) {
	v, ok := intField(ev, p.f[sNumber])
	if c == nil || !ok {
		return
	}
	s := a.soft(c, v)
	if s.state != int8(core.CPUStatusSoftIRQ) {
		c.softRunning++
	}
	s.pending = false
	a.setSoft(s, int8(core.CPUStatusSoftIRQ))
	a.interrupt(c)
}

// softExit: soft IRQ vec is done (SoftIrqExitHandler).
func (a *Analysis) softExit(c *cpu, ev *core.Event, p *classPlan) {
	v, ok := intField(ev, p.f[sNumber])
	if c == nil || !ok {
		return
	}
	if i := c.softIdx.get(v); i >= 0 {
		s := &c.softs[i]
		if s.state == int8(core.CPUStatusSoftIRQ) {
			c.softRunning--
		}
		a.endSoft(s)
	}
	a.resume(c)
}

// interrupt marks the CPU's current thread interrupted and updates the
// CPU's status.
func (a *Analysis) interrupt(c *cpu) {
	if th := a.currentThread(c); th != nil {
		a.setStatus(th, int8(core.ThreadInterrupted))
	}
	a.updateCPU(c)
}

// resume gives the current thread its running status back (still
// interrupted if another handler runs) and updates the CPU's status.
func (a *Analysis) resume(c *cpu) {
	if th := a.currentThread(c); th != nil {
		a.setStatus(th, running(c, th))
	}
	a.updateCPU(c)
}
