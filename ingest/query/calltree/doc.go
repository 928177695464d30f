// Package calltree aggregates call stacks read from the index into a call
// tree (the data of a flame graph): for every distinct path of functions
// from the outermost frame, the number of calls, the total time (the
// calls' durations), the self time (total minus the children's totals),
// the shortest and longest call and where the longest one lies.
//
// It reads the call-stack attributes every analysis writes the same way,
//
//	Threads/<tid>/CallStack/<depth>   depth 1 = outermost frame
//
// (LTTng-UST cyg-profile addresses and *_entry/*_exit names from
// ingest/states/callstack, Chrome B/E and X slices, Pajé state stacks), with one
// 2D query per call: an interval of CallStack/<d> is one call of the
// function it holds, and its caller is the interval of CallStack/<d-1>
// that contains its start. Times are clipped to the requested range
// [From, To): a call that straddles a bound counts once, for its part
// inside.
//
// What the index cannot tell apart is merged: a function that returns
// and is called again in the same nanosecond at the same depth is one
// call (the state did not change), and a call shorter than a nanosecond
// is not there.
//
// Profiles of samples (perf.data) are not in the index: [FromSamples]
// builds their tree from the call paths and per-path sample counts of a
// selection (ingest/trace's Profile), with counts instead of times
// (Node.Samples): Calls and Total the samples through a path, Self those
// that stopped in it. Why a query over the events rather than an
// index-time analysis: a sample is an instant, not a state, so writing
// each as states of CallStack/<d> would cost two intervals per frame per
// sample in the history and make the index grow with the samples, while a
// selection of samples is a binary search per thread over an array of
// (time, path) kept in memory once read; and the frames are named by the
// reader (its ELF and kernel symbols), which an analysis cannot call.
//
// Imports: core only: it reads any core.History. Never ingest/index, ingest/cli or tui.
package calltree
