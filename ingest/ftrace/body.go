package ftrace

import (
	"bytes"
	"strings"

	"github.com/tracetui/tracetui/core"
)

// kv is one parsed field of an event body, before typing.
type kv struct {
	key, val []byte
}

// fieldType says how a field's text becomes a core.Field.
type fieldType uint8

const (
	typeAuto   fieldType = iota // integer if decimal or 0x-hex, else string
	typeString                  // always text
	typeInt                     // decimal integer (text if it is not one)
	typeHex                     // hexadecimal with or without 0x
)

type fieldSpec struct {
	name string
	typ  fieldType
}

// schemas fixes the fields of the events the kernel analysis reads, in
// the kernel's order and with the kernel's names, whatever shape (kernel
// print format or trace-cmd plugin) the line had.
var schemas = map[string][]fieldSpec{
	"sched_switch": {{"prev_comm", typeString}, {"prev_pid", typeInt}, {"prev_prio", typeInt}, {"prev_state", typeString},
		{"next_comm", typeString}, {"next_pid", typeInt}, {"next_prio", typeInt}},
	"sched_wakeup":       wakeupSchema,
	"sched_waking":       wakeupSchema,
	"sched_wakeup_new":   wakeupSchema,
	"sched_process_fork": {{"comm", typeString}, {"pid", typeInt}, {"child_comm", typeString}, {"child_pid", typeInt}},
	"sched_process_exec": {{"filename", typeString}, {"pid", typeInt}, {"old_pid", typeInt}},
	"sched_process_exit": {{"comm", typeString}, {"pid", typeInt}, {"prio", typeInt}, {"group_dead", typeString}},
	"sched_process_free": {{"comm", typeString}, {"pid", typeInt}, {"prio", typeInt}},
	"sched_process_wait": {{"comm", typeString}, {"pid", typeInt}, {"prio", typeInt}},
	"sched_migrate_task": {{"comm", typeString}, {"pid", typeInt}, {"prio", typeInt}, {"orig_cpu", typeInt}, {"dest_cpu", typeInt}},
	"irq_handler_entry":  {{"irq", typeInt}, {"name", typeString}},
	"irq_handler_exit":   {{"irq", typeInt}, {"ret", typeString}},
	"softirq_raise":      softirqSchema,
	"softirq_entry":      softirqSchema,
	"softirq_exit":       softirqSchema,
	"sys_enter":          {{"NR", typeInt}, {"args", typeString}},
	"sys_exit":           {{"NR", typeInt}, {"ret", typeInt}},
	"function":           {{"ip", typeString}, {"parent_ip", typeString}},
	// trace_marker writes: free text, the kernel's field "buf".
	"tracing_mark_write": {{"buf", typeString}},
	"print":              {{"buf", typeString}},
}

var (
	wakeupSchema  = []fieldSpec{{"comm", typeString}, {"pid", typeInt}, {"prio", typeInt}, {"success", typeInt}, {"target_cpu", typeInt}}
	softirqSchema = []fieldSpec{{"vec", typeInt}, {"action", typeString}}
)

// className returns the class name of a line: the event name as ftrace
// names it, with the syscall tracepoints' "sys_x(...)" and "sys_x -> r"
// mapped to sys_enter_x and sys_exit_x.
func className(dst []byte, l *line) []byte {
	switch l.kind {
	case kindSysEnter:
		dst = append(dst, "sys_enter_"...)
		return append(dst, l.name[len("sys_"):]...)
	case kindSysExit:
		dst = append(dst, "sys_exit_"...)
		return append(dst, l.name[len("sys_"):]...)
	case kindFunction:
		return append(dst, "function"...)
	}
	return append(dst, l.name...)
}

