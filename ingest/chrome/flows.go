package chrome

import (
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// Flow events (s, t, f) link a slice of one thread to a slice of another.
// The other end of a flow start is not known when it is read (the states
// are written in time order), so each end says what it knows:
//
//	Threads/<id>/Flow_out   "<cat>/<name>#<id>" from the s (or t) event
//	Threads/<id>/Flow_in    "<cat>/<name>#<id> from <thread> at <ns>" from the t or f event,
//	                        naming the thread and time of the previous step
//
// Each holds from its event until the slice enclosing it ends (a flow end
// binds to its enclosing slice, as Chrome's "bp": "e" asks and Perfetto
// does), or, on a thread with no open slice, until its next slice ends. A
// browser finds the other end of a Flow_out by looking for the Flow_in
// that names its thread and time.

// flowKey identifies one flow (ids are scoped by category and name).
type flowKey struct {
	cat, name, id string
}

// flowStep is where a flow was last seen.
type flowStep struct {
	thread *threadState
	t      core.Time
}

// maxOpenFlows bounds the flows waiting for their next step: a trace of
// starts that never finish keeps the oldest ones only.
const maxOpenFlows = 1 << 16

// flow handles an s, t or f event.
func (a *Analysis) flow(ev *core.Event, r *classRefs, ph byte) error {
	th := a.thread(ev, r)
	if th == nil {
		return nil
	}
	fk := flowKey{cat: string(ev.Field(r.cat).AppendText(nil)), name: ev.Class.Name, id: string(ev.Field(r.id).AppendText(nil))}
	label := core.SafeString(fk.cat + "/" + fk.name + "#" + fk.id)
	if ph == 't' || ph == 'f' {
		if prev, ok := a.flows[fk]; ok {
			delete(a.flows, fk)
			a.markFlow(th, core.AttrFlowIn, ev.Time, core.String(label+" from "+a.tree.Name(prev.thread.key)+" at "+strconv.FormatInt(int64(prev.t), 10)))
		}
	}
	if ph == 's' || ph == 't' {
		if len(a.flows) < maxOpenFlows {
			a.flows[fk] = flowStep{thread: th, t: ev.Time}
		}
		a.markFlow(th, core.AttrFlowOut, ev.Time, core.String(label))
	}
	return nil
}

// markFlow sets a flow attribute of th until its enclosing slice ends.
func (a *Analysis) markFlow(th *threadState, name string, t core.Time, v core.Value) {
	k := a.tree.Add(th.key, name)
	a.modify(k, t, v)
	depth := max(len(th.stack), 1)
	if len(th.flowKeys) > 0 {
		depth = min(depth, th.flowDepth) // the shallowest binding keeps them all
	}
	th.flowKeys = append(th.flowKeys, k)
	th.flowDepth = depth
}

// endFlows nulls th's flow attributes once its stack is below the depth
// they were bound to.
func (a *Analysis) endFlows(th *threadState, t core.Time) {
	if len(th.flowKeys) == 0 || len(th.stack) >= th.flowDepth {
		return
	}
	for _, k := range th.flowKeys {
		a.modify(k, t, core.Null())
	}
	th.flowKeys = th.flowKeys[:0]
}
