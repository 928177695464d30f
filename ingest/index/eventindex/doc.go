// Package eventindex makes every event of a trace reachable by rank or by
// time in O(log n) without decoding from the start: during the indexing
// pass it records the source's checkpoint (core.Source.Checkpoint) before
// every K-th event, with that event's time; later, reaching event r means
// one seek to checkpoint r/K and decoding at most K-1 events.
//
// Memory stays flat during the build (checkpoints stream to two temporary
// files) and when reading (entries are read on demand with ReadAt, a
// binary search over time costs O(log n) small reads).
//
// # Format
//
// The index is one byte string, stored by the caller (as a section of the
// history file). All integers are little-endian.
//
//	offset  size  field
//	0       8     magic "TTEVIDX\x00"
//	8       4     format version (1)
//	12      4     K: events per checkpoint (>= 1)
//	16      8     event count N
//	24      8     entry count E = ceil(N / K)
//	32      8     blob bytes B (total size of the checkpoint blobs)
//	40      8     time of the first event (ns)
//	48      8     time of the last event (ns)
//	56      4     CRC-32C (Castagnoli) of bytes 0..55
//	60      4     reserved, zero
//	64      16*E  entries, entry i for event rank i*K:
//	                +0 8  time of event i*K (ns, non-decreasing across entries)
//	                +8 8  offset of its checkpoint blob from the blob area start
//	                      (non-decreasing; blob i ends where blob i+1 starts,
//	                      the last at B)
//	64+16E  B     blob area: the checkpoints, opaque to this package
//
// A reader refuses a header whose checksum, version, or sizes do not add up
// to the section size, and blob offsets out of order or out of bounds.
//
// Imports: core only.
package eventindex
