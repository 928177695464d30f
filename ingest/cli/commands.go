package cli

// commands lists the subcommands in the order `tracetui help` shows them.
// The browser (no subcommand) is the browse function given to [Run]. A
// function, not a variable, because the subcommands look themselves up in
// it.
func commands() []Command {
	return []Command{
		{"index", "index [--layout rsht|esht|sht] [--index FILE] [--format F] [--arch A] [--json] TRACE", "build (or rebuild) the trace's state index", runIndex},
		{"info", "info [--index FILE] [--format F] [--json] [--check] TRACE", "describe an existing index without rebuilding it", runInfo},
		{"dump", "dump [--limit N] [--format F] TRACE", "print every event, one line each, as babeltrace2 does", runDump},
		{"query", "query [--index FILE] [--format F] [--json] [--from T] [--to T] [--samples N] TRACE ATTRIBUTE_GLOB...", "print the states of attributes over a time range", runQuery},
		{"critpath", "critpath [--index FILE] [--format F] [--json] [--from T] [--to T] TRACE TID", "print the critical path of a thread: who it waited for, and why", runCritpath},
		{"stats", "stats [--index FILE] [--format F] [--arch A] [--json] [--from T] [--to T] [--top N] TRACE", "print CPU usage, system call, wake-up latency and IRQ statistics, as lttng-analyses does", runStats},
		{"diff", "diff [--format F] [--arch A] [--json] [--top N] [--base-tids TID,...] [--new-tids TID,...] [--calltree] [--base-from T] [--base-to T] [--new-from T] [--new-to T] BASE NEW", "compare two traces, or two ranges or threads of one: CPU time per process and thread, system calls, wake-up latency, interrupts, call paths", runDiff},
		{"calltree", "calltree [--index FILE] [--format F] [--json] [--from T] [--to T] [--tid TID] [--symbols FILE] TRACE", "print the call tree (calls, total and self time per call path; sample counts for perf.data profiles)", runCallTree},
		{"bench", "bench paper|frames [--index FILE] [--layout rsht|esht|sht] [--format F] [--json] TRACE", "run the R-SHT article's Control Flow workload (paper) or the browser's navigation script (frames) on a trace", runBench},
		{"record", "record [-o FILE] [-f] [-e EVENTS] [--duration D] [--buffer-kb N] [--all-cpus] [--no-open] [-- CMD ARGS...]", "record a kernel trace of a command through tracefs into a trace.dat, then browse it", runRecord},
		{"cache", "cache [--clean] [--json]", "list the index cache and, with --clean, prune it", runCache},
		{"gen", "gen --threads N [--cpus C] [--seed S] -o DIR", "write a synthetic LTTng-kernel-style CTF trace", runGen},
		{"help", "help [COMMAND]", "show this help, or a command's flags", runHelp},
	}
}
