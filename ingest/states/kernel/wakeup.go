package kernel

import (
	"github.com/tracetui/tracetui/core"
)

// Wake-up links: for every wait of every thread, what ended it, in
// Threads/<tid>/Waker (see [core.AttrWaker]). The rules are Trace
// Compass's execution-graph builder (critical-path guide §3.4-3.5):
//
//   - a wake-up (sched_waking, sched_wakeup, sched_wakeup_new) of a thread
//     that was asleep (wait blocked), or not known yet, records the
//     innermost interrupt context of the event's CPU: hard IRQ n, soft IRQ
//     vector v, hrtimer expiry; with no context, the CPU's current thread
//     (the idle thread as tid 0), or "unknown" when no sched_switch told
//     which thread runs there. A wake-up of a thread already runnable
//     records nothing, so when a trace has both sched_waking and
//     sched_wakeup the first (waking, on the waker's CPU) wins: the LTTng
//     >= 2.8 rule.
//   - sched_process_fork records the forking thread in the child.
//   - the link stays until the thread's next wake-up (its interval's start
//     says which wait it ended), or until it is freed (null).
//   - the interrupt context is a per-CPU stack: an entry pushes, an exit
//     pops only a top of the same kind; unlike Trace Compass, a
//     sched_switch empties it (no switch happens inside a handler, so an
//     entry left there lost its exit), as the state analysis does with
//     the interrupts it shows running.
//
// These functions only add to what sched.go and irq.go do, so the state
// rules and the link rules evolve apart.

// ctxKind is the kind of an interrupt context on a CPU's stack.
type ctxKind uint8

const (
	ctxIRQ ctxKind = iota + 1
	ctxSoftIRQ
	ctxTimer
)

// maxContextDepth bounds a CPU's context stack: real nesting is a few
// levels (softirq, irq, timer); entries beyond it (a corrupt trace with
// entries and no exits) are not pushed.
const maxContextDepth = 16

type wakeContext struct {
	kind ctxKind
	num  int32 // IRQ number or soft IRQ vector
}

// wakeLinks is the analysis's state for wake-up links.
type wakeLinks struct {
	keys []core.Key      // Waker key per thread index, 0 until created (never the root)
	set  []bool          // per thread index: the Waker holds a value
	alt  []bool          // per thread index: Alt of its last link
	ctx  [][]wakeContext // interrupt context stack per CPU number
	off  bool            // record no links (benchmarks measure their cost)
}

// wakeupLinked handles a wake-up: the state change (sched.go), then the
// link if the thread was asleep.
func (a *Analysis) wakeupLinked(c *cpu, ev *core.Event, p *classPlan) {
	tid, ok := intField(ev, p.f[sWakeTID])
	if !ok || tid <= 0 {
		a.wakeup(ev, p)
		return
	}
	asleep := true // a thread first seen as a wake-up target was asleep
	if i := a.knownThread(tid, -1); i >= 0 {
		switch core.ThreadStatus(a.threads.at(i).status) {
		case core.ThreadWaitBlocked, core.ThreadUnknown:
		default:
			asleep = a.threads.at(i).status == statusNull
		}
	}
	a.wakeup(ev, p)
	if !asleep {
		return
	}
	if i := a.knownThread(tid, -1); i >= 0 {
		a.setWaker(i, a.wakerOn(c))
	}
}

// wakerOn says who wakes a thread from an event on CPU c: the innermost
// interrupt context, else the current thread.
func (a *Analysis) wakerOn(c *cpu) core.Waker {
	if c == nil {
		return core.Waker{Kind: core.WakerUnknown, CPU: -1}
	}
	w := core.Waker{Kind: core.WakerUnknown, CPU: c.num}
	if int(c.num) < len(a.links.ctx) {
		if st := a.links.ctx[c.num]; len(st) > 0 {
			top := st[len(st)-1]
			switch top.kind {
			case ctxIRQ:
				w.Kind, w.ID = core.WakerIRQ, top.num
			case ctxSoftIRQ:
				w.Kind, w.ID = core.WakerSoftIRQ, top.num
			case ctxTimer:
				w.Kind = core.WakerTimer
			}
			return w
		}
	}
	if c.cur >= 0 {
		w.Kind, w.ID = core.WakerThread, c.cur
	}
	return w
}

// linkFork records the forking thread in the child.
func (a *Analysis) linkFork(c *cpu, ev *core.Event, p *classPlan) {
	child, ok1 := intField(ev, p.f[sChildTID])
	parent, ok2 := intField(ev, p.f[sParentTID])
	if !ok1 || !ok2 || child <= 0 || parent < 0 || !fitsInt32(parent) {
		return
	}
	cpuNum := int32(-1)
	if c != nil {
		cpuNum = c.num
	}
	if i := a.knownThread(child, -1); i >= 0 {
		a.setWaker(i, core.Waker{Kind: core.WakerFork, ID: int32(parent), CPU: cpuNum})
	}
}

// linkSwitch empties c's interrupt context stack.
func (a *Analysis) linkSwitch(c *cpu) {
	if c != nil && int(c.num) < len(a.links.ctx) {
		a.links.ctx[c.num] = a.links.ctx[c.num][:0]
	}
}

// linkFree clears a freed thread's link.
func (a *Analysis) linkFree(ev *core.Event, p *classPlan) {
	if tid, ok := intField(ev, p.f[sProcTID]); ok && tid > 0 {
		if i := a.knownThread(tid, -1); i >= 0 {
			a.clearWaker(i)
		}
	}
}

// pushContext enters an interrupt context on c (IRQ number or soft IRQ
// vector from the event's number field).
func (a *Analysis) pushContext(c *cpu, ev *core.Event, p *classPlan, k ctxKind) {
	if c == nil || a.links.off {
		return
	}
	var num int64
	if k != ctxTimer {
		var ok bool
		if num, ok = intField(ev, p.f[sNumber]); !ok || !fitsInt32(num) {
			return
		}
	}
	for int(c.num) >= len(a.links.ctx) {
		a.links.ctx = append(a.links.ctx, nil)
	}
	if st := a.links.ctx[c.num]; len(st) < maxContextDepth {
		a.links.ctx[c.num] = append(st, wakeContext{kind: k, num: int32(num)})
	}
}

// popContext leaves the innermost context of c if it is of kind k (an
// exit whose entry was not seen is ignored).
func (a *Analysis) popContext(c *cpu, k ctxKind) {
	if c == nil || int(c.num) >= len(a.links.ctx) {
		return
	}
	if st := a.links.ctx[c.num]; len(st) > 0 && st[len(st)-1].kind == k {
		a.links.ctx[c.num] = st[:len(st)-1]
	}
}

// setWaker writes thread i's link.
func (a *Analysis) setWaker(i int32, w core.Waker) {
	if a.links.off {
		return
	}
	for int(i) >= len(a.links.keys) {
		a.links.keys = append(a.links.keys, 0)
		a.links.set = append(a.links.set, false)
		a.links.alt = append(a.links.alt, false)
	}
	if a.links.keys[i] == 0 {
		a.links.keys[i] = a.tree.AddID(a.threads.at(i).key, a.subID(subWaker))
	}
	a.links.set[i] = true
	a.links.alt[i] = !a.links.alt[i]
	w.Alt = a.links.alt[i]
	a.modify(a.links.keys[i], w.Value())
}

// clearWaker nulls thread i's link if it holds one.
func (a *Analysis) clearWaker(i int32) {
	if int(i) < len(a.links.set) && a.links.set[i] {
		a.links.set[i] = false
		a.modify(a.links.keys[i], core.Null())
	}
}
