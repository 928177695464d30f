package perfdata

import (
	"slices"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ftracefmt"
)

// class is an event class and what decodes its events.
type class struct {
	class  core.EventClass
	format *ftracefmt.Format // tracepoints: the event's format
	attr   *attr             // samples: the event
}

// The classes of the side-band records, their names and fields after the
// thread context.
var sidebandClasses = []struct {
	typ    uint32
	name   string
	fields []string
}{
	{recComm, "perf_comm", []string{"pid", "tid", "comm", "exec"}},
	{recFork, "perf_fork", []string{"pid", "ppid", "tid", "ptid"}},
	{recExit, "perf_exit", []string{"pid", "ppid", "tid", "ptid"}},
	{recMMAP, "perf_mmap", []string{"pid", "tid", "addr", "len", "pgoff", "filename", "data"}},
	{recLost, "perf_lost", []string{"lost"}},
	{recSwitch, "perf_switch", []string{"out", "preempt", "next_prev_pid", "next_prev_tid"}},
	{recThrottle, "perf_throttle", nil},
	{recUnthrottle, "perf_unthrottle", nil},
}

// sidebandClassOf maps the record types that share a class.
func sidebandClassOf(typ uint32) uint32 {
	switch typ {
	case recMMAP2:
		return recMMAP
	case recLostSamples:
		return recLost
	case recSwitchCPUWide:
		return recSwitch
	}
	return typ
}

// sampleFields are the fields of samples of events other than
// tracepoints, after the thread context.
var sampleFields = []string{"ip", "period", "addr", "callchain_depth"}

// IsSampleClass reports whether cl is a class of samples of an event
// other than a tracepoint ("cpu-clock", "cycles"): the thread context,
// then exactly the fields this reader gives such samples. Tracepoint
// samples and side-band records are not.
func IsSampleClass(cl *core.EventClass) bool {
	n := core.NumThreadContext
	if len(cl.Fields) != n+len(sampleFields) || !slices.Equal(cl.Fields[:n], core.ThreadContextFields()) {
		return false
	}
	return slices.Equal(cl.Fields[n:], sampleFields)
}

// makeClasses makes the classes of the events the first pass found: one
// per sampled event, by name (tracepoints named as the kernel names
// them, "sched_switch", with their format's fields, as trace.dat's
// events), in attr order, then the side-band records'.
func (f *file) makeClasses(sc *scanned) (byAttr []*class, byType map[uint32]*class, all []*class) {
	byAttr = make([]*class, len(f.attrs))
	byName := map[string]*class{}
	for i, a := range f.attrs {
		if !sc.used[i] {
			continue
		}
		var ef *ftracefmt.Format
		if a.typ == typeTracepoint && f.tracing != nil {
			ef = f.tracing.formats[int(a.config)]
		}
		name := a.name
		if ef != nil {
			name = ef.Name
		}
		if cl, ok := byName[name]; ok && cl.format == ef {
			byAttr[i] = cl
			continue
		}
		cl := &class{format: ef, attr: a}
		cl.class = core.EventClass{ID: len(all), Name: name, Fields: core.ThreadContextFields()}
		if ef != nil {
			for _, fd := range ef.Fields {
				cl.class.Fields = append(cl.class.Fields, fieldName(ef, &fd))
			}
		} else {
			cl.class.Fields = append(cl.class.Fields, sampleFields...)
		}
		byName[name] = cl
		byAttr[i] = cl
		all = append(all, cl)
	}
	byType = map[uint32]*class{}
	for _, sb := range sidebandClasses {
		used := false
		for typ := range sc.sideband {
			if sidebandClassOf(typ) == sb.typ {
				used = true
			}
		}
		if !used {
			continue
		}
		cl := &class{}
		cl.class = core.EventClass{ID: len(all), Name: sb.name, Fields: append(core.ThreadContextFields(), sb.fields...)}
		byType[sb.typ] = cl
		all = append(all, cl)
	}
	return byAttr, byType, all
}

// fieldName is a field's name in the class: the kernel's, except the raw
// syscall events' number, "NR", as the trace.dat and ftrace readers name
// it.
func fieldName(ef *ftracefmt.Format, fd *ftracefmt.Field) string {
	if ef.System == "raw_syscalls" && fd.Name == "id" {
		return "NR"
	}
	return fd.Name
}
