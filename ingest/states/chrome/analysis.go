package chrome

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/chrome"
)

// Analysis turns Chrome trace events into states (see the package doc for
// the attribute layout). It implements ingest.Analysis: Handle each event
// of a chrome Source in order, then Finish.
//
// Slices of one thread form a stack. B pushes, E pops the innermost open B
// (and any X still open above it), X pushes and schedules its pop at
// ts+dur in a heap of pending ends that is drained, in time order, before
// each later event: state changes reach the sink in non-decreasing time
// across all keys. X events starting at the same instant are nested by
// duration (longest outermost), whatever their order in the file, as
// clang's -ftime-trace writes children before parents.
type Analysis struct {
	sink    core.StateSink
	tree    *core.AttributeTree
	classes []*classRefs // by class ID
	threads map[string]*threadState
	procs   map[string]*procState
	pending endHeap
	horizon core.Time // latest end of an X slice scheduled so far
	async   map[asyncKey]*asyncOpen
	groups  map[asyncGroupKey]*asyncGroup
	flows   map[flowKey]flowStep
	keyBuf  []byte
	pidBuf  []byte
	// The last thread looked up: consecutive events of one thread are
	// the common case.
	lastThread             *threadState
	lastPid, lastTid       core.Field
	lastPidBuf, lastTidBuf []byte
	nextAnon               int32 // last stable PID given to a non-numeric pid
	nextID                 uint64
	warnings               []core.Warning
	dropped                int64
	last                   core.Time
}

// classRefs is what the analysis resolved once for one event class.
type classRefs struct {
	ph, cat, dur, id, pid, tid, comm, procname, bp int
	value                                          core.Value // the class name as a state value
	args                                           []argRef
	counters                                       map[*procState][]core.Key
}

type argRef struct {
	index int
	name  string
}

type threadState struct {
	key     core.Key // Threads/<id>
	stack   []frame
	depths  []core.Key // Threads/<id>/CallStack/<d>, index d-1
	csKey   core.Key
	hasCS   bool
	proc    *procState
	pidText string
	// Flow attributes set on this thread, nulled when the stack drops
	// below flowDepth (see flows.go).
	flowKeys  []core.Key
	flowDepth int
	// Flow attributes bound to the thread's next slice, not begun yet.
	nextFlowKeys []core.Key
}

type frame struct {
	value core.Value
	start core.Time
	end   core.Time // core.MaxTime for B slices
	isB   bool
	id    uint64
}

type procState struct {
	pid   int32
	label string
	key   core.Key // Processes/<pid>
}

type asyncKey struct {
	proc    *procState
	cat, id string
}

type pendingEnd struct {
	end core.Time
	th  *threadState
	id  uint64
}

// endHeap is a min-heap of pending ends (typed: no boxing per event).
type endHeap []pendingEnd

func (h *endHeap) push(p pendingEnd) {
	*h = append(*h, p)
	q := *h
	for i := len(q) - 1; i > 0; {
		parent := (i - 1) / 2
		if q[parent].end <= q[i].end {
			break
		}
		q[parent], q[i] = q[i], q[parent]
		i = parent
	}
}

func (h *endHeap) pop() pendingEnd {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q = q[:last]
	for i := 0; ; {
		l := 2*i + 1
		if l >= len(q) {
			break
		}
		m := l
		if r := l + 1; r < len(q) && q[r].end < q[l].end {
			m = r
		}
		if q[i].end <= q[m].end {
			break
		}
		q[i], q[m] = q[m], q[i]
		i = m
	}
	*h = q
	return top
}

// NewAnalysis returns the Chrome state analysis writing into sink.
func NewAnalysis(sink core.StateSink) *Analysis {
	return &Analysis{
		sink: sink, tree: sink.Attributes(),
		threads: map[string]*threadState{}, procs: map[string]*procState{},
		async: map[asyncKey]*asyncOpen{}, groups: map[asyncGroupKey]*asyncGroup{}, flows: map[flowKey]flowStep{},
		last: core.MinTime,
	}
}

