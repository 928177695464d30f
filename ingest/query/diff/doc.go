// Package diff compares two traces, or two ranges of one: what changed
// between the slow run and the fast one. Each side is a history and a
// range; [Compute] runs the usage statistics (package stats) on both and
// lines them up:
//
//   - CPU time per process, summed over the processes of one name and one
//     place in the process tree (the comms from the tree's root down,
//     "bash > make > cc1"), and per thread, named by its process's place, its
//     comm and its rank among the threads of that name there (by tid,
//     which grows with creation): tids differ between runs, names and
//     places do not;
//   - per system call: count, total and longest;
//   - wake-up latency (time runnable before running) and IRQ time, per
//     thread name and per interrupt;
//   - with call stacks, the call tree's self time per call path; for
//     perf.data profiles (Side.Profile), the self samples per call path
//     (Result.CallTreeUnit says which; samples against times is an
//     error).
//
// Two selections of threads (Side.Threads, on both sides) compare thread
// A's figures with thread B's, rows keyed by position in the selections
// and named by both ("make 120 vs cc1 131"): see threads.go.
//
// The browser's comparison screen also uses: Result.BaseIDs and NewIDs
// (which thread or process a row is on each side), Options.Parts (the CPU
// tables alone, shown first), and [CallTree] (both call trees, for its
// differential flame graph). The two sides are computed at once.
//
// Every row has the base value, the new one, their difference and ratio;
// each table is sorted by the absolute difference and cut to Options.Top
// rows. The diff of a range with itself is all zeros, and a row's delta is
// exactly stats(new) - stats(base) summed over the row's key (tested
// against a brute-force aggregation).
//
// Thread matching is tested on two real recordings of one command
// (testdata/sh-*.dat, and recorded in the test where tracefs allows)
// against the tasks' fork and exec events read from the reader.
//
// Cost (BenchmarkCompute; TRACETUI_DIFF_BENCH=BASE:NEW for real
// captures): two generated 1.4 M-event captures (63 000 threads, seeds 1
// and 2) take `tracetui diff` 2.2 s user + 0.6 s system CPU, 2.8 to 3.1 s
// wall at load 3 to 4 on two cores (5.4 + 0.5 s, 6.1 to 7.1 s before the
// changes of round 3). 70% of it is stats.Compute on each side (the
// history's 2D walks 28%, collecting and sorting the rows 25%, the
// collector 10%), the process tree 7%, naming and lining up the rows
// 11%. Whole traces now read both sides' statistics from their indexes
// (package kstats): 0.82-0.88 s wall, 0.7 s user + 0.3 s system, 500 MB
// peak instead of 890 MB, at load 2.5-3.4 (the same run: 1.95-2.13 s
// before), output unchanged; ranges and thread subsets still scan.
//
// Imports: core and the other query packages (stats, calltree). Never
// ingest/index, ingest/cli or tui.
package diff
