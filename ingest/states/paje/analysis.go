package paje

import (
	"fmt"
	"strconv"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/paje"
)

// rootLabel names the root container's process row.
const rootLabel = "(root)"

// Analysis turns Pajé events into states. It implements ingest.Analysis
// over the events of a paje Source (definitions included).
type Analysis struct {
	sink     core.StateSink
	tree     *core.AttributeTree
	classes  []*classRefs
	types    map[string]*typeInfo
	conts    map[string]*contState
	rowIDs   map[string]bool
	pids     map[*contState]int32 // parent container -> PID number
	root     *contState
	links    map[linkKey]linkStart
	warnings []core.Warning
	dropped  int64
}

type classRefs struct {
	kind                               paje.EventKind
	alias, typ, name, container, value int
	start, end, key                    int // links
}

type typeInfo struct {
	name   string
	values map[string]string // entity value alias (and name) -> name
}

type contState struct {
	key, name string
	parent    *contState
	row       core.Key
	hasRow    bool
	primary   *typeInfo
	stacks    map[*typeInfo]*stateStack
	vars      map[*typeInfo]core.Key
	varVals   map[*typeInfo]float64
	linksOut  int      // links leaving it not yet ended
	flowIn    core.Key // its Flow_in while set, else 0 (never a row's own key)
	flowInAt  core.Time
}

// stateStack is the stack of one state type on one container.
type stateStack struct {
	vals   []core.Value
	top    core.Key // States/<type>, or the row itself for the primary type
	depths []core.Key
	isMain bool
	// shown is the stack depth the CallStack attributes show: depths
	// below it hold vals, the others null.
	shown int
}

// NewAnalysis returns the Pajé state analysis writing into sink.
func NewAnalysis(sink core.StateSink) *Analysis {
	root := &contState{key: "0", name: rootLabel}
	return &Analysis{
		sink: sink, tree: sink.Attributes(),
		types: map[string]*typeInfo{}, conts: map[string]*contState{"0": root},
		rowIDs: map[string]bool{}, pids: map[*contState]int32{}, root: root, links: map[linkKey]linkStart{},
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
		kind: paje.KindOf(c.Name), alias: c.FieldIndex("Alias"), typ: c.FieldIndex("Type"),
		name: c.FieldIndex("Name"), container: c.FieldIndex("Container"), value: c.FieldIndex("Value"),
		start: c.FieldIndex("StartContainer"), end: c.FieldIndex("EndContainer"), key: c.FieldIndex("Key"),
	}
	a.classes[c.ID] = r
	return r
}

func text(ev *core.Event, i int) string {
	f := ev.Field(i)
	if f.Kind == core.FieldString {
		return string(f.Bytes)
	}
	return string(f.AppendText(nil))
}

