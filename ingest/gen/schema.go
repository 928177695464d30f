package gen

import (
	"fmt"
	"strings"
)

// The event classes of the generated trace, with the field layouts of
// LTTng 2.13's kernel tracer on x86-64 (lttng-modules
// include/instrumentation/events/*.h and the syscall instrumentation:
// entry events carry the input arguments, exit events the return value and
// the output arguments). Every field is byte-aligned, as on x86-64.

type fieldKind uint8

const (
	kInt   fieldKind = iota // decimal integer
	kHex                    // hexadecimal integer (pointers, flags)
	kComm                   // char[16] printed as a string (task comm)
	kStr                    // NUL-terminated string
	kEnum                   // 32-bit signed enumeration (statedump)
	kVtids                  // u8 length then a sequence of pid_t (fork)
)

type fieldDesc struct {
	name   string
	kind   fieldKind
	size   int // bits, integers
	signed bool
	enum   []string // labels of values 0, 1, 2...
}

type eventDesc struct {
	name   string
	fields []fieldDesc
}

func i32(name string) fieldDesc { return fieldDesc{name: name, kind: kInt, size: 32, signed: true} }
func u32(name string) fieldDesc { return fieldDesc{name: name, kind: kInt, size: 32} }
func i64(name string) fieldDesc { return fieldDesc{name: name, kind: kInt, size: 64, signed: true} }
func u64(name string) fieldDesc { return fieldDesc{name: name, kind: kInt, size: 64} }
func hex(name string) fieldDesc { return fieldDesc{name: name, kind: kHex, size: 64} }
func comm(name string) fieldDesc {
	return fieldDesc{name: name, kind: kComm}
}
func str(name string) fieldDesc { return fieldDesc{name: name, kind: kStr} }
func enum(name string, labels ...string) fieldDesc {
	return fieldDesc{name: name, kind: kEnum, size: 32, signed: true, enum: labels}
}

// Event class ids, in the order of the events table.
const (
	evStatedumpStart uint16 = iota
	evStatedumpProcess
	evStatedumpEnd
	evSchedSwitch
	evSchedWaking
	evSchedWakeup
	evSchedWakeupNew
	evSchedFork
	evSchedExec
	evSchedExit
	evSchedFree
	evIRQEntry
	evIRQExit
	evSoftIRQRaise
	evSoftIRQEntry
	evSoftIRQExit
	evSysEntryRead
	evSysExitRead
	evSysEntryWrite
	evSysExitWrite
	evSysEntryFutex
	evSysExitFutex
	evSysEntryNanosleep
	evSysExitNanosleep
	evSysEntryClone
	evSysExitClone
	evSysEntryExecve
	evSysExitExecve
	evSysEntryWait4
	evSysExitWait4
	evSysEntryExit
	evSysEntryExitGroup
	numEvents
)

var wakeFields = []fieldDesc{comm("comm"), i32("tid"), i32("prio"), i32("target_cpu")}
var taskFields = []fieldDesc{comm("comm"), i32("tid"), i32("prio")}