// parseBody splits the body of a line into fields, appending to kvs.
func parseBody(kvs []kv, name []byte, l *line) []kv {
	b := l.body
	switch l.kind {
	case kindSysEnter:
		return parseColonList(kvs, b)
	case kindSysExit:
		return append(kvs, kv{[]byte("ret"), b})
	case kindFunction:
		return append(kvs, kv{[]byte("ip"), l.name}, kv{[]byte("parent_ip"), bytes.TrimSpace(b)})
	}
	switch n := string(name); {
	case n == "sched_switch" && !bytes.Contains(b, []byte("prev_comm=")):
		return parseSwitchPlugin(kvs, b)
	case (n == "sched_wakeup" || n == "sched_waking" || n == "sched_wakeup_new") && !bytes.Contains(b, []byte("comm=")):
		return parseWakeupPlugin(kvs, b)
	case n == "function" && bytes.Contains(b, []byte(" <-- ")):
		// trace-cmd's function tracer: "ktime_get <-- tick_check_idle".
		ip, parent, _ := bytes.Cut(b, []byte(" <-- "))
		return append(kvs, kv{[]byte("ip"), bytes.TrimSpace(ip)}, kv{[]byte("parent_ip"), bytes.TrimSpace(parent)})
	case n == "tracing_mark_write" || n == "print":
		return append(kvs, kv{[]byte("buf"), b})
	case n == "sys_enter":
		return parseRawSysEnter(kvs, b)
	case n == "sys_exit":
		return parseRawSysExit(kvs, b)
	case strings.HasPrefix(n, "sys_enter_"):
		return parseColonList(kvs, b)
	case strings.HasPrefix(n, "sys_exit_"):
		return append(kvs, kv{[]byte("ret"), b})
	}
	start := len(kvs)
	kvs = parseKeyValues(kvs, b)
	if len(kvs) == start && len(b) > 0 {
		kvs = append(kvs, kv{[]byte("text"), b})
	}
	return kvs
}

// parseKeyValues reads the kernel's usual "k=v k=v" print formats. A value
// runs to the next " key=" (so task names with spaces survive); brackets
// around a pair ("vec=1 [action=TIMER]") and the "==>" of sched_switch are
// separators.
func parseKeyValues(kvs []kv, b []byte) []kv {
	start := len(kvs)
	for i := 0; i < len(b); i++ {
		if b[i] != '=' || i == 0 {
			continue
		}
		k := i
		for k > 0 && isIdent(b[k-1]) {
			k--
		}
		if k == i || (k > 0 && b[k-1] != ' ' && b[k-1] != '[' && b[k-1] != '(' && b[k-1] != ',') {
			continue
		}
		if len(kvs) > start {
			prev := &kvs[len(kvs)-1]
			prev.val = trimValue(b[len(b)-len(prev.val) : k])
		}
		kvs = append(kvs, kv{key: b[k:i], val: b[i+1:]})
	}
	if len(kvs) > start {
		prev := &kvs[len(kvs)-1]
		prev.val = trimValue(prev.val)
	}
	return kvs
}

// trimValue drops the separators after a value.
func trimValue(v []byte) []byte {
	for {
		v = bytes.TrimRight(v, " ,[(")
		if w, ok := bytes.CutSuffix(v, []byte("==>")); ok {
			v = w
			continue
		}
		if n := len(v); n > 0 && (v[n-1] == ']' || v[n-1] == ')') && bytes.IndexAny(v, "[(") < 0 {
			v = v[:n-1]
			continue
		}
		return v
	}
}

// parseColonList reads "k: v, k: v" (the syscalls tracepoints).
func parseColonList(kvs []kv, b []byte) []kv {
	for len(b) > 0 {
		item := b
		if c := bytes.Index(b, []byte(", ")); c >= 0 {
			item, b = b[:c], b[c+2:]
		} else {
			b = nil
		}
		k, v, ok := bytes.Cut(item, []byte(": "))
		if !ok {
			continue
		}
		kvs = append(kvs, kv{bytes.TrimSpace(k), bytes.TrimSpace(v)})
	}
	return kvs
}

