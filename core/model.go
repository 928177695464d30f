package core

// The state model: attribute names and status values written by the
// analyses (ingest) and read by the browser (tui) and the CLI. Paths follow
// Trace Compass's kernel analysis, with the fixes of the R-SHT thesis
// (chapter 5.1): a thread's or CPU's status lives in its own attribute, and
// sub-attributes are created only when a value is known.
//
//	Threads/<tid>                      thread status (ThreadStatus as int32); for
//	                                   traces without kernel scheduling (user-space
//	                                   call stacks, Chrome, Pajé) the name of the
//	                                   outermost frame or state as a string
//	Threads/<tid>/Exec_name            string
//	Threads/<tid>/PID                  int32 (process id; thread group leader)
//	Threads/<tid>/PPID                 int32
//	Threads/<tid>/System_call          string (current system call name)
//	Threads/<tid>/Prio                 int32
//	Threads/<tid>/Current_cpu_rq       int32 (CPU whose run queue holds the thread)
//	Threads/<tid>/Waker                int64 (core.Waker: what ended its last wait, see waker.go)
//	Threads/<tid>/CallStack/<depth>    function address (int64) or name (string), depth 1 = outermost
//	Threads/<tid>/Samples              int64: samples of the thread so far (perf.data: ingest/states/samples)
//	CPUs/<n>                           CPU status (CPUStatus as int32)
//	CPUs/<n>/Current_thread            int32
//	CPUs/<n>/IRQs/<irq>                int32 CPUStatusIRQ while the handler runs
//	CPUs/<n>/Soft_IRQs/<vec>           int32 CPUStatusSoftIRQ running, CPUStatusSoftIRQRaised raised
//	IRQ_names/<irq>                    string: hard IRQ <irq>'s handler name (irq_handler_entry's
//	                                   name), written when first seen or when it changes
//
// Formats without kernel scheduling add (see README, "State model"):
//
//	Processes/<pid>/Exec_name          string: a process's name when no leader thread says it (Chrome, Pajé)
//	Processes/<pid>/Async/<cat>/<name> int32: open asynchronous slices (Chrome)
//	Counters/<pid>/<name>/<series>     int64 or float64 counter values (Chrome)
//	Threads/<id>/States/<type>         string: top of a secondary state stack (Pajé)
//	Threads/<id>/Variables/<type>      float64 variable (Pajé)
//	Threads/<id>/Flow_out              string: a flow (Chrome) or link (Pajé) leaving the thread's slice
//	Threads/<id>/Flow_in               string: one arriving, "<label> from <thread> at <ns>" (the other end)
//
// <tid> is the decimal thread id, except the idle thread (tid 0) which has
// one attribute per CPU, "0_<cpu>", as in Trace Compass. Formats whose thread
// ids are not numbers (Chrome string ids, Pajé containers) use any name
// without '/' and set Exec_name for display.
const (
	AttrThreads       = "Threads"
	AttrExecName      = "Exec_name"
	AttrPID           = "PID"
	AttrPPID          = "PPID"
	AttrSystemCall    = "System_call"
	AttrSyscallError  = "System_call_error" // a failed system call's -errno, until the next call
	AttrPrio          = "Prio"
	AttrCurrentCPURQ  = "Current_cpu_rq"
	AttrCallStack     = "CallStack"
	AttrCPUs          = "CPUs"
	AttrCurrentThread = "Current_thread"
	AttrIRQs          = "IRQs"
	AttrSoftIRQs      = "Soft_IRQs"
	AttrIRQNames      = "IRQ_names" // top level: hard IRQ handler names by number
	AttrProcesses     = "Processes"
	AttrAsync         = "Async"
	AttrCounters      = "Counters"
	AttrStates        = "States"
	AttrVariables     = "Variables"
	AttrFlowOut       = "Flow_out"
	AttrFlowIn        = "Flow_in"
	AttrSamples       = "Samples" // a thread's cumulative sample count (ingest/states/samples)
)

// ThreadStatus is the value of a Threads/<tid> attribute in kernel traces.
type ThreadStatus int32

// Thread statuses (Trace Compass's process statuses). Persisted: do not
// renumber.
const (
	ThreadUnknown     ThreadStatus = 0 // before anything is known
	ThreadWaitBlocked ThreadStatus = 1 // blocked (sleeping, waiting for I/O...)
	ThreadRunUser     ThreadStatus = 2 // running in user mode
	ThreadRunSyscall  ThreadStatus = 3 // running a system call
	ThreadInterrupted ThreadStatus = 4 // its CPU is handling an interrupt
	ThreadWaitCPU     ThreadStatus = 5 // runnable, waiting for a CPU
	ThreadWaitUnknown ThreadStatus = 6 // waiting, reason unknown (e.g. from a statedump)
)

// ThreadStatusOf reads a Threads/<tid> value: its status, -1 for null.
func ThreadStatusOf(v Value) ThreadStatus {
	if v.IsNull() {
		return -1
	}
	return ThreadStatus(v.Int())
}

// Running reports whether the status is one of running on a CPU (user
// mode, system call, interrupted).
func (s ThreadStatus) Running() bool {
	return s == ThreadRunUser || s == ThreadRunSyscall || s == ThreadInterrupted
}

// String names the status as the legend shows it.
func (s ThreadStatus) String() string {
	switch s {
	case ThreadUnknown:
		return "unknown"
	case ThreadWaitBlocked:
		return "wait blocked"
	case ThreadRunUser:
		return "running user mode"
	case ThreadRunSyscall:
		return "running syscall"
	case ThreadInterrupted:
		return "interrupted"
	case ThreadWaitCPU:
		return "wait for CPU"
	case ThreadWaitUnknown:
		return "wait unknown"
	}
	return "status?"
}

// CPUStatus is the value of a CPUs/<n> attribute (and of its IRQ and soft
// IRQ children while active).
type CPUStatus int32

// CPU statuses. Persisted: do not renumber.
const (
	CPUIdle                CPUStatus = 0
	CPURunUser             CPUStatus = 1
	CPURunSyscall          CPUStatus = 2
	CPUStatusIRQ           CPUStatus = 3
	CPUStatusSoftIRQ       CPUStatus = 4
	CPUStatusSoftIRQRaised CPUStatus = 5
)

// String names the status as the legend shows it.
func (s CPUStatus) String() string {
	switch s {
	case CPUIdle:
		return "idle"
	case CPURunUser:
		return "user mode"
	case CPURunSyscall:
		return "syscall"
	case CPUStatusIRQ:
		return "IRQ"
	case CPUStatusSoftIRQ:
		return "soft IRQ"
	case CPUStatusSoftIRQRaised:
		return "soft IRQ raised"
	}
	return "status?"
}