func (a *Analysis) refs(c *core.EventClass) *classRefs {
	for len(a.classes) <= c.ID {
		a.classes = append(a.classes, nil)
	}
	if r := a.classes[c.ID]; r != nil {
		return r
	}
	r := &classRefs{
		ph: c.FieldIndex("ph"), cat: c.FieldIndex("cat"), dur: c.FieldIndex("dur"), id: c.FieldIndex("id"),
		pid: c.FieldIndex(core.FieldPID), tid: c.FieldIndex(core.FieldTID),
		comm: c.FieldIndex(core.FieldComm), procname: c.FieldIndex(core.FieldProcname), bp: c.FieldIndex("bp"),
		value: core.String(core.SafeString(c.Name)),
	}
	for i, f := range c.Fields {
		if name, ok := strings.CutPrefix(f, chrome.ArgFieldPrefix); ok {
			r.args = append(r.args, argRef{index: i, name: core.SafeName(name)})
		}
	}
	a.classes[c.ID] = r
	return r
}

// Handle implements ingest.Analysis.
func (a *Analysis) Handle(ev *core.Event) error {
	if ev.Time < a.last {
		return fmt.Errorf("chrome analysis: %w: event at %d after %d", core.ErrTimeOrder, ev.Time, a.last)
	}
	a.last = ev.Time
	if err := a.flushEnds(ev.Time); err != nil {
		return err
	}
	r := a.refs(ev.Class)
	ph := byte(0)
	if f := ev.Field(r.ph); f.Kind == core.FieldString && len(f.Bytes) > 0 {
		ph = f.Bytes[0]
	}
	switch ph {
	case 'B', 'E', 'X', 'i', 'I':
		th := a.thread(ev, r)
		if th == nil {
			return nil
		}
		switch ph {
		case 'B':
			return a.push(th, ev.Time, frame{value: r.value, start: ev.Time, end: core.MaxTime, isB: true})
		case 'E':
			return a.endB(th, ev)
		case 'X':
			end := ev.Time
			if d := ev.Field(r.dur); d.Kind == core.FieldFloat && d.Float > 0 {
				end = ev.Time + core.Time(d.Float*1000+0.5)
				if end < ev.Time { // overflow
					end = core.MaxTime - 1
				}
			}
			return a.pushX(th, ev.Time, r.value, end)
		}
	case 'M':
		return a.metadata(ev, r)
	case 'C':
		return a.counter(ev, r)
	case 'b', 'e':
		return a.asyncSlice(ev, r, ph)
	case 'S': // legacy async start and finish
		return a.asyncSlice(ev, r, 'b')
	case 'F':
		return a.asyncSlice(ev, r, 'e')
	case 's', 't', 'f':
		return a.flow(ev, r, ph)
	}
	return nil
}

// thread returns the state of the event's thread, creating its
// attributes on first sight, or nil for an event without a tid.
func (a *Analysis) thread(ev *core.Event, r *classRefs) *threadState {
	pidF, tidF := ev.Field(r.pid), ev.Field(r.tid)
	if tidF.Kind == core.FieldNone {
		return nil // process- or global-scoped events have no thread row
	}
	if a.lastThread != nil && sameField(pidF, a.lastPid) && sameField(tidF, a.lastTid) {
		return a.lastThread
	}
	th := a.lookupThread(ev, r, pidF, tidF)
	a.lastThread, a.lastPid, a.lastTid = th, pidF, tidF
	a.lastPid.Bytes = append(a.lastPidBuf[:0], pidF.Bytes...)
	a.lastTid.Bytes = append(a.lastTidBuf[:0], tidF.Bytes...)
	a.lastPidBuf, a.lastTidBuf = a.lastPid.Bytes, a.lastTid.Bytes
	return th
}

// sameField compares two pid or tid fields.
func sameField(a, b core.Field) bool {
	return a.Kind == b.Kind && a.Int == b.Int && string(a.Bytes) == string(b.Bytes)
}

func (a *Analysis) lookupThread(ev *core.Event, r *classRefs, pidF, tidF core.Field) *threadState {
	a.keyBuf = pidF.AppendText(a.keyBuf[:0])
	a.keyBuf = append(a.keyBuf, ':')
	a.keyBuf = tidF.AppendText(a.keyBuf)
	if th, ok := a.threads[string(a.keyBuf)]; ok {
		return th
	}
	id := core.SafeName(string(a.keyBuf))
	th := &threadState{key: a.tree.AddPath(core.AttrThreads, id)}
	a.threads[string(a.keyBuf)] = th
	th.proc = a.proc(ev, r)
	name := string(ev.Field(r.comm).AppendText(nil))
	if name == "" {
		name = string(tidF.AppendText(nil))
	}
	a.modify(a.tree.Add(th.key, core.AttrExecName), ev.Time, core.String(core.SafeString(name)))
	a.modify(a.tree.Add(th.key, core.AttrPID), ev.Time, core.Int32(th.proc.pid))
	return th
}

