package stats

import (
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/perfdata/perfdatatest"
)

// modelWait is a wait for a CPU after a wake-up, as the kernel model
// (ingest/states/kernel) draws it from the same events: from the
// thread's first wake-up event (sched_waking, sched_wakeup(_new), its
// fork) while it is not running nor already runnable, to when it runs.
type modelWait struct {
	start, end core.Time
	// unrecordedIn: it ended at the thread's first event on a CPU whose
	// recorded switches had not put it on (the kernel does not always
	// record the switch that puts a task on an idle CPU; the model
	// takes an event's thread for its CPU's: kernel/cpus.go's
	// adoptContext).
	unrecordedIn bool
	// lostOut: the thread had left its last CPU without a recorded
	// switch-out (another thread's event there showed it gone).
	lostOut bool
	// nullOut: it started at a switch-out in state R or R+ of a thread
	// the model had no status for (it ran without a recorded switch-in
	// or wake-up, since the trace's start or an unrecorded switch-in:
	// its events make it the CPU's thread, not running): the statistics
	// tell a preempted thread by its running status before the wait,
	// so they count it as a wake-up, unless the switch is where its
	// CPU's thread first became known.
	nullOut bool
	// zeroRun: it started at a switch-out in state R or R+ of a thread
	// that switch's own event made its CPU's thread (its switch-in is
	// not in the trace: adoptContext): the run lasted no time, and the
	// history keeps the last of two changes at one instant, so the
	// statistics see the wait after the thread's state before the run,
	// a blocked one, and count it as a wake-up where perf counts a
	// preemption. (After a wait for a CPU, the two waits side by side
	// are taken for a run between: kstats.RanNextTo.)
	zeroRun bool
	// noWakeup: the trace has the wake-up's sched_waking but no
	// sched_wakeup(_new) for it before the switch-in (some are missing
	// from the recordings, as some switch-ins are), and perf 6.1's
	// latency ignores sched_waking.
	noWakeup bool
	// early: it started at a FORK record written before the first
	// tracepoint (perf records side-band from its start-up on, the
	// scheduler's events from the workload's exec): what the thread did
	// in between is not in the trace, the model has it wait from its
	// fork.
	early bool
	// instant: a state at one end of the wait lasted no time: the
	// thread was woken at the instant it stopped running, or stopped
	// (other than R) at the instant it ran. The history keeps the last
	// of two changes at one instant, so the statistics see running
	// then this wait, or this wait then the stop, and do not count it.
	instant bool
	// atFirst: it started from no status at the trace's first instant
	// (a FORK record perf wrote before it, given that time) or at the
	// instant a CPU's thread first became known. The statistics take
	// the first for a state from before the trace (the thread's first
	// interval), the second for a switch-out by that CPU's first switch
	// (running, not woken), and do not count it.
	atFirst bool
}

// waitState is a thread's status, as far as waits are concerned.
type waitState uint8

const (
	waitNull     waitState = iota // no status (unseen, or exited)
	waitRunning                   // on a CPU
	waitRunnable                  // switched out runnable ("R", "R+"): waiting, not woken
	waitWoken                     // woken: a wait that counts
	waitOther                     // blocked, or waiting for a reason unknown
)

// waitThread is one thread in modelWaits.
type waitThread struct {
	state   waitState
	since   core.Time // the wake-up, when waitWoken
	lostOut bool      // left its last CPU without a recorded switch-out
	nullOut bool      // waitWoken since a switch-out without a status
	zeroRun bool      // waitWoken since a switch-out at its run of no time
	wakeup  bool      // a sched_wakeup(_new) came since the wait began
	early   bool      // waitWoken since before the first tracepoint
	instant bool      // waitWoken at the instant it stopped running
	atFirst bool      // waitWoken from null at the start or when a CPU's thread first became known
	// ranAt is when it last ran, ended is 1 + the index of the wait
	// that ended then (0: none); stoppedAt is when it last stopped.
	ranAt, stoppedAt core.Time
	ended            int
	// adoptedFrom is the state a run its CPU's events made it start (an
	// unrecorded switch-in) began from; waitRunning after a recorded one.
	adoptedFrom waitState
}

