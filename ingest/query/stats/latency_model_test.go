package stats

import (
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/perfdata/perfdatatest"
)

// delayOrigin is what started one delay of `perf sched latency`.
type delayOrigin uint8

// The origins of perf's delays.
const (
	// fromWakeup: a sched_wakeup or sched_wakeup_new of a task perf
	// believes asleep (perf 6.1's latency ignores sched_waking).
	fromWakeup delayOrigin = iota
	// fromRunnable: a switch-out with prev_state "R" (runnable, not
	// the preempted "R+", which perf 6.1 takes for a sleep).
	fromRunnable
	// fromFirstSeen: the task's first event was its switch-in (a zero
	// delay) or a sched_stat_runtime (it was running).
	fromFirstSeen
	numOrigins
)

// originNames name the origins in the test's log.
var originNames = [numOrigins]string{"wake-up", "switch-out R", "first seen"}

// atomState is the state of a task's last work atom in perf's model
// (builtin-sched.c's enum thread_state).
type atomState uint8

const (
	atomSleeping atomState = iota
	atomWaitCPU
	atomSchedIn
	atomIgnore
)

// perfDelay is one delay perf counts, from start to the switch-in at
// end.
type perfDelay struct {
	start, end core.Time
	origin     delayOrigin
	// afterPreempt: the wake-up that started it came after a switch-out
	// "R+": perf took the preempted task for a sleeping one, the model
	// has it waiting for the CPU since the switch-out (not a wake-up).
	afterPreempt bool
}

// perfLatTask is one task in perf's latency model: its last work atom
// and its delays.
type perfLatTask struct {
	state     atomState
	out, wake core.Time // the atom's switch-out, its delay's start
	origin    delayOrigin
	preempted bool // the atom's switch-out said "R+"
	delays    []perfDelay
}

// perfLatency replays the events as perf 6.1's `perf sched latency`
// does (builtin-sched.c: latency_switch_event, latency_wakeup_event,
// latency_runtime_event; sched_waking, forks and migrations ignored),
// keeping every delay with its origin, by tid. A task's delays are
// perf's Switches, their sum and maximum its avg and max.
func perfLatency(samples []perfdatatest.Sample) map[int64]*perfLatTask {
	tasks := map[int64]*perfLatTask{}
	// seen returns the task, creating it with a first atom as perf's
	// add_sched_out_event(atoms, state, tm) does.
	seen := func(tid int64, tm core.Time, runnable bool) *perfLatTask {
		if l, ok := tasks[tid]; ok {
			return l
		}
		l := &perfLatTask{out: tm}
		if runnable {
			l.state, l.wake, l.origin = atomWaitCPU, tm, fromFirstSeen
		}
		tasks[tid] = l
		return l
	}
	for _, s := range samples {
		switch s.Class {
		case "sched_switch":
			p := seen(s.Prev, s.Time, false)
			p.state, p.out, p.preempted = atomSleeping, s.Time, s.State == "R+"
			if s.State == "R" {
				p.state, p.wake, p.origin = atomWaitCPU, s.Time, fromRunnable
			}
			n := seen(s.Next, s.Time, true)
			if n.state == atomWaitCPU {
				if s.Time < n.wake {
					n.state = atomIgnore
				} else {
					n.state = atomSchedIn
					n.delays = append(n.delays, perfDelay{start: n.wake, end: s.Time, origin: n.origin,
						afterPreempt: n.origin == fromWakeup && n.preempted})
				}
			}
		case "sched_wakeup", "sched_wakeup_new":
			l := seen(s.Task, s.Time, false)
			if l.state == atomSleeping && l.out <= s.Time {
				l.state, l.wake, l.origin = atomWaitCPU, s.Time, fromWakeup
			}
		case "sched_stat_runtime":
			seen(s.Task, s.Time, true)
		}
	}
	return tasks
}