// proc returns the event's process, creating Processes/<pid>/Exec_name.
func (a *Analysis) proc(ev *core.Event, r *classRefs) *procState {
	pidF := ev.Field(r.pid)
	a.pidBuf = pidF.AppendText(a.pidBuf[:0])
	if p, ok := a.procs[string(a.pidBuf)]; ok {
		return p
	}
	text := string(a.pidBuf)
	p := &procState{label: text}
	if v, ok := pidF.AsInt(); ok && v >= -1<<31 && v < 1<<31 {
		p.pid = int32(v)
	} else {
		// Non-numeric (or huge) pids get stable negative numbers in order
		// of appearance, which cannot collide with real pids.
		a.nextAnon--
		p.pid = a.nextAnon
	}
	a.procs[text] = p
	p.key = a.tree.AddPath(core.AttrProcesses, strconv.Itoa(int(p.pid)))
	label := string(ev.Field(r.procname).AppendText(nil))
	if label == "" {
		label = text
	}
	a.modify(a.tree.Add(p.key, core.AttrExecName), ev.Time, core.String(core.SafeString(label)))
	return p
}

// modify forwards a change, keeping the first error.
func (a *Analysis) modify(k core.Key, t core.Time, v core.Value) {
	if err := a.sink.Modify(k, t, v); err != nil {
		a.warn(core.Warning{Time: t, Kind: "state", Message: err.Error()})
	}
}

func (a *Analysis) depthKey(th *threadState, d int) core.Key {
	if !th.hasCS {
		th.csKey, th.hasCS = a.tree.Add(th.key, core.AttrCallStack), true
	}
	for len(th.depths) < d {
		th.depths = append(th.depths, a.tree.Add(th.csKey, strconv.Itoa(len(th.depths)+1)))
	}
	return th.depths[d-1]
}

// setDepth writes the value of stack depth d (1-based) and, for d = 1,
// the thread's own value.
func (a *Analysis) setDepth(th *threadState, d int, t core.Time, v core.Value) {
	a.modify(a.depthKey(th, d), t, v)
	if d == 1 {
		a.modify(th.key, t, v)
	}
}

func (a *Analysis) push(th *threadState, t core.Time, f frame) error {
	a.nextID++
	f.id = a.nextID
	th.stack = append(th.stack, f)
	a.setDepth(th, len(th.stack), t, f.value)
	a.beginSlice(th, len(th.stack))
	return nil
}

// pushX pushes a complete slice, below the slices that started at the
// same time and end earlier (they are its children), and schedules its
// end.
func (a *Analysis) pushX(th *threadState, t core.Time, v core.Value, end core.Time) error {
	a.nextID++
	f := frame{value: v, start: t, end: end, id: a.nextID}
	pos := len(th.stack)
	for pos > 0 {
		top := th.stack[pos-1]
		if top.start != t || top.isB || top.end >= end {
			break
		}
		pos--
	}
	th.stack = append(th.stack, frame{})
	copy(th.stack[pos+1:], th.stack[pos:])
	th.stack[pos] = f
	for d := pos; d < len(th.stack); d++ {
		a.setDepth(th, d+1, t, th.stack[d].value)
	}
	a.pending.push(pendingEnd{end: end, th: th, id: f.id})
	a.horizon = max(a.horizon, end)
	a.beginSlice(th, pos+1)
	return nil
}

// popTo pops the stack down to length n at time t.
func (a *Analysis) popTo(th *threadState, n int, t core.Time) {
	for len(th.stack) > n {
		a.setDepth(th, len(th.stack), t, core.Null())
		th.stack = th.stack[:len(th.stack)-1]
	}
	a.endFlows(th, t)
}

