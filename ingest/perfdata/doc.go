// Package perfdata reads the perf.data files of Linux `perf record` and
// `perf sched record` as a core.Source: tracepoint samples become events
// named and fielded as the trace.dat reader's (so the kernel analysis reads
// them with the ftrace layout), other samples and the side-band records
// events of their own; [Source.Report] prints what `perf script` prints
// by default. It is a reader only: it knows nothing of analyses. It
// imports core, ingest/ftracefmt (the tracepoints' format files, shared
// with trace.dat) and ingest/callstack (its ELF symbol loader),
// github.com/klauspost/compress/zstd and github.com/ianlancetaylor/demangle.
//
// # File layout
//
// All integers are in the recording machine's byte order, which the magic
// tells: "PERFILE2" read as a u64 in that order. File mode:
//
//	 0  magic[8] "PERFILE2"
//	 8  u64 header size (104)
//	16  u64 attr_size: one attrs entry (perf_event_attr + 16)
//	24  {u64 offset, u64 size} attrs: entries of perf_event_attr, then
//	    {offset, size} of the event's u64 IDs
//	40  {offset, size} data: the records
//	56  {offset, size} event types (unused)
//	72  u64[4] feature bitmap
//
// At data.offset+data.size, one {offset, size} per feature bit set, in bit
// order, locates each feature's body: tracing data (1, below), build IDs
// (2), hostname (3), os release (4), perf version (5), arch (6), CPUs
// available and online (7, two u32), cmdline (11), event descriptions (12:
// names by ID), sample time (21), clock id (23), compressed (27: zstd),
// clock data (29). Strings are a u32 length (padding included) and
// NUL-terminated bytes. A pipe-mode file (`perf record -o -`) is the magic,
// a u64 16, then records only: HEADER_ATTR (an attr and its IDs),
// HEADER_FEATURE (u64 bit, body), HEADER_TRACING_DATA (u32 size, the blob
// following the record outside its size), then the data's records.
//
// A big-endian file's integers are swapped; the attr's flag bitfields are
// laid from the word's other end there (bit 0, disabled, is bit 63).
//
// # Records
//
// Each record is a header {u32 type, u16 misc, u16 size (header
// included)} and a body. A SAMPLE's body holds, in this order and each only
// if its attr's sample_type bit says so: IDENTIFIER, IP, pid/tid, TIME,
// ADDR, ID, STREAM_ID, CPU, PERIOD, READ values, CALLCHAIN (u64 nr, nr
// u64, context markers switching kernel/user), RAW (u32 size, the
// tracepoint's bytes from common_type on), BRANCH_STACK, REGS_USER,
// STACK_USER, WEIGHT, DATA_SRC, TRANSACTION, REGS_INTR, PHYS_ADDR, CGROUP,
// page sizes, AUX. Other kernel records (MMAP, MMAP2, COMM, FORK, EXIT,
// LOST, LOST_SAMPLES, SWITCH, SWITCH_CPU_WIDE, THROTTLE...) end, when the
// attr has sample_id_all, with a trailer of pid/tid, TIME, ID, STREAM_ID,
// CPU, IDENTIFIER. A record's attr is the only one, or the one its ID
// names (ID 0: the first, as perf has it). COMPRESSED records hold zstd
// data: one stream through all of them, flushed (not ended) at each of
// perf's writes, whose blocks may continue into the next COMPRESSED
// record; the records they decompress to are read in their place. AUX,
// AUXTRACE (whose data follows the record) and unknown records are skipped
// with a counted warning; LOST and LOST_SAMPLES are warned of with their
// counts. Every size and count is checked against the bytes left before
// it is used.
//
// # Order
//
// Records are delivered as perf delivers them: timed records are queued
// and, at each FINISHED_ROUND, those up to the largest time queued before
// the previous round are delivered in time order (file order for equal
// times); records at time 0 (perf's synthesized start-up records) or
// without a time are delivered as read. A checkpoint keeps the queue's
// state (order.go); Seek reads again the records still queued then.
//
// # Events
//
// Tracepoint samples: the class is the format's event name
// ("sched_switch"), the fields the thread context (context.tid and
// context.pid from the sample, context.comm the thread's name then) and
// the format's fields (sched_switch's prev_state as the kernel's letters,
// raw_syscalls' id as NR), as the trace.dat reader has them. Other
// samples: the event's name ("cpu-clock"), with ip, period, addr and
// callchain_depth. Side-band records: perf_comm (pid, tid, comm, exec),
// perf_fork and perf_exit (pid, ppid, tid, ptid), perf_mmap (pid, tid,
// addr, len, pgoff, filename, data: MMAP and MMAP2), perf_lost (lost:
// LOST and LOST_SAMPLES), perf_switch (out, preempt, next_prev_pid,
// next_prev_tid: SWITCH and SWITCH_CPU_WIDE), perf_throttle,
// perf_unthrottle. Event times never go back: time-0 records take the
// trace's start.
//
// [Source.Frames] resolves the call chain of the sample last read,
// [Source.AppendStack] names it (what ingest/trace's Profile keeps).
// C++ symbols are demangled as perf prints them by default (no parameter
// list; demangle.go).
//
// Open makes one pass over the records for what later records need:
// thread names over time (THREAD_MAP, COMM, FORK copying the parent's),
// processes' mappings (MMAP/MMAP2, FORK), ID_INDEX, the time range and the
// classes.
package perfdata

// Version changes whenever what the reader gives the index changes (its
// events, checkpoints or index state); it is part of the index
// fingerprint, so old indexes are rebuilt.
const Version = 1
