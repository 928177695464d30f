package kernel

import (
	"fmt"
	"testing"

	"github.com/tracetui/tracetui/core"
)

func waker(k core.WakerKind, id, cpu int32, alt bool) string {
	return fmt.Sprint(core.Waker{Kind: k, ID: id, CPU: cpu, Alt: alt}.Value().Int())
}

// Each wait records what ended it: a thread, a timer, an IRQ, a soft IRQ
// (innermost context wins), a fork; a wake-up of a runnable thread
// (sched_wakeup after sched_waking) records nothing; each link lasts until
// the next, Alt alternating.
func TestWakeLinks(t *testing.T) {
	s := newStream().
		switchTo(0, 0, "swapper/0", 0, 0, "t", 10).
		switchTo(0, 1, "swapper/1", 0, 0, "w", 20).
		switchTo(10, 0, "t", 10, 1, "swapper/0", 0).
		add(20, 1, "sched_waking", "comm", "t", "tid", 10, "prio", 20, "target_cpu", 0).
		add(21, 0, "sched_wakeup", "comm", "t", "tid", 10, "prio", 20, "target_cpu", 0).
		switchTo(25, 0, "swapper/0", 0, 0, "t", 10).
		switchTo(30, 0, "t", 10, 1, "swapper/0", 0).
		add(40, 0, "timer_hrtimer_expire_entry").
		add(41, 0, "sched_waking", "comm", "t", "tid", 10, "prio", 20, "target_cpu", 0).
		add(42, 0, "timer_hrtimer_expire_exit").
		switchTo(45, 0, "swapper/0", 0, 0, "t", 10).
		switchTo(50, 0, "t", 10, 2, "swapper/0", 0).
		add(60, 1, "irq_softirq_entry", "vec", 3).
		add(61, 1, "irq_handler_entry", "irq", 30, "name", "i915").
		add(62, 1, "sched_waking", "comm", "t", "tid", 10, "prio", 20, "target_cpu", 0).
		add(63, 1, "irq_handler_exit", "irq", 30, "ret", 1).
		add(64, 1, "sched_waking", "comm", "t", "tid", 10, "prio", 20, "target_cpu", 0).
		add(65, 1, "irq_softirq_exit", "vec", 3).
		switchTo(70, 0, "swapper/0", 0, 0, "t", 10).
		switchTo(75, 0, "t", 10, 1, "swapper/0", 0).
		add(80, 1, "irq_softirq_entry", "vec", 4).
		add(81, 1, "sched_waking", "comm", "t", "tid", 10, "prio", 20, "target_cpu", 0).
		add(82, 1, "irq_softirq_exit", "vec", 4).
		add(85, 0, "sched_process_fork", "parent_comm", "swapper/0", "parent_tid", 0, "parent_pid", 0,
			"child_comm", "c", "child_tid", 11, "child_pid", 11).
		switchTo(90, 0, "swapper/0", 0, 0, "t", 10).
		switchTo(95, 0, "t", 10, 0, "c", 11).
		add(96, 1, "sched_waking", "comm", "x", "tid", 12, "prio", 20, "target_cpu", 1)
	h := s.run(t, LayoutLTTng27, 100)
	want{
		"Threads/10/Waker": {
			iv(0, 19, "null"), iv(20, 40, waker(core.WakerThread, 20, 1, true)),
			iv(41, 61, waker(core.WakerTimer, 0, 0, false)),
			iv(62, 80, waker(core.WakerIRQ, 30, 1, true)),
			iv(81, 100, waker(core.WakerSoftIRQ, 4, 1, false)),
		},
		"Threads/11/Waker": {iv(0, 84, "null"), iv(85, 100, waker(core.WakerFork, 0, 0, true))},
		"Threads/12/Waker": {iv(0, 95, "null"), iv(96, 100, waker(core.WakerThread, 20, 1, true))},
	}.check(t, h)
}

// A wake-up on a CPU whose thread is unknown, and context exits without
// entries (ignored), and a switch that clears a context whose exit was lost.
func TestWakeLinksUnknownAndLostExit(t *testing.T) {
	s := newStream().
		switchTo(0, 0, "swapper/0", 0, 0, "t", 10).
		switchTo(5, 0, "t", 10, 1, "swapper/0", 0).
		add(10, 1, "sched_waking", "comm", "t", "tid", 10, "prio", 20, "target_cpu", 0).
		switchTo(15, 0, "swapper/0", 0, 0, "t", 10).
		add(16, 0, "irq_handler_exit", "irq", 5, "ret", 1).
		add(17, 0, "irq_handler_entry", "irq", 5, "name", "x").
		switchTo(20, 0, "t", 10, 1, "swapper/0", 0).
		add(30, 0, "sched_waking", "comm", "t", "tid", 10, "prio", 20, "target_cpu", 0)
	h := s.run(t, LayoutLTTng27, 40)
	want{
		"Threads/10/Waker": {
			iv(0, 9, "null"), iv(10, 29, waker(core.WakerUnknown, 0, 1, true)),
			iv(30, 40, waker(core.WakerThread, 0, 0, false)),
		},
	}.check(t, h)
}

func TestWakerEncoding(t *testing.T) {
	for _, w := range []core.Waker{
		{Kind: core.WakerThread, ID: 1 << 30, CPU: 0, Alt: true}, {Kind: core.WakerIRQ, ID: -5, CPU: -1},
		{Kind: core.WakerUnknown, CPU: maxCPUs - 1}, {Kind: core.WakerTimer, CPU: 3},
	} {
		got, ok := core.DecodeWaker(w.Value())
		if !ok || got != w {
			t.Errorf("%+v: decoded %+v %v", w, got, ok)
		}
	}
	for _, v := range []core.Value{core.Null(), core.Int32(1), core.Int64(0), core.Int64(-1)} {
		if w, ok := core.DecodeWaker(v); ok {
			t.Errorf("%v decodes as %+v", v, w)
		}
	}
}
