// Package ingest is the format registry: it detects a trace's format
// ([OpenSource], [FormatNames]) and opens it with the reader of that
// format, one sub-package each (ctf, ftrace, tracedat, chrome, paje), and
// prints any reader's events as text ([Dump]). Each format carries its
// version into the index fingerprint ([Versions]).
//
// The layers below ingest, each a folder, each importing only the ones
// listed before it (and core, history):
//
//	ctf, ftrace, tracedat, chrome, paje   readers: files -> packet/record reader
//	                                      -> stream decoder -> merge by time -> core.Event
//	ingest (this package)                 the registry of readers and the text dump
//	states/...                            analyses run while indexing: events -> states
//	index/...                             the index build and lifecycle: cache, lock,
//	                                      prune, damage guard, event index, process table
//	trace                                 an opened trace: event table, filters, density
//	query/...                             computed over an opened index: statistics,
//	                                      critical path, call tree, aggregation
//	cli                                   the commands
//	gen                                   synthetic traces for tests and benchmarks
//
// Adding a format is one folder and one entry in formats(); its Version
// enters the fingerprint by itself.
package ingest
