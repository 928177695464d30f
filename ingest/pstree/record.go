package pstree

import (
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// Recorder is a [core.StateSink] that passes every change to the sink it
// wraps and remembers, for the attributes the process tree reads, the
// latest non-null value that the history keeps an interval of, so that
// [Recorder.Table] at the end of the build equals what [Query] reads
// from the finished history. It costs 4 bytes per attribute and 48 per
// attribute it remembers, in pages (the sink holds the current values); a map
// from key to field instead was a tenth of the build's CPU at 1.6 M
// threads.
type Recorder struct {
	core.StateSink
	slots [][]int32 // by key, in pages: slotUnknown, slotOther, or an index in fields
	// fields in pages, so that growing never holds them twice (at 1.6 M
	// threads a doubling slice held 150 MB twice at the build's peak).
	fields [][]latest
	n      int32 // fields in use
}

// fieldPage and slotPage are the number of fields and slots in a page.
const (
	fieldPage = 1 << 12
	slotPage  = 1 << 16
)

// slot returns key's slot, or nil when key is past the pages (a key
// must be non-negative).
func (r *Recorder) slot(key core.Key) *int32 {
	p := int(key) / slotPage
	if p >= len(r.slots) {
		return nil
	}
	return &r.slots[p][int(key)%slotPage]
}

// field returns the field at index i.
func (r *Recorder) field(i int32) *latest { return &r.fields[i/fieldPage][i%fieldPage] }

// addField returns the index of a new field.
func (r *Recorder) addField() int32 {
	if int(r.n/fieldPage) == len(r.fields) {
		r.fields = append(r.fields, make([]latest, fieldPage))
	}
	r.n++
	return r.n - 1
}

// Slots of attributes that have no field.
const (
	slotUnknown int32 = 0  // not yet looked at (the zero value)
	slotOther   int32 = -1 // not an attribute the process tree reads
)

// latest is since when an attribute has its current value (the sink
// holds the value), and the latest non-null value before it that has an
// interval.
type latest struct {
	prev    core.Value
	since   core.Time
	changed bool // since is set
}

// NewRecorder wraps sink.
func NewRecorder(sink core.StateSink) *Recorder {
	r := &Recorder{StateSink: sink}
	r.addField() // field 0 is unused, so that slot 0 can mean "unknown"
	return r
}

// Modify implements [core.StateSink].
func (r *Recorder) Modify(key core.Key, t core.Time, v core.Value) error {
	i := r.slotOf(key)
	if i == slotOther {
		return r.StateSink.Modify(key, t, v)
	}
	cur := r.StateSink.Value(key)
	if err := r.StateSink.Modify(key, t, v); err != nil {
		return err
	}
	f := r.field(i)
	if !f.changed {
		f.since, f.changed = t, true
	}
	if cur == v {
		return nil
	}
	// The history drops a value replaced at the instant it was set (an
	// empty interval): only a value held for some time becomes prev.
	if t > f.since {
		if !cur.IsNull() {
			f.prev = cur
		}
		f.since = t
	}
	return nil
}

// slotOf returns key's slot, looking at its path the first time.
func (r *Recorder) slotOf(key core.Key) int32 {
	if key < 0 {
		return slotOther
	}
	sl := r.slot(key)
	if sl == nil {
		for len(r.slots)*slotPage < r.Attributes().Len() {
			r.slots = append(r.slots, make([]int32, slotPage))
		}
		if sl = r.slot(key); sl == nil {
			return slotOther // not a key: the sink refuses it
		}
	}
	if *sl != slotUnknown {
		return *sl
	}
	if int(key) >= r.Attributes().Len() {
		return slotOther // not a key (yet): the sink refuses it
	}
	i := slotOther
	if isField(r.Attributes(), key) {
		i = r.addField()
	}
	*sl = i
	return i
}

// isField reports whether key is a thread's Exec_name or PID or a
// process's Exec_name: <group>/<id>/<name>, with group Threads (or
// Processes for an Exec_name) at the top level.
func isField(at *core.AttributeTree, key core.Key) bool {
	name := at.Name(key)
	if name != core.AttrExecName && name != core.AttrPID {
		return false
	}
	owner := at.Parent(key)
	if owner == core.Root {
		return false
	}
	group := at.Parent(owner)
	if group == core.Root || at.Parent(group) != core.Root {
		return false
	}
	g := at.Name(group)
	return g == core.AttrThreads || (g == core.AttrProcesses && name == core.AttrExecName)
}

// value returns the latest non-null value of key with an interval.
func (r *Recorder) value(key core.Key) core.Value {
	if key < 0 {
		return core.Null()
	}
	sl := r.slot(key)
	if sl == nil || *sl <= 0 {
		return core.Null() // never changed
	}
	if cur := r.StateSink.Value(key); !cur.IsNull() {
		return cur // held until the end of the history
	}
	return r.field(*sl).prev
}

// Forget drops what the recorder remembers (up to 48 bytes per thread),
// so that a build at its peak, closing the history, does not hold it;
// changes after it are remembered afresh.
func (r *Recorder) Forget() {
	r.slots, r.fields, r.n = nil, nil, 0
	r.addField()
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
