package critpath

import (
	"fmt"

	"github.com/tracetui/tracetui/core"
)

// State is the kind of a segment of the path (Trace Compass's edge types).
type State uint8

// States, in legend order.
const (
	Running     State = iota // on a CPU
	Preempted                // runnable, waiting for a CPU
	Interrupted              // woken from IRQ 0 or the SCHED soft IRQ
	Blocked                  // asleep, no waker known
	Timer                    // woken by a timer
	Network                  // woken by a network soft IRQ
	BlockDevice              // woken by a block I/O soft IRQ
	UserInput                // never produced from kernel events
	IPI                      // never produced (Trace Compass ignores IPI events)
	Unknown                  // no information
	numStates
)

var stateNames = [numStates]string{"running", "preempted", "interrupted", "blocked", "timer", "network",
	"block_device", "user_input", "ipi", "unknown"}

// String returns the state's name as the JSON output and the legend use.
func (s State) String() string {
	if s < numStates {
		return stateNames[s]
	}
	return fmt.Sprintf("state%d", s)
}

// States lists every state, in legend order.
func States() []State {
	out := make([]State, numStates)
	for i := range out {
		out[i] = State(i)
	}
	return out
}

// statusState maps a thread status to the state of its edge, for every
// status but wait blocked (typed by its waker, [wokenState]). ok is false
// for null: no edge, the worker does not exist then.
func statusState(v core.Value) (s State, ok bool) {
	if v.IsNull() {
		return 0, false
	}
	if v.Kind() != core.KindInt32 {
		return Unknown, true
	}
	switch core.ThreadStatus(v.Int()) {
	case core.ThreadRunUser, core.ThreadRunSyscall, core.ThreadInterrupted:
		return Running, true
	case core.ThreadWaitCPU:
		return Preempted, true
	case core.ThreadWaitBlocked:
		return Blocked, true
	}
	return Unknown, true
}

// wokenState types a sleep from what ended it (guide §3.5), with the
// reason shown next to it. link is true when the waker is a thread whose
// history explains the sleep.
func wokenState(w core.Waker, ok bool) (s State, reason string, link bool) {
	if !ok {
		return Blocked, "no wake-up seen", false
	}
	switch w.Kind {
	case core.WakerThread, core.WakerFork:
		return Blocked, "", true
	case core.WakerTimer:
		return Timer, "hrtimer", false
	case core.WakerIRQ:
		if w.ID == 0 {
			return Interrupted, "IRQ 0", false
		}
		return Blocked, fmt.Sprintf("woken by IRQ %d", w.ID), false
	case core.WakerSoftIRQ:
		reason = "soft IRQ " + core.SoftIRQName(w.ID)
		switch w.ID {
		case core.SoftIRQTimer, core.SoftIRQHRTimer:
			return Timer, reason, false
		case core.SoftIRQBlock, core.SoftIRQBlockIOPoll:
			return BlockDevice, reason, false
		case core.SoftIRQNetTx, core.SoftIRQNetRx:
			return Network, reason, false
		case core.SoftIRQSched:
			return Interrupted, reason, false
		}
		return Blocked, "woken in " + reason, false
	}
	return Blocked, fmt.Sprintf("woken on CPU %d by an unknown thread", w.CPU), false
}
