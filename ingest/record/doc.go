// Package record records a kernel trace through tracefs and writes it as
// a trace.dat version 7, the file `trace-cmd report`, KernelShark and
// package ingest/tracedat read (`tracetui record`).
//
// # Recording
//
// A recording lives in a private ftrace instance, instances/tracetui-<pid>
// (created, given its buffer_size_kb, its events enabled, removed at the
// end): the top-level buffer and its settings, and other instances, are
// only ever read (header_page, saved_cmdlines, printk_formats). One
// goroutine per CPU moves the full pages of per_cpu/cpuN/trace_pipe_raw
// every 100 ms by splice(2), through a pipe, into a private (0600)
// temporary file beside the output (full pages only while tracing: the
// recorder's own system calls are events, and reading partial pages
// would read one page per event or so); memory stays bounded whatever the
// event rate. Stopping turns the instance's tracing_on off, moves the
// last full pages, reads the partial ones with read(2), reads each CPU's
// stats (overrun and dropped events: the lost events), removes the
// instance, then writes the trace.dat under a temporary name and links
// (or, with -f, renames) it to the output. Instances named tracetui-<pid>
// whose process is gone (a recording killed by SIGKILL) are removed by the
// next recording.
//
// # The file written (little endian, 8-byte longs)
//
//	"\x17\x08\x44tracing" "7\0" <0: little endian> <8: long size>
//	<u32 page size> "zstd\0" "1.5.4\0" (or "none\0" "\0")
//	<u64 offset of the options section>
//	sections, each <u16 id> <u16 flags: 1 compressed> <u32 0: no
//	description string> <u64 size> then, compressed, <u32 compressed
//	size> <u32 size> <zstd frame>:
//	  16 header info: "header_page\0" <u64 n> header_page,
//	     "header_event\0" <u64 n> header_event
//	  17 ftrace formats: <u32 count> (<u64 n> events/ftrace/*/format)...
//	  18 event formats: <u32 systems> (system "\0" <u32 count>
//	     (<u64 n> format)...)...: the recorded events only
//	  19 kallsyms: <u32 n> /proc/kallsyms
//	  20 printk formats: <u32 n> printk_formats
//	  21 saved cmdlines: <u64 n> "pid comm\n" lines
//	   3 buffer: zeros up to a page boundary, then each CPU's pages as
//	     trace_pipe_raw gave them (page header: <u64 timestamp> <u64
//	     commit: size | 1<<31 lost events before | 1<<30 their count
//	     stored after the data>, then the events); compressed, each
//	     CPU's data is <u32 chunks> then per chunk of 10 pages <u32
//	     compressed size> <u32 size> <zstd frame>, and the BUFFER
//	     option's size for the CPU counts the chunks, not the count
//	   0 options (never compressed): (<u16 id> <u32 n> data)...:
//	     16-21 <u64 offset of the section>, TRACECLOCK trace_clock,
//	     UNAME, CPUCOUNT <u32>, VERSION, SAVED_TGIDS (32, "pid tgid"
//	     lines and a NUL), CPUSTAT per CPU ("CPU: N\n"
//	     and per_cpu/cpuN/stats), BUFFER (<u64 offset of section 3>
//	     "" (top buffer) clock "\0" <u32 page size> <u32 CPUs> (<u32
//	     cpu> <u64 offset> <u64 size>)...), DONE <u64 0>
//
// Option and section ids come from package ingest/tracedat.
//
// Trace-cmd has no option for the threads' processes (tgids): they are
// written as option 32, as gpuvis writes them, which `trace-cmd report`
// skips and `trace-cmd dump --options` lists as unknown.
//
// This package may import the standard library, golang.org/x/sys/unix,
// klauspost/compress and ingest/tracedat.
package record
