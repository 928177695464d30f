package trace

import (
	"bytes"
	"strconv"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/states/kernel/sysnames"
)

// The raw system call events, whose records carry only the call's number
// (field "NR" for ftrace text and trace.dat, "id" for perf and LTTng), by
// class name.
var rawSyscalls = map[string]bool{
	"sys_enter": true, "sys_exit": true, // ftrace text, trace.dat, perf.data
	"raw_syscalls:sys_enter": true, "raw_syscalls:sys_exit": true, // perf converted to CTF
	"syscall_entry_unknown": true, "syscall_exit_unknown": true, // LTTng
	"compat_syscall_entry_unknown": true, "compat_syscall_exit_unknown": true,
}

// sysNumberField returns the index of the system call number in a raw
// system call event's fields, -1 for other events.
func sysNumberField(cl *core.EventClass) int {
	if !rawSyscalls[cl.Name] {
		return -1
	}
	if i := cl.FieldIndex("NR"); i >= 0 {
		return i
	}
	return cl.FieldIndex("id")
}

// sysTable returns the system call table of src's architecture (the
// recorded one, else the machine's, as the kernel analysis names them
// without --arch), nil when there is none.
func (c *classFields) sysTable(src core.Source) *sysnames.Table {
	if !c.sysKnown {
		c.sysKnown = true
		c.sys, _ = sysnames.For(src.Info().Arch) // no table: numbers stay numbers
	}
	return c.sys
}

// nameSyscall puts the name of a raw system call before its contents, as
// the statistics and the Control Flow rows name it: "futex: NR 202 (...)",
// or "{ syscall = futex, id = 202, ... }" for contents in braces. The
// dump keeps the tools' text: only the table adds the name.
func (r *scanRow) nameSyscall(ev *core.Event, idx classFieldIdx, t *sysnames.Table) {
	n, ok := ev.Field(idx.sysNR).AsInt()
	if !ok {
		return
	}
	name, ok := t.Name(n)
	if !ok {
		return
	}
	c := r.contents
	at := -1 // where "syscall = name, " goes: in the braces holding the number
	for _, f := range [][]byte{[]byte("{ NR = "), []byte("{ id = ")} {
		if i := bytes.Index(c, f); i >= 0 {
			at = i + 2
			break
		}
	}
	if at < 0 && bytes.HasPrefix(c, []byte("{ ")) {
		at = 2
	}
	out := r.spare[:0] // the two buffers swap: filters name without allocating
	if at < 0 {
		out = append(append(append(out, name...), ": "...), c...)
	} else {
		out = append(append(append(append(out, c[:at]...), "syscall = "...), name...), ", "...)
		out = append(out, c[at:]...)
	}
	r.contents, r.spare = out, c
}

// appendLabelled appends the event's own fields, "{ name = value, ... }",
// for the details pane when the contents do not label them (trace.dat,
// perf.data and ftrace text print a format's text, "NR 202 (3c514d65c960,
// 80, ...)"): the thread context fields are left out, the table's TID
// and Process columns show them.
func appendLabelled(dst []byte, ev *core.Event) []byte {
	n := 0
	for i, name := range ev.Class.Fields {
		f := ev.Field(i)
		if f.Kind == core.FieldNone || isContextField(name) {
			continue
		}
		if n == 0 {
			dst = append(dst, "{ "...)
		} else {
			dst = append(dst, ", "...)
		}
		n++
		dst = append(append(dst, name...), " = "...)
		if f.Kind == core.FieldString {
			dst = strconv.AppendQuote(dst, string(f.Bytes))
			continue
		}
		dst = f.AppendText(dst)
	}
	if n > 0 {
		dst = append(dst, " }"...)
	}
	return dst
}

func isContextField(name string) bool {
	switch name {
	case core.FieldTID, core.FieldVTID, core.FieldPID, core.FieldVPID, core.FieldComm, core.FieldProcname:
		return true
	}
	return false
}