// Handle implements ingest.Analysis.
func (a *Analysis) Handle(ev *core.Event) error {
	r := a.refs(ev.Class)
	t := ev.Time
	switch r.kind {
	case paje.EvDefineContainerType, paje.EvDefineStateType, paje.EvDefineVariableType, paje.EvDefineEventType, paje.EvDefineLinkType:
		ti := &typeInfo{name: text(ev, r.name), values: map[string]string{}}
		if al := text(ev, r.alias); al != "" {
			a.types[al] = ti
		}
		if _, dup := a.types[ti.name]; !dup {
			a.types[ti.name] = ti
		}
	case paje.EvDefineEntityValue:
		if ti, ok := a.types[text(ev, r.typ)]; ok {
			name := text(ev, r.name)
			ti.values[name] = name
			if al := text(ev, r.alias); al != "" {
				ti.values[al] = name
			}
		}
	case paje.EvCreateContainer:
		name := text(ev, r.name)
		key := text(ev, r.alias)
		if key == "" {
			key = name
		}
		c := &contState{key: key, name: name, parent: a.container(text(ev, r.container))}
		a.conts[key] = c
		if _, dup := a.conts[name]; !dup {
			a.conts[name] = c
		}
	case paje.EvDestroyContainer:
		if c, ok := a.conts[text(ev, r.name)]; ok && c.hasRow {
			for _, st := range c.stacks {
				st.vals = st.vals[:0]
				a.writeStack(c, st, t, 0)
			}
			for ti, k := range c.vars {
				a.modify(k, t, core.Null()) // pj_dump ends variables there too
				c.varVals[ti] = 0
			}
			a.endFlowIn(c, t)
		}
	case paje.EvSetState, paje.EvPushState, paje.EvPopState, paje.EvResetState:
		c := a.container(text(ev, r.container))
		ti := a.typeOf(text(ev, r.typ))
		st := a.stack(c, ti, t)
		same := len(st.vals) // depths below are unchanged
		switch r.kind {
		case paje.EvSetState:
			st.vals, same = append(st.vals[:0], a.stateValue(ti, ev, r)), 0
		case paje.EvPushState:
			st.vals = append(st.vals, a.stateValue(ti, ev, r))
		case paje.EvPopState:
			if len(st.vals) == 0 {
				a.warn(core.Warning{Time: t, Kind: "pop-empty", Count: 1,
					Message: fmt.Sprintf("PopState of %s on %s at %s with no state pushed: ignored", ti.name, c.name, core.FormatTimestamp(t))})
				return nil
			}
			st.vals = st.vals[:len(st.vals)-1]
			same = len(st.vals)
		case paje.EvResetState:
			st.vals, same = st.vals[:0], 0
		}
		a.writeStack(c, st, t, same)
	case paje.EvSetVariable, paje.EvAddVariable, paje.EvSubVariable:
		c := a.container(text(ev, r.container))
		ti := a.typeOf(text(ev, r.typ))
		a.ensureRow(c, t)
		k, ok := c.vars[ti]
		if !ok {
			k = a.tree.AddPath(core.AttrThreads, a.rowID(c), core.AttrVariables, core.SafeName(ti.name))
			c.vars[ti] = k
		}
		f := ev.Field(r.value)
		v := f.Float
		if f.Kind != core.FieldFloat {
			x, err := strconv.ParseFloat(string(f.AppendText(nil)), 64)
			if err != nil {
				return nil
			}
			v = x
		}
		switch r.kind {
		case paje.EvAddVariable:
			v = c.varVals[ti] + v
		case paje.EvSubVariable:
			v = c.varVals[ti] - v
		}
		c.varVals[ti] = v
		a.modify(k, t, core.Float64(v))
	case paje.EvStartLink, paje.EvEndLink:
		a.link(ev, r)
	}
	return nil
}

// container returns the container with this alias or name, creating an
// undeclared one under the root (PajeNG would refuse the trace).
func (a *Analysis) container(ref string) *contState {
	if c, ok := a.conts[ref]; ok {
		return c
	}
	c := &contState{key: ref, name: ref, parent: a.root}
	a.conts[ref] = c
	return c
}

func (a *Analysis) typeOf(ref string) *typeInfo {
	if ti, ok := a.types[ref]; ok {
		return ti
	}
	ti := &typeInfo{name: ref, values: map[string]string{}}
	a.types[ref] = ti
	return ti
}

// stateValue is the value to show: the entity value's name when the trace
// defined one for this alias.
func (a *Analysis) stateValue(ti *typeInfo, ev *core.Event, r *classRefs) core.Value {
	v := text(ev, r.value)
	if n, ok := ti.values[v]; ok {
		v = n
	}
	return core.String(core.SafeString(v))
}

// rowID returns the container's Threads/<id> name, unique even when two
// containers share a name.
func (a *Analysis) rowID(c *contState) string {
	return a.tree.Name(c.row)
}

