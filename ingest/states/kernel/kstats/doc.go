// Package kstats holds the statistics report of the stats command
// ([Report], the types stats.Compute returns) and computes the whole
// trace's report while the index is built, so that `tracetui stats`, the
// browser's statistics and `tracetui diff` over a whole trace read it
// from the index instead of scanning the history (issue 33 item 4).
//
// # Why at index time, and how
//
// stats.Compute reads every thread's state rows from the R-SHT: 6.5 s and
// 600 MB on a 12 M-event capture, 0.9-1.4 s on the article's
// many-threads trace (50 000 threads). The analyses already emit every
// state change the statistics derive from, in time order, through a
// core.StateSink; [Recorder] wraps that sink (index build: analyses ->
// pstree.Recorder -> kstats.Recorder -> history.Builder), mirrors the
// builder's interval rule (a change to the same value is none; of two
// changes at one instant the last stays) for the attributes Compute reads,
// and sums as the intervals close exactly what Compute derives over
// [start, end+1): CPU time per thread and CPU, migrations, priorities,
// system calls per thread and name with their outcomes, wake-up latency,
// IRQ and soft IRQ durations and raise latency, the N worst occurrences.
//
// What needs a later state (a wait's next status, a call's error code at
// its return, a raised soft IRQ's next state, the threads whose status
// first becomes known when a CPU first switches) is decided at the flush
// of that instant: when the first change of a later instant arrives,
// nothing can change at the pending one any more. Names (comm, PIDs, IRQ
// handlers) are the last ones, resolved in [Recorder.Report].
//
// Memory is per thread, CPU and followed attribute (a 72-byte track per
// key, the per-thread system call tables and latency statistics, what the
// report holds anyway) and the N worst lists ([StoredTop]): nothing grows
// with the number of events.
//
// # Two goroutines
//
// The analyses' goroutine is the build's critical path, the other core
// partly idle. [Recorder.Modify] only passes the change on, tells once
// per key whether the statistics read it, and queues those changes; each
// batch of [DefaultBatch] is summed on a goroutine of its own while the
// next fills, one batch after the other, so the sums are made in the
// changes' order (follow.go). [Recorder.Encode] sums and encodes the
// system calls' tables beside the rest.
//
// # Identical to the scan
//
// The stored report must be the report Compute would return, not an
// approximation: the floating point (mean, variance) depends on the order
// durations are added in, and the N-worst lists on ties. So both sides
// sum in the same order: each thread's system calls and each CPU's
// interrupts apart, merged in attribute-tree order ([MergeCalls],
// [MergeIRQs]); the N-worst order is total ([Worst]); migrations at one
// instant are ordered by CPU; a process's name falls back to its lowest
// thread's. Tests in ingest/query/stats compare the two deeply (and as
// JSON) on every shared real trace, the committed trace.dat and perf.data
// recordings and generated traces (a property test over seeds).
//
// # The section
//
// The report is stored in the index section [SectionName] (history's
// named sections): a header (magic, [Version], the lists' length, a
// CRC-32C) and the report in varints, zstd-compressed (codec.go, section.go).
// [Version] is part of the index fingerprint. A section that is absent,
// of another version, damaged, or shorter lists than asked for reads as
// absent: Compute scans.
//
// # Cost and gain (two cores, quiet, same run each)
//
//   - 17 M-event trace.dat capture (a few thousand threads): index 7.5-7.7
//     s without the recorder, 8.0 s with it (user 11.4-11.8 -> 12.8-13.0
//     s), peak RSS 70-72 -> 72-73 MB; the sums run on the other core. A
//     12 M-event capture's `stats` took 6.1-6.4 s and 605-616 MB from the
//     scan, 0.08 s and 51 MB from the section.
//   - generated 50 000 threads (the article's many-threads scale, 1.1 M
//     events): index 0.53-0.54 s -> 0.91-0.94 s, peak RSS 114-118 ->
//     304-321 MB (3.5 KB a thread: the recorder's tables, the report and
//     its encoding at the end); Compute 64-66 ms from the section instead
//     of 0.47-0.50 s for the scan.
//   - generated 200 000 threads: the recorder stops at the bound; the
//     threads followed until then cost 2.09-2.12 -> 2.31-2.36 s. At 1.6 M
//     threads the build's peak is unchanged (914 MB): the recorder's
//     tables are garbage long before.
//   - `diff` of two generated 1.4 M-event traces (63 000 threads, within
//     the bound): 1.95-2.13 s, 890 MB -> 0.82-0.88 s, 500 MB, same
//     output.
//
// The recorder stops past [DefaultMaxThreads] threads (no section: the
// scan as before), so that a trace of hundreds of thousands of threads
// does not pay the build twice, nor one of millions gigabytes.
//
// Imports: core and ingest/states/kernel/sysnames. Never ingest/index,
// ingest/query or tui (ingest/index and ingest/query/stats import it).
package kstats
