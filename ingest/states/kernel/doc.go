// Package kernel is the Linux kernel state analysis: from scheduling,
// system call and interrupt events it computes, over time, what every
// thread and every CPU is doing, with the semantics of Trace Compass's
// Kernel Analysis (the Control Flow and Resources views), written in the
// state model of core/model.go.
//
// # Use
//
//	layout := kernel.Detect(src.Info(), classes) // nil: not a kernel trace
//	a := kernel.New(sink, layout)
//	for each event: a.Handle(ev)
//	a.Finish(end); then close the sink
//
// # Event layouts
//
// A [Layout] names a tracer's events and fields (Trace Compass's
// IKernelAnalysisEventLayout): [LayoutLTTng27] (syscall_entry_<name>,
// irq_softirq_*), [LayoutLTTng20] (lttng-modules 2.0-2.6: sys_<name>,
// exit_syscall, softirq_*), [LayoutPerf] (perf data converted to CTF:
// "sched:sched_switch", "syscalls:sys_enter_<name>",
// "raw_syscalls:sys_enter", prev_pid/next_pid fields) and [LayoutFtrace]
// (ftrace text: "sys_enter_<name>", raw "sys_enter" with NR, prev_state
// as letters). Each event class is resolved once, the first time one of
// its events arrives (classes may appear lazily), into a plan: a handler
// and the index of every field it reads. Per event the analysis indexes
// a slice by class ID; unknown events cost that one read.
//
// # State
//
//	Threads/<tid>                 core.ThreadStatus (int32); "0_<cpu>" for the idle thread
//	Threads/<tid>/Exec_name       string
//	Threads/<tid>/PID, PPID       int32
//	Threads/<tid>/System_call     string, the bare name ("openat"; raw numbers named by SetArch's table, else "syscall#<n>")
//	Threads/<tid>/System_call_error int32, -errno of the last call if it failed, null otherwise and during a call
//	Threads/<tid>/Prio            int32, as the tracer reports it
//	Threads/<tid>/Current_cpu_rq  int32
//	Threads/<tid>/Waker           int64, core.Waker: what ended its last wait (wakeup.go)
//	CPUs/<n>                      core.CPUStatus (int32)
//	CPUs/<n>/Current_thread       int32
//	CPUs/<n>/IRQs/<irq>           CPUStatusIRQ while the handler runs, else null
//	CPUs/<n>/Soft_IRQs/<vec>      CPUStatusSoftIRQ running, CPUStatusSoftIRQRaised pending, else null
//
// A thread's or CPU's status is its own attribute's value, and a
// sub-attribute is created only when a value for it is known (the R-SHT
// thesis, chapter 5.1), so a thread seen only in one wakeup has just its
// status and Current_cpu_rq.
//
// # Rules (Trace Compass's handlers)
//
//   - sched_switch: the previous thread's status comes from prev_state:
//     0 (runnable; the bits 1024, 2048 and 4096 are masked: kernels
//     before 4.14 or TASK_STATE_MAX into a preempted task's state) ->
//     wait for CPU; TASK_INTERRUPTIBLE or TASK_UNINTERRUPTIBLE -> wait
//     blocked, and Current_cpu_rq null; TASK_DEAD (64) or EXIT_DEAD (16,
//     "X": kernels >= 4.14 report it for a task's last switch) -> null,
//     exited; anything else (EXIT_ZOMBIE "Z" included) -> wait unknown. ftrace's
//     letters map to the same bits (R, R+ -> 0; S -> 1; D -> 2; I ->
//     TASK_IDLE; T, t, X, Z -> 4, 8, 16, 32...). The next thread runs:
//     running syscall if it is inside one or is a kernel thread (kthreadd,
//     PID 2, or its child by PPID, until it executes a program; Trace
//     Compass says user mode), else running user mode; its
//     Current_cpu_rq becomes the CPU. Both threads' Exec_name and Prio
//     come from the event; the CPU's Current_thread becomes next_tid and
//     its status idle (tid 0), syscall or user mode.
//   - sched_wakeup, sched_waking, sched_wakeup_new: wait for CPU unless
//     the thread is running (user, syscall or interrupted);
//     Current_cpu_rq = target_cpu; Prio = prio.
//   - sched_process_fork: child's PPID = parent tid, Exec_name =
//     child_comm (else the parent's), PID = child_pid where the tracer
//     records the process id (LTTng), System_call = the parent's, status
//     wait for CPU.
//   - sched_process_exec: Exec_name = base name of filename.
//   - sched_process_exit: nothing but a missing name (the thread's last
//     sched_switch sets its status).
//   - sched_process_free: the thread's attribute and all its
//     sub-attributes become null.
//   - sched_pi_setprio: Prio = newprio. sched_migrate_task:
//     Current_cpu_rq = dest_cpu.
//   - system call entry: System_call = the name, System_call_error null,
//     thread running syscall, CPU syscall. Exit: System_call null,
//     System_call_error = ret if -4095 <= ret < 0 (a failure), thread
//     running user mode, CPU user mode.
//   - irq_handler_entry: CPUs/<n>/IRQs/<irq> = IRQ, current thread
//     interrupted, CPU IRQ. Exit: the IRQ null, the thread running again,
//     the CPU's status recomputed (IRQ, else soft IRQ, else the current
//     thread's mode: idle, syscall, user; null if no thread is known).
//   - soft IRQ raise: the vector raised (if it is running, it is marked
//     raised again at its exit). Entry: running, thread interrupted, CPU
//     soft IRQ. Exit: null (or raised), thread and CPU as for an IRQ exit.
//   - lttng_statedump_process_state: fills, only where nothing is known
//     yet, Exec_name, PID, PPID (ppid for a process leader, pid for other
//     threads) and status (LTTNG_WAIT_CPU -> wait for CPU, LTTNG_WAIT ->
//     wait unknown, else unknown).
//
// # perf.data's side-band records
//
// For a perf.data file [Detect] returns [LayoutPerfData] (the ftrace
// layout plus the records below), or [LayoutPerfDataSched] when the file
// has a sched_switch tracepoint (then SWITCH and EXIT records are ignored:
// prev_state says more, and they would switch the CPU twice). The records' context
// names the running thread only for SWITCH; the others never change the
// CPU's current thread (perf synthesizes the start-up ones with thread 0).
//
//   - perf_comm (COMM, an exec's or a prctl's): Exec_name = comm, PID = pid.
//   - perf_fork (FORK): as sched_process_fork, with the process ids:
//     PPID = ptid, PID = pid, Exec_name the parent's, wait for CPU, the
//     parent as waker. A synthesized one (context thread 0: the threads
//     perf found running) sets only PPID and PID.
//   - perf_exit (EXIT; [LayoutPerfData] only): with CPU-wide switches (`-a --switch-events`) the
//     thread's last switch out, or the next thread seen on its CPU, makes
//     its status null; otherwise (a per-thread recording, whose events end
//     with the thread) its status becomes null at once and its CPU's
//     thread unknown.
//   - perf_switch (SWITCH, SWITCH_CPU_WIDE; [LayoutPerfData] only): out:
//     the thread leaves its CPU, waiting for it if preempted, else
//     blocked; the thread the record names (CPU-wide) runs next, else the
//     CPU's thread is unknown. In: the thread runs, in user mode or its
//     system call. Without a CPU (per-thread recordings do not sample it)
//     only the thread changes.
//
// # Deliberate differences from Trace Compass
//
//   - Where core/model.go differs (status in the thread's/CPU's own
//     attribute, sub-attributes created only when known, IRQs under
//     CPUs/<n>/IRQs), the model wins.
//   - Events that need the current thread of a CPU whose current thread
//     is unknown (no sched_switch seen yet) update only the CPU; Trace
//     Compass writes them to a pseudo-thread "-1".
//   - When an event carries the running thread (ftrace's context.tid,
//     perf's perf_tid, an LTTng tid context) and it is not the CPU's
//     current thread, it becomes the current thread: its PID is filled
//     from the matching process context, the previous thread (no
//     sched_switch said how it left) waits for an unknown reason, and
//     the new one, if it was known, runs in its last known mode; the
//     new one's Current_cpu_rq becomes the CPU and the previous one's, if
//     it was that CPU, null. In a
//     consistent trace this only fills the start of the trace; it also
//     makes captures without scheduling events (syscalls only) readable.
//   - After an interrupt exit the thread stays interrupted while another
//     IRQ or soft IRQ still runs on its CPU; raised (not running) soft
//     IRQs do not keep it interrupted.
//   - A context switch or a system call entry or exit on a CPU ends the
//     interrupts still marked running there (their exit was lost: these
//     events never happen inside a handler), so one lost event does not
//     leave a CPU in IRQ state for the rest of the trace.
//   - A wakeup does not make an interrupted thread wait for a CPU (it is
//     on one), and it fills a missing Exec_name from its comm.
//   - A 15-byte comm that is the kernel's truncation of the name an exec
//     gave does not replace it.
//   - System_call holds the bare name, not the event name.
//   - lttng-modules before 2.7 reports sched_wakeup's prio in another
//     unit than sched_switch's (p->prio vs p->prio-100): with
//     [LayoutLTTng20] the wakeup's prio is not used.
//
// Imports: core and its sysnames sub-package. Never a reader, ingest/index or above.
package kernel

// Version changes whenever the analysis's output changes; it is part of
// the index fingerprint (see states.Version), so old indexes are rebuilt.
const Version = 4 // 4: kernel threads run in kernel mode (threads.go); 3: PIDs from exec and from clone/fork calls (clone.go)
