// Package profile stores a trace's sampled call stacks (perf.data's
// cpu-clock samples with -g) in the index, so that the profile of any
// selection of time and threads is counted from the index file: the
// flame view's first F costs what every later one does, and nothing is
// read from the trace or kept in memory per sample.
//
// During the indexing pass the [Writer] takes each sample's time, thread
// and stack (function names, leaf first). Stacks become numbered call
// paths, a trie of names kept in memory (its size grows with the number
// of distinct call paths, not of samples). Samples go in blocks of
// [BlockLen], in time order; a block is written to a temporary file
// sorted by thread (its samples of each thread, a run, stay in time
// order), so the writer holds one block. A reader ([Open]) keeps the
// trie, the threads and the blocks' directory in memory and reads a
// block's runs on demand: a selection reads the blocks its time range
// overlaps, skips the runs of threads not selected and binary-searches
// the runs a range boundary cuts.
//
// # Format
//
// One byte string, stored by the caller as a section of the index file.
// All integers are little-endian.
//
//	offset  size  field
//	0       8     magic "TTPROF\x00\x00"
//	8       4     format version (1)
//	12      4     CRC-32C (Castagnoli) of the header (bytes 0..79, this
//	              field zero) and of the tables
//	16      8     samples S
//	24      8     block bytes B
//	32      4     blocks K
//	36      4     threads T
//	40      4     call paths P
//	44      4     names M
//	48      8     name bytes N
//	56      8     time of the first sample (ns)
//	64      8     time of the last sample (ns)
//	72      8     reserved, zero
//	80      B     blocks, each:
//	                4        runs R
//	                8*R      runs: thread (u32, < T), samples (u32)
//	                8*n      the block's n samples' times (ns), run after run,
//	                         each run in time order
//	                4*n      their call paths (u32, < P), in the same order
//	80+B    40*K  block directory, block i:
//	                +0  8  offset of the block from the blocks' start
//	                       (block i ends where block i+1 starts, the last at B)
//	                +8  8  time of its first sample
//	                +16 8  time of its last sample (not before the first)
//	                +24 4  its runs R
//	                +28 4  its samples n (the runs' sum, 1..BlockLen)
//	                +32 4  CRC-32C of its bytes
//	                +36 4  reserved, zero
//	        8*T   threads: the tid of each (i64), in first-sampled order
//	        8*P   call paths: caller (i32, -1 for an outermost frame, else
//	              less than the path's own number), name (u32, < M)
//	        4*M   name ends: the end of each name in the name bytes
//	              (non-decreasing, the last N)
//	        N     name bytes (UTF-8 as the reader gave them)
//
// A reader refuses a header whose magic, version, checksum or sizes do
// not add up to the section's size, and tables out of bounds; a block
// whose checksum fails or whose runs do not add up is reported when read,
// with [ErrCorrupt]. Every value is checked before it is used as an
// index, so even bytes that pass the checksums never read out of bounds.
//
// Imports: core only.
package profile

// Version changes whenever the section's format or content changes; it
// is part of the index fingerprint.
const Version = 1
