// Package ftracefmt parses the kernel's ftrace event format files and
// prints events with them, as libtraceevent does; the trace.dat reader
// (ingest/tracedat) and the perf.data reader (ingest/perfdata) share it,
// since both files embed the same format files.
//
// A format file (events/SYSTEM/NAME/format) is text:
//
//	name: sched_switch
//	ID: 372
//	format:
//		field:unsigned short common_type;	offset:0;	size:2;	signed:0;
//		...
//		field:char prev_comm[16];	offset:8;	size:16;	signed:0;
//		field:__data_loc char[] name;	offset:24;	size:4;	signed:0;
//	print fmt: "prev_comm=%s ...", REC->prev_comm, ...
//
// [Parse] reads it into a [Format]: its [Field]s (integers of 1 to 8
// bytes, signed or not, fixed arrays, char arrays, __data_loc and
// __rel_loc strings and arrays: a u32 whose low 16 bits are the data's
// offset in the record, from the record's start or, for __rel_loc, from
// the field's end, and whose high 16 bits its length) and its print
// format. A [Record] is one event's raw bytes from common_type on, in the
// recording machine's byte order; [Record.Int] and [Record.Text] read its
// fields, [Printer] prints it: the print format's C expressions
// (REC->field, __get_str, __print_symbolic, __print_flags, casts, ?:, the
// arithmetic and comparison operators) evaluated and formatted with C
// printf conversions (%ps and %pS through a [Symbolizer]), and for
// `trace-cmd report` libtraceevent's sched, hrtimer and kmem plugins.
// [ParseKallsyms] and [ParseCmdlines] read the /proc/kallsyms and
// saved_cmdlines texts both files may embed.
//
// Every length and offset read from a record is checked against its bytes:
// a short or damaged record prints "[FAILED TO PARSE]" or zero values,
// never panics. The package imports only the standard library.
package ftracefmt