// events is indexed by event class id.
var events = [numEvents]eventDesc{
	evStatedumpStart: {"lttng_statedump_start", nil},
	evStatedumpProcess: {"lttng_statedump_process_state", []fieldDesc{
		i32("tid"), i32("pid"), i32("ppid"), comm("name"),
		enum("type", "USER_THREAD", "KERNEL_THREAD"),
		enum("mode", "USER_MODE", "SYSCALL", "TRAP", "IRQ", "SOFTIRQ", "UNKNOWN"),
		enum("submode", "NONE", "UNKNOWN"),
		enum("status", "UNNAMED", "WAIT_FORK", "WAIT_CPU", "EXIT", "ZOMBIE", "WAIT", "RUN", "DEAD"),
		u32("cpu"), hex("file_table_address"),
	}},
	evStatedumpEnd: {"lttng_statedump_end", nil},
	evSchedSwitch: {"sched_switch", []fieldDesc{
		comm("prev_comm"), i32("prev_tid"), i32("prev_prio"), i64("prev_state"),
		comm("next_comm"), i32("next_tid"), i32("next_prio"),
	}},
	evSchedWaking:    {"sched_waking", wakeFields},
	evSchedWakeup:    {"sched_wakeup", wakeFields},
	evSchedWakeupNew: {"sched_wakeup_new", wakeFields},
	evSchedFork: {"sched_process_fork", []fieldDesc{
		comm("parent_comm"), i32("parent_tid"), i32("parent_pid"), u32("parent_ns_inum"),
		comm("child_comm"), i32("child_tid"), {name: "vtids", kind: kVtids}, i32("child_pid"), u32("child_ns_inum"),
	}},
	evSchedExec:         {"sched_process_exec", []fieldDesc{str("filename"), i32("tid"), i32("old_tid")}},
	evSchedExit:         {"sched_process_exit", taskFields},
	evSchedFree:         {"sched_process_free", taskFields},
	evIRQEntry:          {"irq_handler_entry", []fieldDesc{i32("irq"), str("name")}},
	evIRQExit:           {"irq_handler_exit", []fieldDesc{i32("irq"), i32("ret")}},
	evSoftIRQRaise:      {"irq_softirq_raise", []fieldDesc{u32("vec")}},
	evSoftIRQEntry:      {"irq_softirq_entry", []fieldDesc{u32("vec")}},
	evSoftIRQExit:       {"irq_softirq_exit", []fieldDesc{u32("vec")}},
	evSysEntryRead:      {"syscall_entry_read", []fieldDesc{u32("fd"), u64("count")}},
	evSysExitRead:       {"syscall_exit_read", []fieldDesc{i64("ret"), hex("buf")}},
	evSysEntryWrite:     {"syscall_entry_write", []fieldDesc{u32("fd"), hex("buf"), u64("count")}},
	evSysExitWrite:      {"syscall_exit_write", []fieldDesc{i64("ret")}},
	evSysEntryFutex:     {"syscall_entry_futex", []fieldDesc{hex("uaddr"), i32("op"), u32("val"), hex("utime"), hex("uaddr2"), u32("val3")}},
	evSysExitFutex:      {"syscall_exit_futex", []fieldDesc{i64("ret"), hex("uaddr"), hex("uaddr2")}},
	evSysEntryNanosleep: {"syscall_entry_nanosleep", []fieldDesc{hex("rqtp")}},
	evSysExitNanosleep:  {"syscall_exit_nanosleep", []fieldDesc{i64("ret"), hex("rmtp")}},
	evSysEntryClone:     {"syscall_entry_clone", []fieldDesc{hex("clone_flags"), hex("newsp"), hex("parent_tid"), hex("child_tid")}},
	evSysExitClone:      {"syscall_exit_clone", []fieldDesc{i64("ret")}},
	evSysEntryExecve:    {"syscall_entry_execve", []fieldDesc{str("filename"), hex("argv"), hex("envp")}},
	evSysExitExecve:     {"syscall_exit_execve", []fieldDesc{i64("ret")}},
	evSysEntryWait4:     {"syscall_entry_wait4", []fieldDesc{i32("upid"), i32("options")}},
	evSysExitWait4:      {"syscall_exit_wait4", []fieldDesc{i64("ret"), hex("stat_addr"), hex("ru")}},
	evSysEntryExit:      {"syscall_entry_exit", []fieldDesc{i32("error_code")}},
	evSysEntryExitGroup: {"syscall_entry_exit_group", []fieldDesc{i32("error_code")}},
}

