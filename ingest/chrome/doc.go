// Package chrome reads Chrome trace-event JSON files (the Trace Event
// Format of Chrome's about:tracing and Perfetto's legacy JSON importer, as
// written by clang -ftime-trace, Bazel --profile, ninjatracing and many
// tracers' exporters) and computes their states.
//
// # Reading
//
// [Open] accepts the array form `[{...}, ...]` (whose closing ']' may be
// missing, as the format allows for traces cut short) and the object form
// `{"traceEvents": [...], ...}`, plain or gzip-compressed (detected by the
// magic bytes). Events may come in any order: Open makes one streaming
// pass with a hand-written tokenizer, appending compact records to a
// bounded arena that is sorted and spilled as a run to one temporary file
// (in Options.TempDir, unlinked at once). [Source.Next] then merges the
// runs with a heap, so memory is bounded by Options.RunBytes plus the
// catalog (event names, threads, processes), whatever the file size.
// Ties in time keep file order.
//
// Every event of a class (one class per event name) has the fields ph,
// cat, dur (microseconds, float), id, context.pid, context.tid,
// context.comm (thread_name metadata), context.procname (process_name
// metadata), bp ("e" when the event says "bp": "e", else absent), then
// args.<name> for each top-level argument name seen with
// that event name (at most 32): numbers as FieldInt or FieldFloat, strings
// as FieldString, objects and arrays as their JSON text. Metadata events
// (ph M) are delivered at the trace's first timestamp, whatever their ts.
// pid and tid are integers when the trace gives numbers, text otherwise.
//
// A checkpoint is the offset of each run's next record (plus a CRC bound
// to the trace's sort layout and so to Options.RunBytes), so Seek costs
// one read per run.
//
// # Persisted order
//
// An index keeps the order so that later sessions skip the first pass and
// the sort: during the indexing pass [Source.RecordOrder] records where
// each delivered event's JSON object sits in the file, and [OrderWriter]
// writes that, with the catalog, as one byte string (format in order.go).
// [OpenOrdered] reads events by those offsets, parsing each where it lies
// (and failing with [ErrOrderDamaged], naming the offset, when the file
// has no such event there); it seeks to the sorting source's checkpoints,
// whose rank is all it needs. Gzip traces have no random access: their
// order is not recorded and they are sorted on every Open.
//
// Problems never stop reading: a trace cut inside an event (or a damaged
// gzip stream) keeps every event before the cut and reports a "truncated"
// warning from Open; invalid JSON elsewhere is an error naming the byte
// offset. E events closing no B ("unmatched-end") and B events never
// closed ("unmatched-begin") are reported during the first full pass of
// Next, which is when the time order that pairs them is known.
//
// # States
//
// [NewAnalysis] maps the events onto the model of core/model.go:
//
//	Threads/<pid>:<tid>                 name of the outermost open slice (string), or null
//	Threads/<pid>:<tid>/CallStack/<d>   name of the slice at depth d (1 = outermost)
//	Threads/<pid>:<tid>/Exec_name       thread_name metadata, else the tid
//	Threads/<pid>:<tid>/PID             int32: the pid, or a stable negative number
//	                                    for a non-numeric pid (-1, -2... by first appearance)
//	Processes/<PID>/Exec_name           process_name metadata, else the pid text
//	Processes/<PID>/Async/<cat>/<name>  int32 number of open async slices (b/e, or
//	                                    the legacy S/F, matched by cat and id), null when none
//	Processes/<PID>/Async/<cat>/<name>/<lane>
//	                                    the id of the async slice on lane 1, 2... (each
//	                                    slice takes the lowest lane free when it begins;
//	                                    at most 64 lanes), or null
//	Counters/<PID>/<name>/<series>      each numeric argument of C events
//	                                    (int64 or float64)
//	Threads/<pid>:<tid>/Flow_out        "<cat>/<name>#<id>" of a flow leaving the slice it binds to (s, t)
//	Threads/<pid>:<tid>/Flow_in         "<cat>/<name>#<id> from <thread> at <ns>" of a flow
//	                                    arriving in the slice it binds to (t, f): the enclosing
//	                                    slice for s and for "bp": "e", else the next slice; see flows.go
//
// B/E and X slices share one stack per thread. E closes the innermost open
// B (and X slices still open above it); an E with no open B is ignored with
// a warning; slices still open at the end stay open to the end. X events
// starting at the same instant nest by duration. '/' in ids and names
// becomes '_'. Instant (i/I), async instant (n), sample and object events
// are kept as events only.
package chrome
