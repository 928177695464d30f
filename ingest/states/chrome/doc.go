// Package chrome is the state analysis of Chrome trace-event JSON traces
// (read by package ingest/chrome): B/E and X slices become call-stack
// depths under Threads/<pid>:<tid>/CallStack, async slices become lanes
// under their process, counters become Counters/<pid>/<name>, and flow
// events become links between the slices they bind to. See the reader's
// package doc for the event phases.
//
// Imports: core and the reader ingest/chrome (its field names). Never
// ingest/index or above.
package chrome

// AnalysisVersion changes whenever [Analysis]'s output changes; it is part
// of the index fingerprint, so old indexes are rebuilt.
const AnalysisVersion = 1
