package chrome

import (
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// The catalog is what the first pass learns about the whole trace before
// the first event is delivered: event classes (one per event name, with
// the union of their argument names), threads and processes (with the
// names that metadata events give them, wherever those sit in the file).

// Base field layout of every class; argument fields follow.
const (
	fieldPh = iota
	fieldCat
	fieldDur
	fieldID
	fieldPid
	fieldTid
	fieldComm
	fieldProcname
	fieldBP // "e" for "bp": "e" (a flow step bound to its enclosing slice), else absent
	numBaseFields
)

var baseFields = []string{"ph", "cat", "dur", "id", core.FieldPID, core.FieldTID, core.FieldComm, core.FieldProcname, "bp"}

// ArgFieldPrefix starts the names of the fields that hold an event's
// args ("args.detail"): the analysis finds them by it.
const ArgFieldPrefix = "args."

// Limits that keep the catalog bounded on hostile input.
const (
	maxClasses      = 1 << 18 // distinct event names; more share overflowClass
	maxArgFields    = 32      // argument fields exposed per class
	maxThreads      = 1 << 22 // distinct (pid, tid) pairs
	overflowName    = "(other)"
	noThread        = 0 // thread reference of an event with neither pid nor tid
	metadataTimeRaw = -1 << 63
)

// classInfo is one event class and the index of its argument fields.
type classInfo struct {
	class    core.EventClass
	argIndex map[string]int // argument name -> index in class.Fields
}

// threadInfo is one (pid, tid) pair seen in the trace.
type threadInfo struct {
	pid, tid       string
	hasTid         bool
	pidNum, tidNum bool
	proc           int32  // index in catalog.procs
	comm           string // thread_name metadata, "" if none
	// Fields delivered with every event of the thread, set by finish.
	pidF, tidF, commF, procF core.Field
}

// procInfo is one process (pid) seen in the trace.
type procInfo struct {
	pid    string
	pidNum bool
	name   string // process_name metadata, "" if none
}

type catalog struct {
	classes     []*classInfo
	classByName map[string]int32
	threads     []threadInfo // index 0 is noThread
	threadByKey map[string]int32
	procs       []procInfo
	procByPid   map[string]int32
	keyBuf      []byte
	overflow    int32 // class of names past maxClasses, -1 until needed
	// The last name and thread looked up: consecutive events often
	// share them, and a byte compare is cheaper than a map lookup.
	lastName   []byte
	lastClass  int32
	lastKey    []byte
	lastThread int32
	hasLast    bool
}

func newCatalog() *catalog {
	return &catalog{
		classByName: map[string]int32{},
		threads:     []threadInfo{{}},
		threadByKey: map[string]int32{},
		procByPid:   map[string]int32{},
		overflow:    -1,
	}
}

// classOf returns the class of an event name, creating it if needed, and
// whether the name had to go to the shared overflow class.
func (c *catalog) classOf(name []byte) (int32, bool) {
	if c.hasLast && string(name) == string(c.lastName) {
		return c.lastClass, false
	}
	if id, ok := c.classByName[string(name)]; ok {
		c.lastName, c.lastClass, c.hasLast = append(c.lastName[:0], name...), id, true
		return id, false
	}
	if len(c.classes) >= maxClasses {
		if c.overflow < 0 {
			c.overflow = c.newClass(overflowName)
		}
		return c.overflow, true
	}
	id := c.newClass(string(name))
	c.classByName[string(name)] = id
	return id, false
}

func (c *catalog) newClass(name string) int32 {
	id := int32(len(c.classes))
	ci := &classInfo{argIndex: map[string]int{}}
	ci.class = core.EventClass{ID: int(id), Name: name, Fields: append([]string(nil), baseFields...)}
	c.classes = append(c.classes, ci)
	return id
}

// noteArgs adds the top-level argument names of args to the class.
func (c *catalog) noteArgs(ci *classInfo, args []byte) {
	if len(ci.argIndex) >= maxArgFields {
		return
	}
	eachMember(args, func(key, _ []byte) bool {
		if _, ok := ci.argIndex[string(key)]; !ok {
			if len(ci.argIndex) >= maxArgFields {
				return false
			}
			k := string(key)
			ci.argIndex[k] = len(ci.class.Fields)
			ci.class.Fields = append(ci.class.Fields, ArgFieldPrefix+k)
		}
		return true
	})
}

// threadOf returns the thread reference (index+1 style: 0 is none) of an
// event's pid and tid.
func (c *catalog) threadOf(ev *rawEvent) (int32, error) {
	if !ev.hasPid && !ev.hasTid {
		return noThread, nil
	}
	c.keyBuf = threadKey(c.keyBuf[:0], ev.pid, ev.tid, ev.hasTid)
	if c.lastThread != 0 && string(c.keyBuf) == string(c.lastKey) {
		return c.lastThread, nil
	}
	if id, ok := c.threadByKey[string(c.keyBuf)]; ok {
		c.lastKey, c.lastThread = append(c.lastKey[:0], c.keyBuf...), id
		return id, nil
	}
	if len(c.threads) >= maxThreads {
		return 0, errTooManyThreads
	}
	proc, ok := c.procByPid[string(ev.pid)]
	if !ok {
		proc = int32(len(c.procs))
		c.procs = append(c.procs, procInfo{pid: string(ev.pid), pidNum: ev.pidNum})
		c.procByPid[string(ev.pid)] = proc
	}
	id := int32(len(c.threads))
	c.threads = append(c.threads, threadInfo{
		pid: string(ev.pid), tid: string(ev.tid), hasTid: ev.hasTid,
		pidNum: ev.pidNum, tidNum: ev.tidNum, proc: proc,
	})
	c.threadByKey[string(c.keyBuf)] = id
	return id, nil
}

// threadKey appends the key of a (pid, tid) pair in threadByKey to dst.
func threadKey(dst, pid, tid []byte, hasTid bool) []byte {
	dst = append(dst, pid...)
	dst = append(dst, 0)
	if hasTid {
		dst = append(dst, 1)
		dst = append(dst, tid...)
	}
	return dst
}

// lookup resolves an event's class and thread in a finished catalog
// without changing it (clones share it), for the persisted order's
// reading; ok is false when the catalog does not know them. key is
// scratch space, returned for reuse.
func (c *catalog) lookup(ev *rawEvent, key []byte) (class, thread int32, overflow, ok bool, _ []byte) {
	class, known := c.classByName[string(ev.name)]
	if !known {
		if c.overflow < 0 {
			return 0, 0, false, false, key
		}
		class, overflow = c.overflow, true
	}
	if !ev.hasPid && !ev.hasTid {
		return class, noThread, overflow, true, key
	}
	key = threadKey(key[:0], ev.pid, ev.tid, ev.hasTid)
	thread, known = c.threadByKey[string(key)]
	return class, thread, overflow, known, key
}

// finish computes the per-thread context fields once the whole trace has
// been read (names may come from metadata at the end of the file).
func (c *catalog) finish() {
	for i := 1; i < len(c.threads); i++ {
		t := &c.threads[i]
		t.pidF = intField(t.pid, t.pidNum)
		if t.hasTid {
			t.tidF = intField(t.tid, t.tidNum)
		}
		if t.comm != "" {
			t.commF = core.Field{Kind: core.FieldString, Bytes: []byte(t.comm)}
		}
		if p := c.procs[t.proc].name; p != "" {
			t.procF = core.Field{Kind: core.FieldString, Bytes: []byte(p)}
		}
	}
}

// noteMetadata records the names given by process_name and thread_name
// metadata events.
func (c *catalog) noteMetadata(ev *rawEvent, thread int32) {
	if thread == noThread {
		return
	}
	var name []byte
	eachMember(ev.args, func(key, val []byte) bool {
		if string(key) == "name" && len(val) > 0 && val[0] == '"' {
			name = unquote(nil, val)
			return false
		}
		return true
	})
	if name == nil {
		return
	}
	switch string(ev.name) {
	case "thread_name":
		c.threads[thread].comm = string(name)
	case "process_name":
		c.procs[c.threads[thread].proc].name = string(name)
	}
}

// eachMember calls fn with the raw name (without quotes, undecoded) and
// raw value of each member of the JSON object obj, until fn returns false.
// Anything that is not a well-formed object stops it silently.
func eachMember(obj []byte, fn func(key, val []byte) bool) {
	if len(obj) == 0 || obj[0] != '{' {
		return
	}
	i := 1
	for {
		i = skipSpace(obj, i)
		if i >= len(obj) || obj[i] == '}' {
			return
		}
		if obj[i] == ',' {
			i++
			continue
		}
		if obj[i] != '"' {
			return
		}
		kend, _, err := scanString(obj, i)
		if err != nil {
			return
		}
		key := obj[i+1 : kend-1]
		i = skipSpace(obj, kend)
		if i >= len(obj) || obj[i] != ':' {
			return
		}
		i = skipSpace(obj, i+1)
		vend, err := skipValue(obj, i)
		if err != nil {
			// A number at the very end of obj has no delimiter after
			// it; obj always ends with '}' when well formed.
			return
		}
		if !fn(key, obj[i:vend]) {
			return
		}
		i = vend
	}
}

// intField returns the field for a pid or tid: an integer when the trace
// gave a number that fits, else the text.
func intField(text string, num bool) core.Field {
	if num {
		if v, err := strconv.ParseInt(text, 10, 64); err == nil {
			return core.Field{Kind: core.FieldInt, Int: v}
		}
	}
	return core.Field{Kind: core.FieldString, Bytes: []byte(text)}
}
