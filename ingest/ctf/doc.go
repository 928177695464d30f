// Package ctf reads CTF 1.8 traces (LTTng 2.x kernel and user space,
// perf converted to CTF, barectf, DPDK) and CTF 2 traces (LTTng 2.14 and
// 2.15) natively, as a [core.Source].
//
// Layers, each consuming the one below:
//
//   - metadata (package tsdl): TSDL text, plain or packetized, into a
//     model of clocks, stream and event classes and field types; CTF 2
//     metadata (package ctf2: first byte 0x1E, or version 2.0 packets)
//     into the same model, with roles, field locations and the field
//     classes TSDL lacks (compile_ctf2.go, format_ctf2.go);
//   - the decoding plan (plan.go, compile.go, ops.go, fuse.go): per
//     dynamic scope (packet header and context, event header, stream event
//     context, event context, payload) a tree of nodes, with sequence
//     lengths and variant tags resolved to value slots and babeltrace2's
//     rules of what is printed, and a flat program of ops run per event;
//   - packets (stream.go): each data file is a sequence of packets read
//     with ReadAt into reusable buffers; a packet index (offset, sizes,
//     time range, discarded-event counter, cpu, event count) is built at
//     Open from the packet headers;
//   - the stream decoder (exec.go; wide.go for integers over 64 bits):
//     runs the programs over a window of the current packet, reconstructs
//     N-bit timestamps (CTF section 8) and fills a reused [core.Event];
//     every length is checked against the packet before it is used, and
//     a loop ends at the first element that reads nothing (the rest would
//     be the same), so arrays of empty elements cost nothing;
//   - the merge (reader.go): a min-heap of streams keyed by their next
//     event's time, ties by stream index, so the order is deterministic
//     and [Reader.Checkpoint] / [Reader.Seek] resume it exactly;
//   - formatting (format.go): [Reader.AppendContents] prints an event as
//     babeltrace2 2.0's text sink does, only when asked; the elements of
//     an array after one that reads nothing are copies of its text, 1 MB
//     of them per event at most, then one mark for the rest.
//
// [Open] takes a trace directory, or a directory searched recursively for
// trace directories, which are merged into one timeline.
package ctf
