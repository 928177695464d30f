package ftracefmt

import "github.com/tracetui/tracetui/core"

// DecodeFields fills out (one field per f.Fields) from the record r, as
// the ftrace text reader gives them: integers, char arrays and
// __data_loc strings as text, other arrays as their elements in hex,
// sched_switch's prev_state as the kernel's letters ("S", "D", "R+").
// Array texts are appended to scratch, which is returned; seen, if not
// nil, hears every integer field's value (trace.dat collects the ones
// that may be kernel addresses). trace.dat and perf.data decode so.
func DecodeFields(out []core.Field, f *Format, r *Record, scratch []byte, seen func(*Field, int64)) []byte {
	for i := range f.Fields {
		fd := &f.Fields[i]
		o := &out[i]
		switch {
		case fd.Str:
			*o = core.Field{Kind: core.FieldString, Bytes: r.Text(fd)}
		case fd.Array || fd.DataLoc:
			start := len(scratch)
			scratch = AppendElements(scratch, r, fd)
			*o = core.Field{Kind: core.FieldString, Bytes: scratch[start:len(scratch):len(scratch)]}
		case f.Name == "sched_switch" && fd.Name == "prev_state":
			v, _ := r.Int(fd, 0)
			*o = core.Field{Kind: core.FieldString, Bytes: StateLetters(v)}
		default:
			v, ok := r.Int(fd, 0)
			if !ok {
				continue
			}
			if seen != nil {
				seen(fd, v)
			}
			kind := core.FieldUint
			if fd.Signed {
				kind = core.FieldInt
			}
			*o = core.Field{Kind: kind, Int: v}
		}
	}
	return scratch
}