// ensureRow creates the container's row on its first state or variable.
func (a *Analysis) ensureRow(c *contState, t core.Time) {
	if c.hasRow {
		return
	}
	id := core.SafeName(c.key)
	for n := 2; a.rowIDs[id]; n++ {
		id = core.SafeName(c.key) + "#" + strconv.Itoa(n)
	}
	a.rowIDs[id] = true
	c.row, c.hasRow = a.tree.AddPath(core.AttrThreads, id), true
	c.stacks, c.vars, c.varVals = map[*typeInfo]*stateStack{}, map[*typeInfo]core.Key{}, map[*typeInfo]float64{}
	a.modify(a.tree.Add(c.row, core.AttrExecName), t, core.String(core.SafeString(c.name)))
	p := c.parent
	if p == nil {
		p = a.root
	}
	pid, ok := a.pids[p]
	if !ok {
		pid = int32(len(a.pids)) + 1
		a.pids[p] = pid
		a.modify(a.tree.AddPath(core.AttrProcesses, strconv.Itoa(int(pid)), core.AttrExecName), t, core.String(core.SafeString(p.name)))
	}
	a.modify(a.tree.Add(c.row, core.AttrPID), t, core.Int32(pid))
}

// stack returns the stack of a state type on a container; the first
// state type used on a container is its primary one, shown on the row.
func (a *Analysis) stack(c *contState, ti *typeInfo, t core.Time) *stateStack {
	a.ensureRow(c, t)
	if st, ok := c.stacks[ti]; ok {
		return st
	}
	st := &stateStack{}
	if c.primary == nil {
		c.primary, st.isMain, st.top = ti, true, c.row
	} else {
		st.top = a.tree.AddPath(core.AttrThreads, a.rowID(c), core.AttrStates, core.SafeName(ti.name))
	}
	c.stacks[ti] = st
	return st
}

// writeStack writes the stack after a change: the top on st.top, and for
// the primary type the depths from same on (the ones below are unchanged)
// on CallStack/<d>, null above the stack. Writing only what changed keeps
// n nested pushes linear (issue 18: rewriting every depth made 100 000
// pushes take minutes).
func (a *Analysis) writeStack(c *contState, st *stateStack, t core.Time, same int) {
	top := core.Null()
	if len(st.vals) > 0 {
		top = st.vals[len(st.vals)-1]
	}
	a.modify(st.top, t, top)
	if !st.isMain {
		return
	}
	a.endFlowIn(c, t)
	for len(st.depths) < len(st.vals) {
		st.depths = append(st.depths, a.tree.AddPath(core.AttrThreads, a.rowID(c), core.AttrCallStack, strconv.Itoa(len(st.depths)+1)))
	}
	for d := same; d < max(st.shown, len(st.vals)); d++ {
		v := core.Null()
		if d < len(st.vals) {
			v = st.vals[d]
		}
		a.modify(st.depths[d], t, v)
	}
	st.shown = len(st.vals)
}

func (a *Analysis) modify(k core.Key, t core.Time, v core.Value) {
	if err := a.sink.Modify(k, t, v); err != nil {
		a.warn(core.Warning{Time: t, Kind: "state", Message: err.Error()})
	}
}

func (a *Analysis) warn(w core.Warning) {
	if len(a.warnings) >= core.MaxListedWarnings {
		a.dropped++
		return
	}
	w.Stream = -1
	a.warnings = append(a.warnings, w)
}

// Finish implements ingest.Analysis: states still set stay until the end.
func (a *Analysis) Finish(core.Time) error {
	if a.dropped > 0 {
		a.warnings = append(a.warnings, core.Warning{Stream: -1, Count: a.dropped, Kind: core.WarningMore,
			Message: fmt.Sprintf("%d more warnings not listed", a.dropped)})
	}
	return nil
}

// Warnings returns the problems met by the analysis (PopState on an
// empty stack, values the sink refused).
func (a *Analysis) Warnings() []core.Warning { return a.warnings }
