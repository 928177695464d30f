// Package critpath computes the critical path of a Linux thread from a
// kernel state history (the index): over [from, to), a chain of segments
// that says, at every instant, who was making progress on the thread's
// behalf and what kind of progress or wait it was. It follows Trace
// Compass's "OS bounded" algorithm (shared/docs/critical-path.md,
// §4) on an execution graph read from the index instead of re-reading
// the trace:
//
//   - a worker is a thread attribute (Threads/<tid>, the idle thread per
//     CPU as 0_<cpu>); its horizontal edges are the intervals of its
//     status: running (user, syscall, interrupted) -> running; wait for
//     CPU -> preempted; wait unknown, unknown -> unknown; wait blocked ->
//     typed by what ended it, from Threads/<tid>/Waker at the end of the
//     wait (written by ingest/states/kernel): a thread -> blocked with a link
//     from the waker at the wake-up time; hrtimer, TIMER/HRTIMER soft IRQ
//     -> timer; IRQ 0, SCHED soft IRQ -> interrupted; BLOCK/IRQ_POLL soft
//     IRQ -> block_device; NET_TX/NET_RX -> network; other IRQs, HI,
//     TASKLET, RCU, an unknown waker, no wake-up seen -> blocked, no link.
//   - the main walk copies the target's edges; a blocked edge with a link
//     is replaced by the waker's own history over the sleep, walked back
//     from the wake-up to the start of the sleep, recursively through the
//     waker's own linked waits; a waker forked during the window is
//     followed back to its parent through the fork link.
//
// Deliberate differences from Trace Compass, each because the index says
// more or the view needs it:
//
//   - the path covers [from, to) given by the caller (a thread's whole
//     life in the trace by default); each sleep is still explained only
//     by what happened during it, so a clipped path equals the whole path
//     clipped;
//   - workers' states come from the state history, so a thread's last
//     state lasts to the end of the trace instead of stopping at its last
//     event, and no vertex splits a state where nothing changed (network
//     packets, which ftrace cannot match, add none);
//   - adjacent segments of one worker with the same state and reason are
//     merged;
//   - where Trace Compass leaves a hole (a nested wait nobody explains,
//     or a waker whose history starts during the sleep), the path has an
//     "unknown" segment on the waker's row, so segments always tile
//     [from, to);
//   - backtracking follows fork links only (the guide's other backtrack
//     cases need wake-ups of runnable threads, which the index does not
//     link).
//
// The work (edges visited) is bounded by [Options.MaxWork] and recursion
// by a depth limit; when either is reached the rest of the sleep is
// "unknown" with reason "work bound reached" and [Path.Truncated] is set.
// Every query honours the context.
//
// Imports: core only: it reads any core.History. Never ingest/index, ingest/cli or tui.
package critpath
