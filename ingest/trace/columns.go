package trace

import (
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// scanRow is an event's table columns without strings, so filters scan
// millions of events per second without allocating. Its column text is
// exactly core.EventRow's (a test holds them together).
type scanRow struct {
	rank     int64
	time     core.Time
	cpu      int32
	event    string // the class name: no copy
	tid      int64  // -1 when unknown
	proc     []byte // owned by the row (copied from the event)
	comm     []byte // the event's task name, when proc came from another field (see useComm)
	contents []byte // owned by the row; empty unless asked for
	spare    []byte // contents' second buffer (nameSyscall)
	labelled []byte // the fields named, for the details pane ([appendLabelled]); table pages only
	// classAttrs and traceAttrs: the source's user attributes of the
	// event's class and trace (shared strings), with the contents only
	classAttrs, traceAttrs string
}

// userAttributer is a source whose events' classes and trace carry user
// attributes (the CTF reader, for CTF 2).
type userAttributer interface {
	UserAttributes(ev *core.Event) (trace, event string)
}

// appendText appends the text of column c, as core.EventRow.Text gives it.
func (r *scanRow) appendText(dst []byte, c core.EventColumn) []byte {
	switch c {
	case core.ColTime:
		return core.AppendTimestamp(dst, r.time)
	case core.ColCPU:
		return core.AppendCPU(dst, r.cpu)
	case core.ColEvent:
		return append(dst, r.event...)
	case core.ColTID:
		if r.tid < 0 {
			return dst
		}
		return strconv.AppendInt(dst, r.tid, 10)
	case core.ColProcess:
		return append(dst, r.proc...)
	case core.ColContents:
		return append(dst, r.contents...)
	}
	return dst
}

// eventRow converts to the table's row.
func (r *scanRow) eventRow() core.EventRow {
	row := core.EventRow{Rank: r.rank, Time: r.time, CPU: r.cpu, Event: r.event,
		Process: string(r.proc), Contents: string(r.contents), Fields: string(r.labelled), ClassAttributes: r.classAttrs, TraceAttributes: r.traceAttrs}
	if r.tid >= 0 {
		row.TID = strconv.FormatInt(r.tid, 10)
	}
	return row
}

// fill sets the row from ev, copying what it keeps. Contents are
// formatted only when asked: it is the expensive part.
func (r *scanRow) fill(rank int64, ev *core.Event, src core.Source, cf *classFields, contents bool) {
	r.rank, r.time, r.cpu, r.event = rank, ev.Time, ev.CPU, ev.Class.Name
	r.tid = -1
	idx := cf.of(ev.Class)
	if v, ok := ev.Field(idx.tid).AsInt(); ok {
		r.tid = v
	}
	r.proc = r.proc[:0]
	if f := ev.Field(idx.procN); f.Kind == core.FieldString {
		r.proc = append(r.proc, f.Bytes...)
	}
	r.comm = r.comm[:0]
	if f := ev.Field(idx.comm); f.Kind == core.FieldString {
		r.comm = append(r.comm, f.Bytes...)
	}
	r.contents, r.labelled, r.classAttrs, r.traceAttrs = r.contents[:0], r.labelled[:0], "", ""
	if contents {
		r.contents = src.AppendContents(r.contents, ev)
		if idx.sysNR >= 0 {
			r.nameSyscall(ev, idx, cf.sysTable(src))
		}
		if ua, ok := src.(userAttributer); ok {
			r.traceAttrs, r.classAttrs = ua.UserAttributes(ev)
		}
	}
}

// unknownComm is what ftrace prints for a task whose name it did not keep.
const unknownComm = "<...>"

// useComm gives a row that still has no process, neither from the event's
// process field nor from the state history, the event's own task name:
// ftrace lines and trace.dat records name the current task (bash-18336)
// even before the history has seen that thread's name.
func (r *scanRow) useComm() {
	if len(r.proc) == 0 && string(r.comm) != unknownComm {
		r.proc = append(r.proc, r.comm...)
	}
}
