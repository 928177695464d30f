package ftrace

import (
	"bytes"
	"errors"
)

// line is one event line, split into its prefix and its body. Slices
// alias the input line.
type line struct {
	comm    []byte
	tid     int64
	tgid    int64
	hasTgid bool
	cpu     int32
	ts      int64 // nanoseconds
	name    []byte
	body    []byte
	// kind tells how the body is printed: the usual "name: body", the
	// syscall tracepoints' "sys_x(args)" and "sys_x -> ret", or the
	// function tracer's "func <-parent".
	kind lineKind
}

type lineKind uint8

const (
	kindNamed lineKind = iota
	kindSysEnter
	kindSysExit
	kindFunction
)

var errGarbled = errors.New("not an ftrace event line")

// parseLine reads the shapes printed by /sys/kernel/tracing/trace and by
// trace-cmd report:
//
//	<task>-<pid> [(<tgid>)] [<cpu>] [<latency flags>] <sec>.<frac>: <event>: <body>
//	bash-1234  (   1234) [001] d..2. 1234.567890: sched_switch: prev_comm=...
//	bash-1234 [001] 1234.567890: sched_switch:         bash:1234 [120] S ==> ...
//	bash-1234 [001] ..... 1234.567890: sys_openat(dfd: ffffff9c, ...)
//
// The task name may hold spaces and dashes (it is padded on the left), so
// the CPU column "[nnn]" anchors the parse.
func parseLine(b []byte, l *line) error {
	// The CPU column comes before the first ": " (after the timestamp);
	// brackets in the body ("[120]") are not it.
	limit := len(b)
	if c := bytes.Index(b, []byte(": ")); c >= 0 {
		limit = c
	}
	cpuAt := -1
	for i := 0; i+2 < limit; i++ {
		if b[i] == '[' && i > 0 && b[i-1] == ' ' {
			j := i + 1
			for j < len(b) && b[j] >= '0' && b[j] <= '9' {
				j++
			}
			if j > i+1 && j < len(b) && b[j] == ']' {
				cpuAt = i
				break
			}
		}
	}
	if cpuAt < 0 {
		return parseUnbracketed(b, l)
	}
	task := bytes.TrimSpace(b[:cpuAt])
	l.hasTgid = false
	if n := len(task); n > 0 && task[n-1] == ')' {
		open := bytes.LastIndexByte(task, '(')
		if open < 0 {
			return errGarbled
		}
		tg := bytes.TrimSpace(task[open+1 : n-1])
		if v, ok := parseDec(tg); ok {
			l.tgid, l.hasTgid = v, true
		}
		task = bytes.TrimSpace(task[:open])
	}
	if !parseTask(task, l) {
		return parseUnbracketed(b, l)
	}
	end := bytes.IndexByte(b[cpuAt:], ']') + cpuAt
	cpu, _ := parseDec(b[cpuAt+1 : end])
	if cpu > 1<<20 {
		return errGarbled
	}
	l.cpu = int32(cpu)
	rest := b[end+1:]
	// Optional latency flags, then the timestamp ending with ':'.
	for k := 0; k < 2; k++ {
		rest = trimLeft(rest)
		sp := bytes.IndexByte(rest, ' ')
		tok := rest
		if sp >= 0 {
			tok = rest[:sp]
		}
		if n := len(tok); n > 1 && tok[n-1] == ':' {
			ts, ok := parseSeconds(tok[:n-1])
			if !ok {
				return errGarbled
			}
			l.ts = ts
			if sp < 0 {
				return errGarbled
			}
			return parseEventText(trimLeft(rest[sp:]), l)
		}
		if sp < 0 {
			break
		}
		rest = rest[sp:]
	}
	return errGarbled
}

// parseTask reads "comm-pid" (the comm may hold dashes).
func parseTask(task []byte, l *line) bool {
	dash := bytes.LastIndexByte(task, '-')
	if dash < 0 {
		return false
	}
	tid, ok := parseDec(task[dash+1:])
	if !ok {
		return false
	}
	l.comm, l.tid = task[:dash], tid
	return true
}

