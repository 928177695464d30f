package kernel

import (
	"strings"

	"github.com/tracetui/tracetui/core"
)

// handler says what an event class does to the state; one per
// event kind the analysis understands.
type handler uint8

const (
	hUnresolved handler = iota // class not looked at yet
	hNone                      // not a kernel event of interest
	hSchedSwitch
	hWakeup // sched_wakeup, sched_waking, sched_wakeup_new
	hFork
	hExec
	hExit
	hFree
	hPiSetprio
	hMigrate
	hSysEntry
	hSysExit
	hIrqEntry
	hIrqExit
	hSoftRaise
	hSoftEntry
	hSoftExit
	hStatedump
	hTimerEntry // hrtimer expiry: only the wake-up context stack
	hTimerExit
	hPerfComm // perf.data's side-band records (perfrecords.go)
	hPerfFork
	hPerfExit
	hPerfSwitch
	hNewTask // task_newtask: the new task's clone flags (clone.go)
	numHandlers
)

// Field slots, per handler: index into classPlan.f. A layout names the
// field of each slot; the plan holds its index in the class.
const (
	// sched_switch
	sPrevComm, sPrevTID, sPrevPrio, sPrevState, sNextComm, sNextTID, sNextPrio = 0, 1, 2, 3, 4, 5, 6
	// sched_wakeup / waking / wakeup_new
	sWakeComm, sWakeTID, sWakePrio, sWakeTarget = 0, 1, 2, 3
	// sched_process_fork
	sParentComm, sParentTID, sParentPID, sChildComm, sChildTID, sChildPID = 0, 1, 2, 3, 4, 5
	// sched_process_exec
	sExecFile, sExecTID = 0, 1
	// sched_process_exit, sched_process_free
	sProcComm, sProcTID = 0, 1
	// sched_pi_setprio
	sPiTID, sPiPrio = 0, 1
	// sched_migrate_task
	sMigTID, sMigDest = 0, 1
	// raw syscall entry (number), irq_handler_*, softirq_*
	sNumber = 0
	// system call entry: a raw entry's arguments (hex text, the first
	// one clone's flags), a named clone entry's flags (see clone.go)
	sSysArgs, sCloneFlags = 1, 2
	// task_newtask
	sNewTaskFlags = 0
	// irq_handler_entry: the handler's name
	sIRQName = 1
	// system call exit
	sRet = 0
	// lttng_statedump_process_state
	sDumpTID, sDumpPID, sDumpPPID, sDumpName, sDumpStatus, sDumpCPU = 0, 1, 2, 3, 4, 5

	numSlots = 7
)

// Layout names the events and fields of one kernel tracer's output, like
// Trace Compass's IKernelAnalysisEventLayout. It is picked once per trace
// ([Detect]) and only read at class-resolution time, never per event.
type Layout struct {
	name   string
	events map[string]handler
	// fields[h][slot] names the field of a slot; "a|b" tries a, then b.
	fields [numHandlers][numSlots]string
	// Syscall events: entry and exit name prefixes (the rest of the name
	// is the system call), and the raw events carrying a number instead.
	sysEntryPrefixes []string
	sysExitPrefixes  []string
	sysExitNames     []string // exits without the syscall name ("exit_syscall")
	rawEntry         string   // raw entry event, number in field rawNumber
	rawExit          string
	rawNumber        string
	// Context fields naming the running thread and its process (perf's
	// perf_tid, ftrace's line prefix, an LTTng tid context).
	ctxTID, ctxPID string
	// wakeupPrio: the wakeup's prio field is in the same unit as
	// sched_switch's (false for lttng-modules < 2.7, which reports
	// p->prio in sched_wakeup but p->prio-100 in sched_switch).
	wakeupPrio bool
	// sideband: the name prefix of records whose context is not the
	// running thread (perf's synthesized start-up records have thread 0;
	// a SWITCH_CPU_WIDE out names the thread sched_switch took off), read
	// by their own handler if any ("perf_" for perf.data).
	sideband string
}

// Name returns the layout's name ("lttng-2.7", "lttng-2.0", "perf", "ftrace").
func (l *Layout) Name() string { return l.name }

// String implements fmt.Stringer.
func (l *Layout) String() string { return l.name }

func schedEvents(prefix string) map[string]handler {
	return map[string]handler{
		prefix + "sched_switch":       hSchedSwitch,
		prefix + "sched_wakeup":       hWakeup,
		prefix + "sched_waking":       hWakeup,
		prefix + "sched_wakeup_new":   hWakeup,
		prefix + "sched_process_fork": hFork,
		prefix + "sched_process_exec": hExec,
		prefix + "sched_process_exit": hExit,
		prefix + "sched_process_free": hFree,
		prefix + "sched_pi_setprio":   hPiSetprio,
		prefix + "sched_migrate_task": hMigrate,
	}
}