// parseSwitchPlugin reads trace-cmd's sched_switch plugin output:
// "prev_comm:prev_pid [prev_prio] STATE ==> next_comm:next_pid [next_prio]".
func parseSwitchPlugin(kvs []kv, b []byte) []kv {
	prev, next, ok := bytes.Cut(b, []byte(" ==> "))
	if !ok {
		return append(kvs, kv{[]byte("text"), b})
	}
	var state []byte
	if p := bytes.LastIndexByte(prev, ']'); p >= 0 {
		state = bytes.TrimSpace(prev[p+1:])
		prev = prev[:p+1]
	} else if sp := bytes.LastIndexByte(bytes.TrimSpace(prev), ' '); sp >= 0 {
		state, prev = bytes.TrimSpace(prev[sp+1:]), prev[:sp]
	}
	kvs = commPidPrio(kvs, bytes.TrimSpace(prev), "prev_comm", "prev_pid", "prev_prio")
	kvs = append(kvs, kv{[]byte("prev_state"), state})
	return commPidPrio(kvs, bytes.TrimSpace(next), "next_comm", "next_pid", "next_prio")
}

// parseWakeupPlugin reads trace-cmd's wakeup plugin output:
// "comm:pid [prio] [success=1] CPU:003".
func parseWakeupPlugin(kvs []kv, b []byte) []kv {
	head := b
	if p := bytes.IndexByte(b, ']'); p >= 0 {
		head, b = b[:p+1], b[p+1:]
	} else {
		b = nil
	}
	kvs = commPidPrio(kvs, bytes.TrimSpace(head), "comm", "pid", "prio")
	for _, tok := range bytes.Fields(b) {
		switch {
		case bytes.HasPrefix(tok, []byte("success=")):
			kvs = append(kvs, kv{[]byte("success"), tok[len("success="):]})
		case bytes.HasPrefix(tok, []byte("CPU:")):
			kvs = append(kvs, kv{[]byte("target_cpu"), tok[len("CPU:"):]})
		}
	}
	return kvs
}

// commPidPrio reads "comm:pid [prio]" (comm may hold ':').
func commPidPrio(kvs []kv, b []byte, comm, pid, prio string) []kv {
	if p := bytes.LastIndexByte(b, '['); p >= 0 && b[len(b)-1] == ']' {
		kvs = append(kvs, kv{[]byte(prio), b[p+1 : len(b)-1]})
		b = bytes.TrimSpace(b[:p])
	}
	c := bytes.LastIndexByte(b, ':')
	if c < 0 {
		return append(kvs, kv{[]byte(comm), b})
	}
	return append(kvs, kv{[]byte(comm), b[:c]}, kv{[]byte(pid), b[c+1:]})
}

// parseRawSysEnter reads raw_syscalls:sys_enter, "NR 257 (ffffff9c, 7ffd, 80000, 0, 0, 0)".
func parseRawSysEnter(kvs []kv, b []byte) []kv {
	rest, ok := bytes.CutPrefix(b, []byte("NR "))
	if !ok {
		return append(kvs, kv{[]byte("text"), b})
	}
	nr, args, _ := bytes.Cut(rest, []byte(" ("))
	kvs = append(kvs, kv{[]byte("NR"), nr})
	return append(kvs, kv{[]byte("args"), bytes.TrimSuffix(args, []byte(")"))})
}

// parseRawSysExit reads raw_syscalls:sys_exit, "NR 257 = 3".
func parseRawSysExit(kvs []kv, b []byte) []kv {
	rest, ok := bytes.CutPrefix(b, []byte("NR "))
	if !ok {
		return append(kvs, kv{[]byte("text"), b})
	}
	nr, ret, _ := bytes.Cut(rest, []byte(" = "))
	return append(kvs, kv{[]byte("NR"), nr}, kv{[]byte("ret"), ret})
}

// toField types a field's text.
func toField(val []byte, typ fieldType) core.Field {
	switch typ {
	case typeString:
		return core.Field{Kind: core.FieldString, Bytes: val}
	case typeHex:
		if v, ok := parseHex(val); ok {
			return core.Field{Kind: core.FieldInt, Int: v}
		}
	case typeInt, typeAuto:
		if v, ok := parseDec(val); ok {
			return core.Field{Kind: core.FieldInt, Int: v}
		}
		if len(val) > 2 && val[0] == '0' && (val[1] == 'x' || val[1] == 'X') {
			if v, ok := parseHex(val); ok {
				return core.Field{Kind: core.FieldInt, Int: v}
			}
		}
	}
	return core.Field{Kind: core.FieldString, Bytes: val}
}
