// Package stats is the statistics screen (S) over the selection, or the
// visible range without one: time per state of the selected row and of
// all rows from 2D queries, system calls, CPU usage, wake-up latencies,
// IRQs and the slowest intervals (ingest/query/stats), event counts by type;
// sortable tables, computed in one background job.
//
// It imports ui, frame, core, keymap, ingest/query/stats and ingest/index/pstree;
// never package tui, gantt nor another screen.
package stats
