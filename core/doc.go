// Package core holds the types every part of tracetui shares: time, state
// values, state intervals, the attribute tree, decoded events, and the two
// contracts that join the layers:
//
//   - [StateSink], written by state analyses (ingest) and implemented by the
//     history builder (history) and by [MemHistory];
//   - [History], the query side used by the browser (tui) and the CLI,
//     implemented by the on-disk R-SHT (history) and by [MemHistory].
//
// [MemHistory] is a brute-force in-memory implementation of both. It is the
// reference the on-disk tree is tested against and a convenient sink for
// analysis tests; it is not meant for large traces.
//
// Conventions fixed here, relied on everywhere:
//
//   - A [Time] is a count of nanoseconds (since the Unix epoch for traces
//     whose clock has an absolute origin).
//   - An [Interval] is closed at both ends: it covers every t with
//     Start <= t <= End. A state change at t ends the previous state at t-1,
//     as in Trace Compass; the intervals of one attribute tile the trace
//     without gap or overlap.
package core
