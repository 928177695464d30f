// Package ftrace reads ftrace text captures: the output of
// `cat /sys/kernel/tracing/trace` (with or without the latency columns and
// the record-tgid column) and of `trace-cmd report` (with or without
// latency columns, with libtraceevent's sched plugins), so the kernel
// analysis (ingest/states/kernel) draws Control Flow and Resources for them as
// for LTTng traces.
//
// Each line "<task>-<tid> [(<tgid>)] [<cpu>] [<flags>] <sec>.<frac>: <event>: <body>"
// becomes one core.Event: CPU from [cpu], the time in nanoseconds, the
// class named as ftrace names the event, and the fields:
//
//	context.tid, context.pid (tgid, when recorded), context.comm (task name),
//	context.procname (never known: absent), then the event's own fields.
//
// The events the kernel analysis reads have fixed fields with the kernel's
// names whatever their printed shape (the kernel's "k=v" print formats or
// trace-cmd's plugin output such as "bash:1234 [120] S ==> ..."):
// sched_switch (prev_state is text: "R", "R+", "S", "D|W"...), sched_wakeup,
// sched_waking, sched_wakeup_new, sched_process_{fork,exec,exit,free,wait},
// sched_migrate_task, irq_handler_{entry,exit}, softirq_{raise,entry,exit},
// raw sys_enter (NR, args) and sys_exit (NR, ret), tracing_mark_write
// (buf). The syscalls tracepoints become sys_enter_<name> (one field per
// argument, hexadecimal as printed) and sys_exit_<name> (ret), both from
// trace-cmd's "sys_enter_openat: dfd: 0xffffff9c, ..." and from the
// kernel's own "sys_openat(dfd: ffffff9c, ...)" and "sys_openat -> 0x3".
// Other events get the "k=v" pairs of their body as fields (integers when
// decimal or 0x-hexadecimal), or one field "text".
//
// Open reads the capture once to learn the classes and their fields (so
// class IDs do not depend on where reading starts), the time range and the
// problems: lines that are not events are skipped with a "skipped-line"
// warning naming the line and offset, trace-cmd's "[LOST n EVENTS]" gives a
// "discarded" warning, and a line earlier than the one before it (which
// the tools never print) is delivered at the previous time with a
// "time-order" warning. One line more than a millisecond ahead of both its
// neighbours, while they agree, is a damaged line: it is delivered at the
// next line's time with a "time-jump" warning, instead of dragging every
// later event to its time. Binary input (a trace.dat, NUL bytes) is
// refused with a message saying what it is. A checkpoint is a byte offset.
package ftrace