// linuxTracepoints are the kernel's sched, irq, timer and task tracepoints
// under their ftrace names, prefixed with their subsystem ("irq:...") when
// subsystems is set, as perf names them.
func linuxTracepoints(subsystems bool) map[string]handler {
	sub := func(s string) string {
		if subsystems {
			return s + ":"
		}
		return ""
	}
	return withEvents(schedEvents(sub("sched")),
		sub("irq")+"irq_handler_entry", hIrqEntry, sub("irq")+"irq_handler_exit", hIrqExit,
		sub("irq")+"softirq_raise", hSoftRaise, sub("irq")+"softirq_entry", hSoftEntry, sub("irq")+"softirq_exit", hSoftExit,
		sub("timer")+"hrtimer_expire_entry", hTimerEntry, sub("timer")+"hrtimer_expire_exit", hTimerExit,
		sub("task")+"task_newtask", hNewTask)
}

func withEvents(m map[string]handler, kv ...any) map[string]handler {
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(handler)
	}
	return m
}

// lttngFields are the payload field names of lttng-modules (2.0 and later).
var lttngFields = [numHandlers][numSlots]string{
	hSchedSwitch: {"prev_comm", "prev_tid", "prev_prio", "prev_state", "next_comm", "next_tid", "next_prio"},
	hWakeup:      {"comm", "tid", "prio", "target_cpu"},
	hFork:        {"parent_comm", "parent_tid", "parent_pid", "child_comm", "child_tid", "child_pid"},
	hExec:        {"filename", "tid"},
	hExit:        {"comm", "tid"},
	hFree:        {"comm", "tid"},
	hPiSetprio:   {"tid", "newprio"},
	hMigrate:     {"tid", "dest_cpu"},
	hSysEntry:    {"id", "", "clone_flags"}, // id only read for sys_unknown
	hSysExit:     {"ret"},
	hIrqEntry:    {"irq", "name"},
	hIrqExit:     {"irq"},
	hSoftRaise:   {"vec"},
	hSoftEntry:   {"vec"},
	hSoftExit:    {"vec"},
	hStatedump:   {"tid", "pid", "ppid", "name", "status", "cpu"},
}

// linuxFields are the kernel's own tracepoint field names, as perf and
// ftrace record them: "pid" fields hold thread ids.
var linuxFields = [numHandlers][numSlots]string{
	hSchedSwitch: {"prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid", "next_prio"},
	hWakeup:      {"comm", "pid", "prio", "target_cpu"},
	// perf names the parent parent_comm/parent_pid, ftrace comm/pid; the
	// process ids (tgids) are not recorded: clone.go infers the child's.
	hFork:      {"parent_comm|comm", "parent_pid|pid", "", "child_comm", "child_pid", ""},
	hExec:      {"filename", "pid"},
	hExit:      {"comm", "pid"},
	hFree:      {"comm", "pid"},
	hPiSetprio: {"pid", "newprio"},
	hMigrate:   {"pid", "dest_cpu"},
	hSysEntry:  {"id|NR", "args", "clone_flags"},
	hNewTask:   {"clone_flags"},
	hSysExit:   {"ret"},
	hIrqEntry:  {"irq", "name"},
	hIrqExit:   {"irq"},
	hSoftRaise: {"vec"},
	hSoftEntry: {"vec"},
	hSoftExit:  {"vec"},
}

// The layouts tracetui knows.
var (
	// LayoutLTTng27 is lttng-modules 2.7 and later: syscall_entry_<name>,
	// syscall_exit_<name>, irq_softirq_*, sched_waking.
	LayoutLTTng27 = &Layout{
		name: "lttng-2.7",
		events: withEvents(schedEvents(""),
			"irq_handler_entry", hIrqEntry, "irq_handler_exit", hIrqExit,
			"irq_softirq_raise", hSoftRaise, "irq_softirq_entry", hSoftEntry, "irq_softirq_exit", hSoftExit,
			"timer_hrtimer_expire_entry", hTimerEntry, "timer_hrtimer_expire_exit", hTimerExit,
			"lttng_statedump_process_state", hStatedump),
		fields:           lttngFields,
		sysEntryPrefixes: []string{"syscall_entry_", "compat_syscall_entry_"},
		sysExitPrefixes:  []string{"syscall_exit_", "compat_syscall_exit_"},
		ctxTID:           core.FieldTID,
		ctxPID:           core.FieldPID,
		wakeupPrio:       true,
	}
	// LayoutLTTng20 is lttng-modules 2.0 to 2.6: sys_<name> entries, one
	// exit_syscall event, softirq_*.
	LayoutLTTng20 = &Layout{
		name: "lttng-2.0",
		events: withEvents(schedEvents(""),
			"irq_handler_entry", hIrqEntry, "irq_handler_exit", hIrqExit,
			"softirq_raise", hSoftRaise, "softirq_entry", hSoftEntry, "softirq_exit", hSoftExit,
			"hrtimer_expire_entry", hTimerEntry, "hrtimer_expire_exit", hTimerExit,
			"lttng_statedump_process_state", hStatedump),
		fields:           lttngFields,
		sysEntryPrefixes: []string{"sys_", "compat_sys_"},
		sysExitNames:     []string{"exit_syscall"},
		ctxTID:           core.FieldTID,
		ctxPID:           core.FieldPID,
	}
	// LayoutPerf is perf data converted to CTF (perf data convert --to-ctf):
	// subsystem-prefixed names, kernel field names, perf_tid/perf_pid.
	LayoutPerf = &Layout{
		name:             "perf",
		events:           linuxTracepoints(true),
		fields:           linuxFields,
		sysEntryPrefixes: []string{"syscalls:sys_enter_"},
		sysExitPrefixes:  []string{"syscalls:sys_exit_"},
		rawEntry:         "raw_syscalls:sys_enter",
		rawExit:          "raw_syscalls:sys_exit",
		rawNumber:        "id",
		ctxTID:           "perf_tid",
		ctxPID:           "perf_pid",
		wakeupPrio:       true,
	}
	// LayoutFtrace is ftrace text as the ftrace reader decodes it: event
	// names without the subsystem, kernel field names, prev_state as
	// letters, the running thread in context.tid.
	LayoutFtrace = &Layout{
		name:             "ftrace",
		events:           linuxTracepoints(false),
		fields:           linuxFields,
		sysEntryPrefixes: []string{"sys_enter_"},
		sysExitPrefixes:  []string{"sys_exit_"},
		rawEntry:         "sys_enter",
		rawExit:          "sys_exit",
		rawNumber:        "NR",
		ctxTID:           core.FieldTID,
		ctxPID:           core.FieldPID,
		wakeupPrio:       true,
	}
)

