// Package gen writes synthetic LTTng-kernel-style CTF traces of the R-SHT
// article's scalability workload (a "burn" program forking many threads
// that run, make system calls, sleep, get woken and exit), for the demo
// trace of the browser and for benchmarks.
//
// The traces look like what LTTng 2.13's kernel tracer writes on x86-64:
// packetized metadata with LTTng's types, env and monotonic clock; one
// stream per CPU (channel0_N) of packets with the LTTng packet context
// (cpu_id, packet_seq_num, events_discarded) and large event headers
// (compact 32-bit timestamps, extended ones when the high bits change);
// the kernel analysis' events with LTTng's field layouts: sched_switch,
// sched_waking, sched_wakeup, sched_wakeup_new, sched_process_fork,
// sched_process_exec, sched_process_exit, sched_process_free,
// syscall_entry_*/syscall_exit_*, irq_handler_entry/exit,
// irq_softirq_raise/entry/exit and the lttng_statedump_* events.
//
// [Write] is deterministic: the same [Config] writes the same bytes.
package gen
