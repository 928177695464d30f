package stats

import (
	"fmt"

	"github.com/tracetui/tracetui/core"
)

// latencyCounts is what TestLatencyVsPerfSchedLatency compared, and how
// many delays or waits each of its rules accounted for.
type latencyCounts struct {
	all, tasks   int // tasks compared, those with a wake-up latency
	wakeups      int // perf's delays compared
	moved        int // perf's delays whose start moved to an earlier wake-up event
	maxShift     core.Time
	other        [numOrigins]int // perf's delays not started by a wake-up, by origin
	preempted    int             // perf's wake-ups of a task switched out "R+"
	unrecordedIn int             // the model's waits ended by an unrecorded switch-in
	lostOut      int             // the model's waits after an unrecorded switch-out
	nullOut      int             // the model's waits after a switch-out R of a thread without a status
	zeroRun      int             // the model's waits after a switch-out R at a run of no time
	noWakeup     int             // the model's waits whose sched_wakeup is missing
	early        int             // the model's waits from a fork before the scheduler's events
	earlyPerf    int             // those of them perf counts (from a later wake-up)
	runtimeFirst int             // wake-ups perf takes for a runnable task's (first seen running)
	instant      int             // the model's waits next to a run of no time, not counted
	atFirst      int             // the model's waits from no status at the start or where a CPU's thread first became known
}

// uncounted counts a wait of the model's the statistics do not count.
func (n *latencyCounts) uncounted(w modelWait) {
	if w.instant {
		n.instant++
	} else {
		n.atFirst++
	}
}

// expected returns a task's wake-up latency as the statistics must
// give it, from perf's delays and the model's waits (modelWaits): each
// of perf's wake-up delays, from the start of the model's wait that
// ends at the same switch-in (its first wake-up event: sched_waking, the
// fork, where perf's starts at sched_wakeup(_new)), and the model's
// waits perf does not count (see modelWait's flags; and a wake-up perf
// takes for a runnable task's, having first seen it in a
// sched_stat_runtime). why is "" unless a delay of perf's or a wait of
// the model's is left unexplained.
func (n *latencyCounts) expected(delays []perfDelay, waits []modelWait) (want Stats, why string) {
	add := func(d core.Time) {
		want.Count++
		want.TotalNS += int64(d)
		want.MaxNS = max(want.MaxNS, int64(d))
	}
	byEnd := map[core.Time]int{} // the waits ended by a recorded switch-in
	for i, w := range waits {
		if !w.unrecordedIn {
			byEnd[w.end] = i
		}
	}
	used := map[int]bool{}
	firstSeenEnd := map[core.Time]bool{} // perf's delays from its first sight of the task
	for _, d := range delays {
		firstSeenEnd[d.end] = d.origin == fromFirstSeen
		switch {
		case d.origin != fromWakeup:
			n.other[d.origin]++
			continue
		case d.afterPreempt:
			n.preempted++
			continue
		}
		i, ok := byEnd[d.end]
		if !ok || waits[i].lostOut || waits[i].nullOut || waits[i].zeroRun || waits[i].noWakeup {
			why += fmt.Sprintf("; perf's wake-up delay [%d, %d] is no wait of the model's", d.start, d.end)
			continue
		}
		used[i] = true
		w := waits[i]
		if w.instant || w.atFirst {
			n.uncounted(w)
			continue
		}
		add(w.end - w.start)
		switch s := d.start - w.start; {
		case w.early:
			n.early++
			n.earlyPerf++
		case s != 0:
			n.moved++
			n.maxShift = max(n.maxShift, s)
		}
		n.wakeups++
	}
	for i, w := range waits {
		switch {
		case used[i]:
			continue
		case w.instant || w.atFirst:
			n.uncounted(w)
			continue
		case w.early:
			n.early++
		case w.nullOut:
			n.nullOut++
		case w.zeroRun:
			n.zeroRun++
		case w.lostOut:
			n.lostOut++
		case w.unrecordedIn:
			n.unrecordedIn++
		case w.noWakeup:
			n.noWakeup++
		case firstSeenEnd[w.end] && !w.unrecordedIn:
			n.runtimeFirst++
		default:
			why += fmt.Sprintf("; the model's wait [%d, %d] is no delay of perf's", w.start, w.end)
			continue
		}
		add(w.end - w.start)
	}
	n.all++
	if want.Count > 0 {
		n.tasks++
	}
	return want, why
}

// String is the test's log line.
func (n latencyCounts) String() string {
	return fmt.Sprintf("%d tasks compared (none left out), %d with wake-ups: %d of perf's wake-up delays, %d of them moved to an earlier start (up to %d ns), "+
		"and the model's waits perf does not see: %d ended by an unrecorded switch-in, %d without a sched_wakeup, %d after an unrecorded switch-out, %d after a switch-out R of a thread without a status, %d after one at a run of no time (its switch-in unrecorded), "+
		"%d from a fork before the scheduler's events (%d of perf's delays), %d perf takes for a runnable task's; %d next to a run of no time and %d from no status at the start or where a CPU's thread first became known, not counted; "+
		"perf's other delays left out: %d after a switch-out R, %d when first seen, %d wake-ups of a task switched out R+",
		n.all, n.tasks, n.wakeups, n.moved, n.maxShift, n.unrecordedIn, n.noWakeup, n.lostOut, n.nullOut, n.zeroRun, n.early, n.earlyPerf, n.runtimeFirst, n.instant, n.atFirst, n.other[fromRunnable], n.other[fromFirstSeen], n.preempted)
}
