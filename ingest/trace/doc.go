// Package trace reads an opened index: a [Trace] is what the CLI and the
// browser both use once [ingest.Open] has found or built a trace's index.
// It holds
//
//   - the event table ([Table]): any page of rows by rank, the rank of a
//     time, background regex filters over every event (parallel readers,
//     all joined before Filter returns), density from the event index,
//     event counts by type;
//   - thread and process resolution for events that do not carry them
//     (the CPU's current thread in the kernel state, then its exec name);
//   - state queries over attribute globs ([Query]) and the R-SHT article's
//     Control Flow workload ([PaperBench]);
//   - the profile of sampled call stacks ([Trace.Profile], perf.data):
//     stored by the index while it is built (ingest/index/profile), any
//     selection of time and threads is counted from the index file
//     ([Profile.Count]).
//
// The table's Contents are the source's AppendContents, as `tracetui
// dump` prints them (dump equals `trace-cmd report`, `perf script`,
// babeltrace2), with one addition: a raw system call (sys_enter and
// sys_exit, raw_syscalls:*, LTTng's syscall_*_unknown) gets the name of
// its number in front, "futex: NR 202 (...)" or "{ syscall = futex, ...",
// from the trace's architecture (ingest/states/kernel/sysnames), as the
// statistics name it. Rows whose contents are a format's text rather than
// braced fields also carry [core.EventRow.Fields], each field labelled,
// for the details pane.
//
// Building indexes, the format registry, the cache and dump stay in
// package ingest.
//
// Imports: core, history, ingest/index (and its sub-packages) ingest/states/callstack (symbols) and ingest/states/kernel/sysnames (system call names). Never ingest/query, ingest/cli or tui.
package trace
