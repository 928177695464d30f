// Package stats is the statistics screen (S) over the selection, or the
// visible range without one: time per state of the selected row and of
// all rows summed (each thread once: a process row is its leader thread;
// the CPUs' idle threads' "running" counts as idle), from 2D queries;
// system calls, CPU usage per thread and per process, wake-up latencies
// per thread and per process, IRQs and the slowest intervals, each thread
// named "command [tid]" (ingest/query/stats); event counts by type. Ten
// sortable tables, each with a title, the focused one marked with '>'
// (visible without colour), computed in one background job.
//
// It imports ui, frame, core, keymap, ingest/query/stats and ingest/index/pstree;
// never package tui, gantt nor another screen.
package stats
