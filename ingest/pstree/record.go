package pstree

import (
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// Recorder is a [core.StateSink] that passes every change to the sink it
// wraps and remembers, for the attributes the process tree reads, the
// latest non-null value that the history keeps an interval of, so that
// [Recorder.Table] at the end of the build equals what [Query] reads
// from the finished history. It costs one byte per attribute, and a few
// words per attribute it remembers.
type Recorder struct {
	core.StateSink
	class  []fieldClass // by key
	fields map[core.Key]*latest
}

// fieldClass says whether an attribute is one the process tree reads.
type fieldClass uint8

const (
	classUnknown fieldClass = iota // not yet looked at
	classOther
	classField // a thread's Exec_name or PID, or a process's Exec_name
)

// latest is one attribute's current value, since when, and the latest
// non-null value before it that has an interval.
type latest struct {
	cur, prev core.Value
	since     core.Time
}

// NewRecorder wraps sink.
func NewRecorder(sink core.StateSink) *Recorder {
	return &Recorder{StateSink: sink, fields: map[core.Key]*latest{}}
}

// Modify implements [core.StateSink].
func (r *Recorder) Modify(key core.Key, t core.Time, v core.Value) error {
	if err := r.StateSink.Modify(key, t, v); err != nil {
		return err
	}
	if r.classify(key) != classField {
		return nil
	}
	f := r.fields[key]
	if f == nil {
		f = &latest{since: t}
		r.fields[key] = f
	}
	if f.cur == v {
		return nil
	}
	// The history drops a value replaced at the instant it was set (an
	// empty interval): only a value held for some time becomes prev.
	if t > f.since {
		if !f.cur.IsNull() {
			f.prev = f.cur
		}
		f.since = t
	}
	f.cur = v
	return nil
}

// classify returns key's class, looking at its path the first time.
func (r *Recorder) classify(key core.Key) fieldClass {
	if key < 0 {
		return classOther
	}
	if int(key) >= len(r.class) {
		at := r.Attributes()
		r.class = append(r.class, make([]fieldClass, at.Len()-len(r.class))...)
	}
	if c := r.class[key]; c != classUnknown {
		return c
	}
	c := classOther
	at := r.Attributes()
	if name := at.Name(key); name == core.AttrExecName || name == core.AttrPID {
		// <group>/<id>/<name>, with group Threads (or Processes for an
		// Exec_name) at the top level.
		owner := at.Parent(key)
		group := core.Root
		if owner != core.Root {
			group = at.Parent(owner)
		}
		if group != core.Root && at.Parent(group) == core.Root {
			g := at.Name(group)
			if g == core.AttrThreads || (g == core.AttrProcesses && name == core.AttrExecName) {
				c = classField
			}
		}
	}
	r.class[key] = c
	return c
}

// value returns the latest non-null value of key with an interval.
func (r *Recorder) value(key core.Key) core.Value {
	f := r.fields[key]
	switch {
	case f == nil:
		return core.Null()
	case !f.cur.IsNull(): // held until the end of the history
		return f.cur
	}
	return f.prev
}

// Table returns the process tree of the changes recorded so far, as
// [Query] would read it from the history once it is closed.
func (r *Recorder) Table() *Table {
	at := r.Attributes()
	tids := threadKeys(at)
	t := &Table{Threads: make([]Thread, len(tids)), Processes: map[int64]string{}}
	for i, k := range tids {
		t.Threads[i].Key = k
		if n, ok := at.Child(k, core.AttrExecName); ok {
			if v := r.value(n); !v.IsNull() {
				t.Threads[i].Name = v.String()
			}
		}
		if n, ok := at.Child(k, core.AttrPID); ok {
			if v := r.value(n); !v.IsNull() {
				t.Threads[i].PID, t.Threads[i].HasPID = v.Int(), true
			}
		}
	}
	if procs, ok := at.Lookup(core.AttrProcesses); ok {
		for _, p := range at.Children(procs) {
			pid, err := strconv.ParseInt(at.Name(p), 10, 64)
			if k, ok := at.Child(p, core.AttrExecName); ok && err == nil {
				if v := r.value(k); !v.IsNull() {
					t.Processes[pid] = v.Str()
				}
			}
		}
	}
	return t
}