// modelWaits returns, by tid, the waits after a wake-up of the kernel
// model (ingest/states/kernel/sched.go, cpus.go's adoptContext) from the
// events in their order. It follows the model only as far as a thread's
// wait for a CPU: what starts it, what ends it, and which thread each
// CPU runs (a recorded switch's, or the thread of a tracepoint's
// context, perf's side-band records aside).
func modelWaits(samples []perfdatatest.Sample) map[int64][]modelWait {
	ths := map[int64]*waitThread{}
	get := func(tid int64) *waitThread {
		th := ths[tid]
		if th == nil {
			th = &waitThread{}
			ths[tid] = th
		}
		return th
	}
	waits := map[int64][]modelWait{}
	runs := func(tid int64, tm core.Time, recorded bool) {
		th := get(tid)
		from := waitRunning
		if !recorded {
			from = th.state
		}
		if th.state == waitWoken {
			waits[tid] = append(waits[tid], modelWait{start: th.since, end: tm, unrecordedIn: !recorded,
				lostOut: th.lostOut, nullOut: th.nullOut, zeroRun: th.zeroRun, noWakeup: !th.wakeup, early: th.early, instant: th.instant, atFirst: th.atFirst})
			th.ended = len(waits[tid])
		} else {
			th.ended = 0
		}
		th.state, th.lostOut, th.nullOut, th.zeroRun, th.ranAt, th.adoptedFrom = waitRunning, false, false, false, tm, from
	}
	// stops: a running thread leaves its CPU at tm for state to
	stops := func(tid int64, tm core.Time, to waitState) {
		th := get(tid)
		if th.state == waitRunning && th.ranAt == tm && th.ended > 0 && to != waitRunnable {
			waits[tid][th.ended-1].instant = true
		}
		th.state, th.stoppedAt = to, tm
	}
	cur := map[int32]int64{}          // CPU -> the thread the model has on it
	firstCur := map[int32]core.Time{} // CPU -> when it first had one
	firstAt := map[core.Time]bool{}   // the firstCur instants
	traced := false                   // a tracepoint came
	wakes := func(tid int64, tm core.Time, wakeup bool) {
		th := get(tid)
		if th.state != waitRunning && th.state != waitRunnable && th.state != waitWoken {
			instant := th.state == waitOther && th.stoppedAt == tm
			th.atFirst = th.state == waitNull && (firstAt[tm] || tm == samples[0].Time)
			th.state, th.since, th.nullOut, th.wakeup, th.early, th.instant = waitWoken, tm, false, false, !traced, instant
		}
		if th.state == waitWoken && wakeup {
			th.wakeup = true
		}
	}
	for _, s := range samples {
		traced = traced || !strings.HasPrefix(s.Class, "perf_")
		if s.TID >= 0 && s.CPU >= 0 && !strings.HasPrefix(s.Class, "perf_") {
			// the event's thread runs on its CPU (adoptContext)
			if c, ok := cur[s.CPU]; !ok || c != s.TID {
				if old := ths[c]; ok && c != 0 && old != nil && old.state == waitRunning {
					stops(c, s.Time, waitOther)
					old.lostOut = true
				}
				if !ok {
					firstCur[s.CPU], firstAt[s.Time] = s.Time, true
				}
				cur[s.CPU] = s.TID
				if th := get(s.TID); s.TID != 0 && th.state != waitNull {
					runs(s.TID, s.Time, false)
				}
			}
		}
		switch s.Class {
		case "sched_switch":
			p := get(s.Prev)
			switch {
			case (s.State == "R" || s.State == "R+") && p.state == waitRunning && p.ranAt == s.Time && p.adoptedFrom == waitOther:
				// a run of no time after a sleep: not in the history
				// (zeroRun; after a wait for a CPU, the two waits side by
				// side are a run between, as the statistics take them)
				p.state, p.since, p.zeroRun, p.nullOut, p.lostOut, p.wakeup, p.early, p.instant, p.atFirst = waitWoken, s.Time, true, false, false, false, false, false, false
			case (s.State == "R" || s.State == "R+") && p.state == waitNull && firstCur[s.CPU] != s.Time:
				p.state, p.since, p.nullOut, p.wakeup, p.early, p.instant, p.atFirst = waitWoken, s.Time, true, false, false, false, false
			case s.State == "R" || s.State == "R+":
				stops(s.Prev, s.Time, waitRunnable)
			case strings.ContainsAny(s.State, "Xx"):
				stops(s.Prev, s.Time, waitNull) // exited
			default:
				stops(s.Prev, s.Time, waitOther)
			}
			p.lostOut = false
			runs(s.Next, s.Time, true)
			if _, ok := cur[s.CPU]; !ok {
				firstCur[s.CPU], firstAt[s.Time] = s.Time, true
			}
			cur[s.CPU] = s.Next
		case "sched_waking", "sched_process_fork":
			wakes(s.Task, s.Time, false)
		case "sched_wakeup", "sched_wakeup_new":
			wakes(s.Task, s.Time, true)
		case "perf_fork":
			// the FORK record comes before the fork's tracepoint (the
			// kernel writes it as it copies the process); one with
			// thread 0 is perf's list of the threads running at the start
			if s.TID != 0 {
				wakes(s.Task, s.Time, false)
			}
		}
	}
	return waits
}