// metadataText returns the TSDL of the trace, shaped as LTTng 2.13 writes
// it for a kernel session.
func metadataText(cfg *Config, traceUUID, clockUUID string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `/* CTF 1.8 */

typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 16; align = 8; signed = false; } := uint16_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 64; align = 8; signed = false; } := unsigned long;
typealias integer { size = 5; align = 1; signed = false; } := uint5_t;
typealias integer { size = 27; align = 1; signed = false; } := uint27_t;

trace {
	major = 1;
	minor = 8;
	uuid = "%s";
	byte_order = le;
	packet.header := struct {
		uint32_t magic;
		uint8_t  uuid[16];
		uint32_t stream_id;
		uint64_t stream_instance_id;
	};
};

env {
	hostname = "%s";
	domain = "kernel";
	sysname = "Linux";
	kernel_release = "6.1.0-13-amd64";
	kernel_version = "#1 SMP PREEMPT_DYNAMIC Debian 6.1.55-1 (2023-09-29)";
	tracer_name = "lttng-modules";
	tracer_major = 2;
	tracer_minor = 13;
	tracer_patchlevel = 9;
	trace_buffering_scheme = "global";
	trace_name = "burn-%d-threads";
	trace_creation_datetime = "%s";
};

clock {
	name = "monotonic";
	uuid = "%s";
	description = "Monotonic Clock";
	freq = 1000000000; /* Frequency, in Hz */
	/* clock value offset from Epoch is: offset * (1/freq) */
	offset = %d;
};

typealias integer {
	size = 27; align = 1; signed = false;
	map = clock.monotonic.value;
} := uint27_clock_monotonic_t;

typealias integer {
	size = 32; align = 8; signed = false;
	map = clock.monotonic.value;
} := uint32_clock_monotonic_t;

typealias integer {
	size = 64; align = 8; signed = false;
	map = clock.monotonic.value;
} := uint64_clock_monotonic_t;

struct packet_context {
	uint64_clock_monotonic_t timestamp_begin;
	uint64_clock_monotonic_t timestamp_end;
	uint64_t content_size;
	uint64_t packet_size;
	uint64_t packet_seq_num;
	unsigned long events_discarded;
	uint32_t cpu_id;
};

struct event_header_compact {
	enum : uint5_t { compact = 0 ... 30, extended = 31 } id;
	variant <id> {
		struct {
			uint27_clock_monotonic_t timestamp;
		} compact;
		struct {
			uint32_t id;
			uint64_clock_monotonic_t timestamp;
		} extended;
	} v;
} align(8);

struct event_header_large {
	enum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;
	variant <id> {
		struct {
			uint32_clock_monotonic_t timestamp;
		} compact;
		struct {
			uint32_t id;
			uint64_clock_monotonic_t timestamp;
		} extended;
	} v;
} align(8);

stream {
	id = 0;
	event.header := struct event_header_large;
	packet.context := struct packet_context;
};

`, traceUUID, cfg.Hostname, cfg.Threads, creationDate(cfg), clockUUID, clockOffsetNS)
	for id, ev := range events {
		fmt.Fprintf(&b, "event {\n\tname = \"%s\";\n\tid = %d;\n\tstream_id = 0;\n\tfields := struct {\n", ev.name, id)
		for _, f := range ev.fields {
			b.WriteString(fieldTSDL(f))
		}
		b.WriteString("\t};\n};\n\n")
	}
	return b.String()
}

func intTSDL(size int, signed bool, base int) string {
	s := 0
	if signed {
		s = 1
	}
	return fmt.Sprintf("integer { size = %d; align = 8; signed = %d; encoding = none; base = %d; }", size, s, base)
}

func fieldTSDL(f fieldDesc) string {
	switch f.kind {
	case kHex:
		return fmt.Sprintf("\t\t%s _%s;\n", intTSDL(f.size, false, 16), f.name)
	case kComm:
		return fmt.Sprintf("\t\tinteger { size = 8; align = 8; signed = 1; encoding = UTF8; base = 10; } _%s[16];\n", f.name)
	case kStr:
		return fmt.Sprintf("\t\tstring _%s;\n", f.name)
	case kEnum:
		var b strings.Builder
		fmt.Fprintf(&b, "\t\tenum : %s {\n", intTSDL(32, true, 10))
		for i, l := range f.enum {
			fmt.Fprintf(&b, "\t\t\t\"%s\" = %d,\n", l, i)
		}
		fmt.Fprintf(&b, "\t\t} _%s;\n", f.name)
		return b.String()
	case kVtids:
		return fmt.Sprintf("\t\t%s __%s_length;\n\t\t%s _%s[ __%s_length ];\n",
			intTSDL(8, false, 10), f.name, intTSDL(32, true, 10), f.name, f.name)
	}
	return fmt.Sprintf("\t\t%s _%s;\n", intTSDL(f.size, f.signed, 10), f.name)
}
