package kernel

import (
	"github.com/tracetui/tracetui/core"
)

// LTTng statedump process statuses (lttng-modules' lttng_process_status).
const (
	dumpWaitCPU = 2 // LTTNG_WAIT_CPU: runnable
	dumpWait    = 5 // LTTNG_WAIT: sleeping
)

// statedump (lttng_statedump_process_state) fills what is still unknown
// of a thread that existed when tracing started: its name, PID, PPID (the
// process's parent for a process leader, the leader for another thread)
// and status, as Trace Compass's StateDumpHandler does. It never replaces
// a value events have already given.
func (a *Analysis) statedump(c *cpu, ev *core.Event, p *classPlan) {
	tid, ok := intField(ev, p.f[sDumpTID])
	if !ok {
		return
	}
	cpuNum := int32(-1)
	if n, ok := intField(ev, p.f[sDumpCPU]); ok && n >= 0 && n < maxCPUs {
		cpuNum = int32(n)
	} else if c != nil {
		cpuNum = c.num
	}
	i := a.thread(tid, cpuNum)
	if i < 0 {
		return
	}
	th := a.threads.at(i)
	a.fillExecName(th, textField(ev, p.f[sDumpName]))
	pid, okPID := intField(ev, p.f[sDumpPID])
	if okPID && fitsInt32(pid) {
		a.fillInt(th, subPID, int32(pid))
	}
	if ppid, ok := intField(ev, p.f[sDumpPPID]); ok && okPID {
		parent := ppid
		if pid != tid {
			parent = pid
		}
		if fitsInt32(parent) {
			a.fillInt(th, subPPID, int32(parent))
		}
	}
	if th.status == statusNull {
		s := core.ThreadUnknown
		if st, ok := intField(ev, p.f[sDumpStatus]); ok {
			switch st {
			case dumpWaitCPU:
				s = core.ThreadWaitCPU
			case dumpWait:
				// What it waits for is not known (unlike after a
				// sched_switch), hence "wait unknown", not "blocked".
				s = core.ThreadWaitUnknown
			}
		}
		a.setStatus(th, int8(s))
	}
}
