package tracedat

import (
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// decode fills the fields of a record: the context (common_pid as the
// thread, its name from the saved cmdlines), then the format's fields:
// integers, char arrays and __data_loc strings as text, other arrays as
// their elements in hex, comma-separated. sched_switch's prev_state is
// given as the kernel's letters ("S", "D", "R+"...), as the ftrace text
// reader has it.
func (s *Source) decode(cl *class, data []byte) []core.Field {
	ef := cl.format
	r := &record{f: s.f, data: data}
	n := len(cl.class.Fields)
	if cap(s.fields) < n {
		s.fields = make([]core.Field, n)
	}
	f := s.fields[:n]
	clear(f)
	if fd := ef.field("common_pid"); fd != nil {
		pid, _ := r.fieldInt(fd, 0)
		f[core.CtxTID] = core.Field{Kind: core.FieldInt, Int: pid}
		if c, ok := s.comms[int32(pid)]; ok {
			f[core.CtxComm] = core.Field{Kind: core.FieldString, Bytes: c}
		} else if pid == 0 {
			f[core.CtxComm] = core.Field{Kind: core.FieldString, Bytes: idleComm}
		}
	}
	s.scratch = s.scratch[:0]
	for i := range ef.fields {
		fd := &ef.fields[i]
		out := &f[core.NumThreadContext+i]
		switch {
		case fd.str:
			*out = core.Field{Kind: core.FieldString, Bytes: r.text(fd)}
		case fd.array || fd.dataLoc:
			start := len(s.scratch)
			s.scratch = s.appendElements(s.scratch, r, fd)
			*out = core.Field{Kind: core.FieldString, Bytes: s.scratch[start:len(s.scratch):len(s.scratch)]}
		case ef.name == "sched_switch" && fd.name == "prev_state":
			v, _ := r.fieldInt(fd, 0)
			*out = core.Field{Kind: core.FieldString, Bytes: stateLetters[stateIndex(v)]}
		default:
			v, ok := r.fieldInt(fd, 0)
			if !ok {
				continue
			}
			s.collectSymbolValue(fd, v)
			kind := core.FieldUint
			if fd.signed {
				kind = core.FieldInt
			}
			*out = core.Field{Kind: kind, Int: v}
		}
	}
	return f
}

var idleComm = []byte("<idle>")

// appendElements prints an array's elements in hex, comma-separated.
func (s *Source) appendElements(dst []byte, r *record, fd *fieldDef) []byte {
	count := fd.size / max(fd.elemSize, 1)
	if fd.dataLoc {
		count = len(r.dynamic(fd)) / max(fd.elemSize, 1)
	}
	for i := 0; i < count; i++ {
		v, ok := r.fieldInt(fd, int64(i))
		if !ok {
			break
		}
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = strconv.AppendUint(dst, truncUint(v, fd.elemSize), 16)
	}
	return dst
}

func truncUint(v int64, size int) uint64 { return uint64(truncate(v, size, false)) }

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

// stateIndex maps a prev_state value to its entry in stateLetters.
func stateIndex(v int64) int {
	const reportMax = 0x100
	bits := v & (reportMax - 1)
	switch {
	case bits == 0 && v&reportMax != 0:
		return 1
	case bits == 0:
		return 0
	}
	for i := 0; i < 8; i++ {
		if bits == 1<<i {
			return 2 + i
		}
	}
	return len(stateLetters) - 1
}
