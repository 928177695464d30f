package pstree

import (
	"math"
	"slices"
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// Recorder is a [core.StateSink] that passes every change to the sink it
// wraps and remembers, for the attributes the process tree reads, the
// latest non-null value that the history keeps an interval of, so that
// [Recorder.Table] at the end of the build equals what [Query] reads
// from the finished history. It costs 2 bits per attribute, 4 bytes per
// attribute in the pages of slots that hold a remembered one, 16 per
// attribute it remembers (in pages; the sink holds the current values)
// and one entry per distinct value it keeps (names repeat: the threads of
// a process share one). A map from key to field instead was a tenth of
// the build's CPU at 1.6 M threads; a field of 48 bytes (since, a
// changed flag and a whole core.Value) was 150 MB there, at the build's
// peak.
type Recorder struct {
	core.StateSink
	// kinds holds 2 bits per key (kindUnknown, kindOther, kindField): most
	// changes are to attributes the process tree does not read, and 2 bits
	// per key stay in the cache where 4 bytes per key (slots) did not (the
	// look-up cost a cache miss per change at 200 000 threads).
	kinds []uint64
	slots [][]int32 // by key, in pages made for the first field among them: a field index
	// Fields, by index, in pages, so that growing never holds them twice.
	since [][]core.Time // since when the field has its current value (noSince: never changed)
	prev  [][]uint32    // the latest non-null value before it with an interval: an index in vals
	keys  [][]core.Key  // the field's key
	n     int32         // fields in use
	vals  []core.Value  // the distinct values in prev; vals[0] is null
	index map[core.Value]uint32
}

// The kinds of key, 2 bits each in Recorder.kinds.
const (
	kindUnknown = 0 // not yet looked at
	kindOther   = 1 // not an attribute the process tree reads
	kindField   = 2 // has a field, whose index is in slots
	keysPerWord = 32
)

// fieldPage and slotPage are the number of fields and slots in a page.
const (
	fieldPage = 1 << 12
	slotPage  = 1 << 16
)

// noSince is the since of a field that never changed: the first change
// sets since to its time whatever that is, which a time of noSince itself
// leaves as it is.
const noSince = core.Time(math.MinInt64)

// slot returns key's slot, or nil when no field's key shares its page (a
// key must be non-negative).
func (r *Recorder) slot(key core.Key) *int32 {
	p := int(key) / slotPage
	if p >= len(r.slots) || r.slots[p] == nil {
		return nil
	}
	return &r.slots[p][int(key)%slotPage]
}

// setSlot sets key's slot to field i, making its page if needed.
func (r *Recorder) setSlot(key core.Key, i int32) {
	p := int(key) / slotPage
	if p >= len(r.slots) {
		r.slots = append(r.slots, make([][]int32, p+1-len(r.slots))...)
	}
	if r.slots[p] == nil {
		r.slots[p] = make([]int32, slotPage)
	}
	r.slots[p][int(key)%slotPage] = i
}

// addField returns the index of a new field, of key.
func (r *Recorder) addField(key core.Key) int32 {
	if int(r.n/fieldPage) == len(r.since) {
		since := make([]core.Time, fieldPage)
		for i := range since {
			since[i] = noSince
		}
		r.since = append(r.since, since)
		r.prev = append(r.prev, make([]uint32, fieldPage))
		r.keys = append(r.keys, make([]core.Key, fieldPage))
	}
	r.keys[r.n/fieldPage][r.n%fieldPage] = key
	r.n++
	return r.n - 1
}

// keep returns v's index in vals, adding it the first time.
func (r *Recorder) keep(v core.Value) uint32 {
	i, ok := r.index[v]
	if !ok {
		i = uint32(len(r.vals))
		r.vals = append(r.vals, v)
		r.index[v] = i
	}
	return i
}

// slotOther is the slotOf of an attribute the process tree does not read.
// A slot of 0 (the zero value of a page) is a key without a field.
const slotOther int32 = -1

// NewRecorder wraps sink.
func NewRecorder(sink core.StateSink) *Recorder {
	r := &Recorder{StateSink: sink}
	r.reset()
	return r
}

// reset forgets every field and value.
func (r *Recorder) reset() {
	r.kinds, r.slots, r.since, r.prev, r.keys, r.n = nil, nil, nil, nil, nil, 0
	r.vals, r.index = []core.Value{core.Null()}, map[core.Value]uint32{core.Null(): 0}
	r.addField(-1) // field 0 is unused, so that slot 0 can mean "no field"
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
	since := &r.since[i/fieldPage][i%fieldPage]
	if *since == noSince {
		*since = t
	}
	if cur == v {
		return nil
	}
	// The history drops a value replaced at the instant it was set (an
	// empty interval): only a value held for some time becomes prev.
	if t > *since {
		if !cur.IsNull() {
			r.prev[i/fieldPage][i%fieldPage] = r.keep(cur)
		}
		*since = t
	}
	return nil
}

// slotOf returns key's field index, or slotOther, looking at its path
// the first time.
func (r *Recorder) slotOf(key core.Key) int32 {
	if key < 0 {
		return slotOther
	}
	w, shift := int(key)/keysPerWord, uint(key)%keysPerWord*2
	if w >= len(r.kinds) {
		n := r.Attributes().Len()
		if int(key) >= n {
			return slotOther // not a key (yet): the sink refuses it
		}
		r.kinds = append(r.kinds, make([]uint64, (n+keysPerWord-1)/keysPerWord-len(r.kinds))...)
	}
	switch r.kinds[w] >> shift & 3 {
	case kindOther:
		return slotOther
	case kindField:
		return *r.slot(key)
	}
	if int(key) >= r.Attributes().Len() {
		return slotOther // not a key (yet): the sink refuses it
	}
	if !isField(r.Attributes(), key) {
		r.kinds[w] |= kindOther << shift
		return slotOther
	}
	r.kinds[w] |= kindField << shift
	i := r.addField(key)
	r.setSlot(key, i)
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
	i := *sl
	return r.vals[r.prev[i/fieldPage][i%fieldPage]]
}

// Forget drops what the recorder remembers, so that a build at its peak,
// closing the history, does not hold it; changes after it are remembered
// afresh.
func (r *Recorder) Forget() { r.reset() }

// Table returns the process tree of the changes recorded so far, as
// [Query] would read it from the history once it is closed. A thread's
// name and PID come from the fields, each of which knows its key: looking
// up each thread's Exec_name and PID children instead cost two probes of
// the attribute tree per thread, a cache miss each at 200 000 threads.
func (r *Recorder) Table() *Table {
	at := r.Attributes()
	tids, pids := threadsAndProcesses(at)
	t := &Table{Threads: make([]Thread, len(tids)), Processes: map[int64]string{}}
	for i, k := range tids {
		t.Threads[i].Key = k
	}
	if len(tids) > 0 {
		threads := at.Parent(tids[0])
		for i := int32(1); i < r.n; i++ {
			key := r.keys[i/fieldPage][i%fieldPage]
			owner := at.Parent(key)
			if at.Parent(owner) != threads {
				continue // a process's Exec_name
			}
			v := r.value(key)
			j, ok := slices.BinarySearch(tids, owner) // tids are in key order
			if v.IsNull() || !ok {
				continue
			}
			if at.Name(key) == core.AttrExecName {
				t.Threads[j].Name = v.String()
			} else {
				t.Threads[j].PID, t.Threads[j].HasPID = v.Int(), true
			}
		}
	}
	for _, p := range pids {
		pid, err := strconv.ParseInt(at.Name(p), 10, 64)
		if k, ok := at.Child(p, core.AttrExecName); ok && err == nil {
			if v := r.value(k); !v.IsNull() {
				t.Processes[pid] = v.Str()
			}
		}
	}
	return t
}

// threadsAndProcesses returns the children of Threads and of Processes,
// in key order as [core.AttributeTree.Children] gives them, by one pass
// over every key's parent. Children would build the tree's child index
// (8 bytes per attribute), which the builder's tree then keeps until it
// is written, at the build's peak: 100 MB at 1.6 M threads.
func threadsAndProcesses(at *core.AttributeTree) (tids, pids []core.Key) {
	threads, hasThreads := at.Lookup(core.AttrThreads)
	procs, hasProcs := at.Lookup(core.AttrProcesses)
	if !hasThreads && !hasProcs {
		return nil, nil
	}
	for k := range core.Key(at.Len()) {
		switch p := at.Parent(k); {
		case hasThreads && p == threads:
			tids = append(tids, k)
		case hasProcs && p == procs:
			pids = append(pids, k)
		}
	}
	return tids, pids
}
