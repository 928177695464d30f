package tracedat

import (
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ftracefmt"
)

// decode fills the fields of a record: the context (common_pid as the
// thread, its process from the saved tgids, its name from the saved
// cmdlines), then the format's fields:
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
		if tgid, ok := s.f.tgids[int32(pid)]; ok {
			f[core.CtxPID] = core.Field{Kind: core.FieldInt, Int: int64(tgid)}
		}
		if c, ok := s.comms[int32(pid)]; ok {
			f[core.CtxComm] = core.Field{Kind: core.FieldString, Bytes: c}
		} else if pid == 0 {
			f[core.CtxComm] = core.Field{Kind: core.FieldString, Bytes: idleComm}
		}
	}
	s.scratch = ftracefmt.DecodeFields(f[core.NumThreadContext:], ef, r, s.scratch[:0], s.collectSymbolValue)
	return f
}

var idleComm = []byte("<idle>")