// flushEnds pops the complete slices that end at or before t.
func (a *Analysis) flushEnds(t core.Time) error {
	for len(a.pending) > 0 && a.pending[0].end <= t {
		p := a.pending.pop()
		st := p.th.stack
		for i := len(st) - 1; i >= 0; i-- {
			if st[i].id == p.id {
				a.popTo(p.th, i, p.end)
				break
			}
		}
	}
	return nil
}

// endB closes the innermost open B slice of the thread.
func (a *Analysis) endB(th *threadState, ev *core.Event) error {
	for i := len(th.stack) - 1; i >= 0; i-- {
		if th.stack[i].isB {
			a.popTo(th, i, ev.Time)
			return nil
		}
	}
	a.warn(core.Warning{Time: ev.Time, Kind: "unmatched-end", Count: 1,
		Message: fmt.Sprintf("E event %q at %s closes no open B slice: ignored", ev.Class.Name, core.FormatTimestamp(ev.Time))})
	return nil
}

// metadata applies thread_name and process_name events.
func (a *Analysis) metadata(ev *core.Event, r *classRefs) error {
	var name []byte
	for _, arg := range r.args {
		if arg.name == "name" {
			name = ev.Field(arg.index).AppendText(nil)
		}
	}
	if name == nil {
		return nil
	}
	switch ev.Class.Name {
	case "thread_name":
		if th := a.thread(ev, r); th != nil {
			a.modify(a.tree.Add(th.key, core.AttrExecName), ev.Time, core.String(core.SafeString(string(name))))
		}
	case "process_name":
		if ev.Field(r.pid).Kind != core.FieldNone {
			p := a.proc(ev, r)
			a.modify(a.tree.Add(p.key, core.AttrExecName), ev.Time, core.String(core.SafeString(string(name))))
		}
	}
	return nil
}

// counter writes each numeric argument of a C event to
// Counters/<pid>/<name>/<series>.
func (a *Analysis) counter(ev *core.Event, r *classRefs) error {
	if ev.Field(r.pid).Kind == core.FieldNone {
		return nil
	}
	p := a.proc(ev, r)
	if r.counters == nil {
		r.counters = map[*procState][]core.Key{}
	}
	keys, ok := r.counters[p]
	if !ok {
		base := a.tree.AddPath(core.AttrCounters, strconv.Itoa(int(p.pid)), core.SafeName(ev.Class.Name))
		keys = make([]core.Key, len(r.args))
		for i, arg := range r.args {
			keys[i] = a.tree.Add(base, arg.name)
		}
		r.counters[p] = keys
	}
	for i, arg := range r.args {
		switch f := ev.Field(arg.index); f.Kind {
		case core.FieldInt:
			a.modify(keys[i], ev.Time, core.Int64(f.Int))
		case core.FieldFloat:
			a.modify(keys[i], ev.Time, core.Float64(f.Float))
		}
	}
	return nil
}

// Finish implements ingest.Analysis: complete slices ending by end are
// popped; slices still open (B without E, X past the end) stay open until
// the sink is closed at end.
func (a *Analysis) Finish(end core.Time) error {
	if err := a.flushEnds(end); err != nil {
		return err
	}
	var open int64
	for _, th := range a.threads {
		open += int64(len(th.stack))
	}
	if open > 0 {
		a.warn(core.Warning{Time: end, Kind: "unmatched-begin", Count: open,
			Message: fmt.Sprintf("%d slice(s) still open at the end of the trace: closed there", open)})
	}
	if a.dropped > 0 {
		a.warnings = append(a.warnings, core.Warning{Stream: -1, Count: a.dropped, Kind: core.WarningMore,
			Message: fmt.Sprintf("%d more warnings not listed", a.dropped)})
	}
	return nil
}

func (a *Analysis) warn(w core.Warning) {
	if len(a.warnings) >= core.MaxListedWarnings {
		a.dropped++
		return
	}
	w.Stream = -1
	a.warnings = append(a.warnings, w)
}

// Horizon returns the latest instant the states need: the end of the
// last X slice, which may lie after the last event's time. The pipeline
// ends the history there.
func (a *Analysis) Horizon() core.Time { return a.horizon }

// Warnings returns the problems met by the analysis (unmatched E events,
// slices left open, values the sink refused).
func (a *Analysis) Warnings() []core.Warning { return a.warnings }
