package ftracefmt

import "strconv"

// Symbolizer returns the kernel symbol at or before addr and its address,
// for %ps/%pS and the plugins' function names; ok false when none.
type Symbolizer func(addr uint64) (name string, start uint64, ok bool)

// Printer prints events' bodies as libtraceevent does. Its zero value
// prints addresses without symbols; it keeps scratch buffers, so one
// Printer serves one goroutine.
type Printer struct {
	// Lookup resolves kernel addresses; nil: none resolve.
	Lookup  Symbolizer
	num     [24]byte // digits being printed
	scratch []byte   // __print_flags' text, reused per event
}

func (p *Printer) lookup(addr uint64) (string, uint64, bool) {
	if p.Lookup == nil {
		return "", 0, false
	}
	return p.Lookup(addr)
}

// AppendBody appends an event's body as `trace-cmd report` prints it:
// the output of libtraceevent's plugins for the events it has plugins for
// (sched_switch, sched_wakeup(_new), the hrtimer events, kmem's call
// sites), else its print format ([Printer.AppendPrint]).
func (p *Printer) AppendBody(dst []byte, ef *Format, r *Record) []byte {
	dst, done := p.appendPlugin(dst, ef, r) // a plugin's whole body, or a prefix
	if done {
		return dst
	}
	return p.AppendPrint(dst, ef, r)
}

// AppendPrint appends an event's body from its print format alone (as
// `perf script` prints tracepoints), or field by field
// ([AppendRawFields]) when the print format does not parse.
func (p *Printer) AppendPrint(dst []byte, ef *Format, r *Record) []byte {
	if !ef.parsed {
		ef.print, ef.parsed = parsePrintFormat(ef), true
	}
	if ef.print == nil {
		return AppendRawFields(dst, ef, r)
	}
	return p.appendPrintf(dst, ef.print.segs, ef.print.args, r)
}

// AppendRawFields prints "name=value" per field, for events whose print
// format cannot be read.
func AppendRawFields(dst []byte, ef *Format, r *Record) []byte {
	for i := range ef.Fields {
		fd := &ef.Fields[i]
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, fd.Name...)
		dst = append(dst, '=')
		if fd.Str {
			dst = append(dst, r.Text(fd)...)
			continue
		}
		v, _ := r.Int(fd, 0)
		dst = strconv.AppendInt(dst, v, 10)
	}
	return dst
}

// AppendElements prints an array's elements in hex, comma-separated.
func AppendElements(dst []byte, r *Record, fd *Field) []byte {
	count := fd.Size / max(fd.ElemSize, 1)
	if fd.DataLoc {
		count = len(r.Dynamic(fd)) / max(fd.ElemSize, 1)
	}
	for i := 0; i < count; i++ {
		v, ok := r.Int(fd, int64(i))
		if !ok {
			break
		}
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = strconv.AppendUint(dst, uint64(truncate(v, fd.ElemSize, false)), 16)
	}
	return dst
}

// The kernel's sched_switch prev_state letters (4.14 and later: the
// TASK_REPORT bits S D T t X Z P I, and TASK_REPORT_MAX for a preempted
// task, "R+"), precomputed for the common single-bit states.
var stateLetters = func() [][]byte {
	out := [][]byte{[]byte("R"), []byte("R+")}
	for _, l := range "SDTtXZPI" {
		out = append(out, []byte(string(l)))
	}
	return append(out, []byte("?"))
}()

// StateLetters returns sched_switch's prev_state as the kernel's letters
// ("S", "D", "R+"... "?" for several bits), as the ftrace text reader
// gives it. The bytes are shared: do not modify them.
func StateLetters(v int64) []byte {
	const reportMax = 0x100
	bits := v & (reportMax - 1)
	switch {
	case bits == 0 && v&reportMax != 0:
		return stateLetters[1]
	case bits == 0:
		return stateLetters[0]
	}
	for i := 0; i < 8; i++ {
		if bits == 1<<i {
			return stateLetters[2+i]
		}
	}
	return stateLetters[len(stateLetters)-1]
}
