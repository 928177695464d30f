package tracedat

import (
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ftracefmt"
)

// decode fills the fields of a record: the context (common_pid as the
// thread, its name from the saved cmdlines), then the format's fields:
// integers, char arrays and __data_loc strings as text, other arrays as
// their elements in hex, comma-separated. sched_switch's prev_state is
// given as the kernel's letters ("S", "D", "R+"...), as the ftrace text
// reader has it.
func (s *Source) decode(cl *class, data []byte) []core.Field {
	ef := cl.format
	r := &ftracefmt.Record{Order: s.f.order, Data: data}
	n := len(cl.class.Fields)
	if cap(s.fields) < n {
		s.fields = make([]core.Field, n)
	}
	f := s.fields[:n]
	clear(f)
	if fd := ef.Field("common_pid"); fd != nil {
		pid, _ := r.Int(fd, 0)
		f[core.CtxTID] = core.Field{Kind: core.FieldInt, Int: pid}
		if c, ok := s.comms[int32(pid)]; ok {
			f[core.CtxComm] = core.Field{Kind: core.FieldString, Bytes: c}
		} else if pid == 0 {
			f[core.CtxComm] = core.Field{Kind: core.FieldString, Bytes: idleComm}
		}
	}
	s.scratch = s.scratch[:0]
	for i := range ef.Fields {
		fd := &ef.Fields[i]
		out := &f[core.NumThreadContext+i]
		switch {
		case fd.Str:
			*out = core.Field{Kind: core.FieldString, Bytes: r.Text(fd)}
		case fd.Array || fd.DataLoc:
			start := len(s.scratch)
			s.scratch = ftracefmt.AppendElements(s.scratch, r, fd)
			*out = core.Field{Kind: core.FieldString, Bytes: s.scratch[start:len(s.scratch):len(s.scratch)]}
		case ef.Name == "sched_switch" && fd.Name == "prev_state":
			v, _ := r.Int(fd, 0)
			*out = core.Field{Kind: core.FieldString, Bytes: ftracefmt.StateLetters(v)}
		default:
			v, ok := r.Int(fd, 0)
			if !ok {
				continue
			}
			s.collectSymbolValue(fd, v)
			kind := core.FieldUint
			if fd.Signed {
				kind = core.FieldInt
			}
			*out = core.Field{Kind: kind, Int: v}
		}
	}
	return f
}

var idleComm = []byte("<idle>")
