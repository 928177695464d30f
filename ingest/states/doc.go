// Package states holds the analyses that run while a trace is indexed:
// they turn events into state changes written to a [core.StateSink] (the
// history builder). Each analysis is a sub-package — kernel (threads,
// CPUs, IRQs, system calls, wake-ups of a Linux kernel trace), callstack
// (function entry/exit into call-stack depth attributes), samples
// (perf.data's samples into a running count per thread) — and the
// formats whose events carry their own state model (Chrome, Pajé) give
// theirs from their reader package. [Choose] picks those that apply to a
// source; [Version] names them all for the index fingerprint, so a change
// in any analysis's output rebuilds old indexes.
//
// Imports: core, the reader packages (for their own analyses and field
// names), and its sub-packages. Never ingest/index or above.
package states
