// Package stats answers the triage questions lttng-analyses and Trace
// Compass answer (who used the CPUs, which system call or interrupt was
// slow, how long threads waited for a CPU) over any [from, to) range of a
// kernel trace, from its state history alone: no event is re-read.
//
// [Compute] runs one 2D query over the attributes the kernel analysis
// (ingest/states/kernel) writes and derives:
//
//   - CPU usage, from CPUs/<n>/Current_thread: per thread (time on a CPU,
//     percent of the range, migrations: changes of the CPU it runs on,
//     priorities seen), per process (its threads' sum; a thread whose PID
//     the trace does not say is in no process), per CPU (time not
//     idle).
//   - System calls, from Threads/<tid>/System_call: one call per non-null
//     interval that starts and ends inside the range. Not counted: the
//     interval a forked child inherits from its parent's clone/fork (it
//     starts with the child's PPID; the parent's call is counted once, as
//     lttng-analyses does), exit and exit_group (they never return: their
//     "call" lasts until the thread is freed), calls still open at the end
//     of the trace.
//   - Scheduling latency, from Threads/<tid>: a wait-for-CPU interval
//     entered from a sleep (blocked, wait unknown, or a new thread), ended
//     by the thread running: wake-up to switch-in. A preempted thread's
//     wait for a CPU is not a wake-up latency and is not counted.
//   - Hard IRQ durations per IRQ number (CPUs/<n>/IRQs/<irq>), soft IRQ
//     durations per vector and soft IRQ raise-to-entry latency
//     (CPUs/<n>/Soft_IRQs/<vec>: a raised interval followed by running).
//
// Memory: the threads' state rows are read a batch of threads at a
// time (threads weighed by their intervals in the range first, batches
// of at most 2 M intervals, the next read ahead on a goroutine while the
// analyses sum one), the CPUs' Current_thread rows (an interval per
// context switch) a window of time at a time, summed in time order;
// what stays is two batches (or a thread's rows, when one thread holds
// more) and the names.
//
// The whole trace: the index build computes the whole trace's report as
// the analyses write (package ingest/states/kernel/kstats) and stores it
// in a section (not past kstats.DefaultMaxThreads threads); Compute
// returns it, or the tables of the parts asked for, for a query over the
// whole history with Top <= kstats.StoredTop (stored.go), unless
// Options.Scan. 8 000 threads: 13 ms instead of 86 ms; a 12 M-event
// capture: 0.08 s instead of 6 s (BenchmarkWholeTrace). The report types
// live there too (types.go).
//
// Every duration table row carries count, min, mean, max, sample
// standard deviation, total and a log2 histogram; each family keeps its N
// worst occurrences (N bounded by [MaxTop]).
//
// Imports: core, history (the R-SHT it reads), ingest/states/kernel/sysnames
// and ingest/states/kernel/kstats. Never ingest/index, ingest/cli or tui.
package stats
