// Package callstack is the user-space call stack analysis: from function
// entry and exit events it keeps, per thread, the stack of functions
// being executed.
//
//	Threads/<tid>/CallStack/<depth>   depth 1 = outermost frame
//
// Events understood:
//
//   - lttng_ust_cyg_profile:func_entry / func_exit and
//     lttng_ust_cyg_profile_fast:func_entry / func_exit (gcc
//     -finstrument-functions with liblttng-ust-cyg-profile): push / pop
//     the function address (field addr) as core.Int64. Addresses stay
//     addresses in the state; [Symbols] resolves them for display.
//   - any other "<provider>:<name>_entry" / "<provider>:<name>_exit"
//     pair: push / pop core.String("<name>").
//
// The thread is the event's context.vtid (else context.tid); events
// without one are ignored. A pop on an empty stack is ignored (the trace
// started inside the call); pushes without a pop stay open to the trace
// end. Stacks deeper than the maximum depth (default 1024) are counted,
// so pops still match, but the frames beyond it are not stored.
//
// LTTng-UST statedump and dynamic-loader events record the binaries each
// process maps (see binaries.go); [LoadResolver] names addresses from
// them, from an nm listing the user names or one found beside the trace.
//
// Without a kernel analysis (a user-space-only trace) the analysis also
// sets Threads/<tid> to the outermost frame as a string (the address as
// [core.FormatAddress] prints it, or its symbol with [WithSymbols]; the name for named pairs; null
// when the stack is empty), and Threads/<tid>/Exec_name and PID from
// context.procname and context.vpid, so the Control Flow view shows the
// thread. With [WithKernel] those stay the kernel analysis's.
//
// Imports: core only. Never a reader, ingest/index or above.
package callstack

// Version changes whenever the analysis's output changes; it is part of
// the index fingerprint (see states.Version), so old indexes are rebuilt.
const Version = 1
