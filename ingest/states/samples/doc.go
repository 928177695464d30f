// Package samples is the index-time analysis of sampled profiles
// (perf.data's cpu-clock, cycles... samples): it writes, for every thread
// that took samples, Threads/<tid>/Samples, the number of samples the
// thread took up to and including each instant (int64, null before the
// first). The browser draws it as the thread's sample-density row: the
// samples of a column [s, e] are Samples(e) - Samples(s-1).
//
// # Why a running count
//
// A frame must cost the same whatever the zoom (1 M samples of one
// thread on screen at once). With a running count, a row of c columns is
// c+1 point reads of one attribute (one Query2DTimes at the columns'
// last instants and the instant before the window), exact at every zoom,
// without reading one interval per sample. The alternatives:
//
//   - a toggling state per sample (or a state per sample): a frame would
//     count the intervals starting in each column, which is every sample
//     in range for an exact query. The history's level-of-detail
//     summaries do count changes per bucket, but saturate at 255 per
//     bucket, only for the thread, CPU and IRQ rows (core.SummaryRule),
//     and an edge bucket's changes fall on either side of a column
//     boundary: approximate exactly where a row of counts needs to be
//     exact;
//   - counts bucketed at a few resolutions (per 1 ms, 16 ms, ...): exact
//     only at column boundaries that are bucket boundaries, and one more
//     attribute per resolution.
//
// The running count costs one interval per sample in the index (the same
// as any per-sample state) and nothing more; its values exceed the
// summaries' range (0..253), so it has no summary and the summary pass
// does not log it (core.SummaryRule does not name it anyway). Two
// samples at one instant make one change of +2.
//
// The idle thread (tid 0) is counted per CPU, Threads/0_<cpu>, as the
// kernel analysis names it. A thread's count is never reset: a tid reused
// after an exit continues it, and the difference over a column still
// counts the samples taken in it. Tracepoint samples (perf record -e
// sched:sched_switch -g) and side-band records are not samples here; the
// caller says which classes are ([New]'s isSample).
//
// Memory: one map entry per sampled thread; nothing per sample.
//
// Imports: core only. Never a reader, ingest/index or above.
package samples

// Version changes whenever the analysis's output changes; it is part of
// the index fingerprint (states.Version).
const Version = 1