// Detect returns the layout of a Linux kernel trace, or nil when the
// trace is not one (no scheduling, syscall or interrupt event). info.Format
// "ftrace" or "tracedat" (trace-cmd's binary file, whose reader names the
// events and fields as the ftrace text reader does) selects the ftrace
// layout even before any class is known; "perfdata" (perf record's file,
// whose tracepoints are named so too) one of the perf.data layouts, with
// its side-band records;
// otherwise the class names decide: subsystem-prefixed names are perf,
// syscall_entry_* / irq_softirq_* / sched_waking are LTTng 2.7+,
// sys_* / exit_syscall / softirq_* are LTTng 2.0-2.6.
func Detect(info core.SourceInfo, classes []*core.EventClass) *Layout {
	if info.Format == "perfdata" {
		for _, c := range classes {
			if c.Name == "sched_switch" {
				return LayoutPerfDataSched
			}
		}
		return LayoutPerfData
	}
	if info.Format == "ftrace" || info.Format == "tracedat" {
		return LayoutFtrace
	}
	var perf, l27, l20, sched bool
	for _, c := range classes {
		n := c.Name
		switch {
		case strings.HasPrefix(n, "sched:"), strings.HasPrefix(n, "raw_syscalls:"),
			strings.HasPrefix(n, "syscalls:"), strings.HasPrefix(n, "irq:"):
			perf = true
		case strings.HasPrefix(n, "syscall_entry_"), strings.HasPrefix(n, "syscall_exit_"),
			strings.HasPrefix(n, "irq_softirq_"), n == "sched_waking":
			l27 = true
		case n == "exit_syscall", n == "softirq_entry", strings.HasPrefix(n, "sys_") && info.Domain != "ust":
			l20 = true
		case n == "sched_switch", n == "irq_handler_entry":
			sched = true
		}
	}
	switch {
	case perf:
		return LayoutPerf
	case l27:
		return LayoutLTTng27
	case l20:
		return LayoutLTTng20
	case sched:
		return LayoutLTTng27
	}
	return nil
}

// classify returns the handler of an event name, and for syscall entries
// the system call's name ("" for raw entries carrying a number).
func (l *Layout) classify(name string) (handler, string) {
	if h, ok := l.events[name]; ok {
		return h, ""
	}
	if name == l.rawEntry && name != "" {
		return hSysEntry, ""
	}
	if name == l.rawExit && name != "" {
		return hSysExit, ""
	}
	for _, p := range l.sysExitPrefixes {
		if strings.HasPrefix(name, p) && len(name) > len(p) {
			return hSysExit, ""
		}
	}
	for _, n := range l.sysExitNames {
		if name == n {
			return hSysExit, ""
		}
	}
	for _, p := range l.sysEntryPrefixes {
		if strings.HasPrefix(name, p) && len(name) > len(p) {
			return hSysEntry, name[len(p):]
		}
	}
	return hNone, ""
}

// fieldIndex resolves a slot's field name ("a|b": first present) in c.
func fieldIndex(c *core.EventClass, names string) int16 {
	if names == "" {
		return -1
	}
	for n := range strings.SplitSeq(names, "|") {
		if i := c.FieldIndex(n); i >= 0 && i < 1<<15 {
			return int16(i)
		}
	}
	return -1
}