// parseUnbracketed reads the shape of `trace-cmd report -l` (trace-cmd
// 2.x), where the CPU number runs into the latency flags:
//
//	<idle>-0       0d.h1. 106467.859747: function:             ktime_get <-- tick_check_idle
func parseUnbracketed(b []byte, l *line) error {
	// The timestamp is the first token "<digits>.<digits>:" after a space.
	for i := 1; i < len(b); i++ {
		if b[i-1] != ' ' || b[i] < '0' || b[i] > '9' {
			continue
		}
		j := i
		for j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == '.') {
			j++
		}
		if j >= len(b) || b[j] != ':' {
			continue
		}
		ts, ok := parseSeconds(b[i:j])
		if !ok {
			continue
		}
		head := bytes.TrimSpace(b[:i])
		sp := bytes.LastIndexAny(head, " \t")
		if sp < 0 {
			return errGarbled
		}
		cpuFlags := head[sp+1:]
		k := 0
		for k < len(cpuFlags) && cpuFlags[k] >= '0' && cpuFlags[k] <= '9' {
			k++
		}
		if k == 0 || k == len(cpuFlags) || k > 7 {
			return errGarbled
		}
		cpu, _ := parseDec(cpuFlags[:k])
		if !parseTask(bytes.TrimSpace(head[:sp]), l) {
			return errGarbled
		}
		l.cpu, l.ts, l.hasTgid = int32(cpu), ts, false
		return parseEventText(trimLeft(b[j+1:]), l)
	}
	return errGarbled
}

// parseEventText splits "name: body" or recognises the syscall and
// function tracer shapes.
func parseEventText(b []byte, l *line) error {
	i := 0
	for i < len(b) && isIdent(b[i]) {
		i++
	}
	if i == 0 {
		return errGarbled
	}
	name := b[:i]
	switch {
	case i < len(b) && b[i] == ':':
		l.name, l.body, l.kind = name, bytes.TrimSpace(b[i+1:]), kindNamed
	case i < len(b) && b[i] == '(' && bytes.HasPrefix(name, []byte("sys_")):
		body := b[i+1:]
		if n := len(body); n > 0 && body[n-1] == ')' {
			body = body[:n-1]
		}
		l.name, l.body, l.kind = name, body, kindSysEnter
	case bytes.HasPrefix(b[i:], []byte(" -> ")) && bytes.HasPrefix(name, []byte("sys_")):
		l.name, l.body, l.kind = name, bytes.TrimSpace(b[i+4:]), kindSysExit
	case bytes.HasPrefix(b[i:], []byte(" <-")):
		l.name, l.body, l.kind = name, b[i+3:], kindFunction
	default:
		return errGarbled
	}
	return nil
}

func isIdent(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

func trimLeft(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// parseDec parses a non-negative or negative decimal integer.
func parseDec(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// parseHex parses hexadecimal digits, with or without 0x, as the 64-bit
// pattern they print (so 0xfffffffffffffffe reads as -2).
func parseHex(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X') {
		b = b[2:]
	}
	if len(b) == 0 || len(b) > 16 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | uint64(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | uint64(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 | uint64(c-'A'+10)
		default:
			return 0, false
		}
	}
	if neg {
		return -int64(v), true
	}
	return int64(v), true
}

// parseSeconds converts "1234.567890" (up to nine decimals) to
// nanoseconds exactly.
func parseSeconds(b []byte) (int64, bool) {
	dot := bytes.IndexByte(b, '.')
	if dot <= 0 {
		return 0, false
	}
	sec, ok := parseDec(b[:dot])
	if !ok || sec < 0 || sec > 9_000_000_000 {
		return 0, false
	}
	frac := b[dot+1:]
	if len(frac) == 0 || len(frac) > 9 {
		return 0, false
	}
	var ns int64
	for i := 0; i < 9; i++ {
		ns *= 10
		if i < len(frac) {
			c := frac[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			ns += int64(c - '0')
		}
	}
	return sec*1_000_000_000 + ns, true
}
