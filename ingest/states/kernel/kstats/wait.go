package kstats

import "github.com/tracetui/tracetui/core"

// RanNextTo reports whether the status v, right before or after a
// wait for a CPU (Threads/<tid> intervals), means the thread ran at the
// instant between: it is running, or it waits for a CPU again. Two
// waits side by side come from two changes at one instant, running
// then runnable (the kernel model sees a switch-in the trace lacks at
// the event of the thread's switch-out R): the history keeps no state
// that lasted no time, only the second value (of two changes at one
// instant the last stays). So the first wait ended with a run, and the
// second, starting at a run, is a preemption, not a wake-up.
func RanNextTo(v core.Value) bool {
	s := core.ThreadStatusOf(v)
	return s.Running() || s == core.ThreadWaitCPU
}
