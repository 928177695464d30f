package core

import "strconv"

// Context field names: the event fields ([Event], [EventClass.FieldIndex])
// that say which thread and process emitted an event. LTTng-UST events carry
// them as stream or event contexts; the ftrace, Chrome and Pajé readers
// fill the same names from their own records, so analyses and the event
// table read one set of names whatever the format. Kernel events usually
// do not carry them: their thread is the CPU's Current_thread.
const (
	FieldTID      = "context.tid"      // thread id (as the kernel numbers it)
	FieldVTID     = "context.vtid"     // thread id in the thread's PID namespace (preferred by UST)
	FieldPID      = "context.pid"      // process id
	FieldVPID     = "context.vpid"     // process id in its PID namespace
	FieldComm     = "context.comm"     // kernel task name (16 bytes at most)
	FieldProcname = "context.procname" // process name as the tracer saw it
)

// ThreadName returns the name of thread tid's attribute under Threads: its
// decimal id, except the idle thread (tid 0), which runs on every CPU at
// once and so has one attribute per CPU, "0_<cpu>", as in Trace Compass.
func ThreadName(tid int64, cpu int32) string {
	if tid == 0 {
		return "0_" + strconv.Itoa(int(cpu))
	}
	return strconv.FormatInt(tid, 10)
}

// The thread context that line-oriented readers (ftrace text, trace.dat,
// Pajé) put first in every event class, in this order: a class's field
// index CtxTID is its FieldTID, and so on.
const (
	CtxTID = iota
	CtxPID
	CtxComm
	CtxProcname
	NumThreadContext
)

// ThreadContextFields returns the names of the thread context fields,
// indexed by CtxTID...CtxProcname (a new slice: callers append to it).
func ThreadContextFields() []string {
	return []string{FieldTID, FieldPID, FieldComm, FieldProcname}
}
