package chrome

import (
	"slices"
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
// Each binds to a slice of its thread, as Chrome's trace viewer does:
//
//   - a flow start (s) binds to its enclosing slice, the slice open at its
//     timestamp;
//   - a step (t) or end (f) with "bp": "e" binds to its enclosing slice;
//   - a step or end without it binds to the next slice: the first slice of
//     its thread that begins at or after its timestamp (the Trace Event
//     Format's default binding point, which Perfetto applies to f).
//
// The attribute is set at the event and holds until the slice it binds
// to ends: the enclosing slice, or the next slice once it has begun. An
// enclosing binding with no slice open binds to the next slice instead;
// with no slice beginning later either, the attribute holds to the end of
// the trace, so the flow can still be followed. A browser finds the
// other end of a Flow_out by looking for the Flow_in that names its thread
// and time.

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
	// The next slice, unless the step says "bp": "e" or the slice at the
	// top of the stack begins right here (it is the next slice).
	next := ph != 's' && ev.Field(r.bp).Kind == core.FieldNone &&
		(len(th.stack) == 0 || th.stack[len(th.stack)-1].start != ev.Time)
	if ph == 't' || ph == 'f' {
		if prev, ok := a.flows[fk]; ok {
			delete(a.flows, fk)
			a.markFlow(th, core.AttrFlowIn, ev.Time, core.String(label+" from "+a.tree.Name(prev.thread.key)+" at "+strconv.FormatInt(int64(prev.t), 10)), next)
		}
	}
	if ph == 's' || ph == 't' {
		if len(a.flows) < maxOpenFlows {
			a.flows[fk] = flowStep{thread: th, t: ev.Time}
		}
		a.markFlow(th, core.AttrFlowOut, ev.Time, core.String(label), next)
	}
	return nil
}

// markFlow sets a flow attribute of th until its enclosing slice ends, or
// (next) until the next slice of th, once begun, ends.
func (a *Analysis) markFlow(th *threadState, name string, t core.Time, v core.Value, next bool) {
	k := a.tree.Add(th.key, name)
	a.modify(k, t, v)
	// The new value replaces the old one and its binding.
	isK := func(x core.Key) bool { return x == k }
	th.flowKeys = slices.DeleteFunc(th.flowKeys, isK)
	th.nextFlowKeys = slices.DeleteFunc(th.nextFlowKeys, isK)
	if next {
		th.nextFlowKeys = append(th.nextFlowKeys, k)
		return
	}
	a.bindFlows(th, max(len(th.stack), 1), k)
}

// bindFlows binds flow attributes of th to the slice at depth: they end
// with it. The shallowest binding keeps them all.
func (a *Analysis) bindFlows(th *threadState, depth int, keys ...core.Key) {
	if len(th.flowKeys) > 0 {
		depth = min(depth, th.flowDepth)
	}
	th.flowKeys = append(th.flowKeys, keys...)
	th.flowDepth = depth
}

// beginSlice binds the flow attributes waiting for th's next slice to the
// slice that just began at depth.
func (a *Analysis) beginSlice(th *threadState, depth int) {
	if len(th.nextFlowKeys) > 0 {
		a.bindFlows(th, depth, th.nextFlowKeys...)
		th.nextFlowKeys = th.nextFlowKeys[:0]
	}
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
