// Package paje is the state analysis of Pajé traces (read by package
// ingest/paje): containers become rows, states with their push/pop
// stacks become depth attributes, variables become counters, and links
// join their start and end containers, as pj_dump lists them.
//
// Imports: core and the reader ingest/paje (its event kinds). Never
// ingest/index or above.
package paje

// AnalysisVersion changes whenever [Analysis]'s output changes; it is part
// of the index fingerprint, so old indexes are rebuilt.
const AnalysisVersion = 1
