package ctf

import (
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// Event classes compiled when first met. A reader given an index's
// metadata (Options.Metadata) reads a trace whose metadata compiled whole
// when it was indexed; the event table's first page meets a few of its
// classes, where an LTTng kernel trace declares 541: compiling them all
// took 12 to 15 ms of the browser's first frame. Such a reader compiles
// the stream's scopes at open and each event class's context and payload
// the first time an event of it is decoded, from the compiler as the
// stream's scopes left it (sp.base), with the steps and in the order the
// stream's compilation applies to every class.
//
// The classes of a stream are compiled with it when one of them names a
// field outside the event (an absolute path from "trace." or "stream."):
// marking what is printed then marks the named field, which the stream's
// own marking must see.

// compileEvent compiles the trees of an event class's context and
// payload with c.
func (c *compiler) compileEvent(ep *eventPlan) error {
	var err error
	if ep.ctx, err = c.compileScope(scopeEventContext, ep.meta.Context); err != nil {
		return err
	}
	if ep.payload, err = c.compileScope(scopePayload, ep.meta.Payload); err != nil {
		return err
	}
	ep.nslots = c.nslots
	return nil
}

// markIR marks what babeltrace2 prints of the event: dependents first
// (reverse decoding order).
func (ep *eventPlan) markIR() {
	for _, t := range []*node{ep.payload, ep.ctx} {
		if t != nil {
			markIR(t)
		}
	}
}

// finishEvent labels an event class's fields, exposes them as its class's
// (after the packet and stream contexts') and compiles its decoding.
func (sp *streamPlan) finishEvent(ep *eventPlan) error {
	setLabels(ep.ctx)
	setLabels(ep.payload)
	names := append([]string(nil), sp.fieldPrefix...)
	kinds := append([]core.FieldKind(nil), sp.ctxKinds...)
	expose(ep.ctx, "context.", &names, &kinds)
	expose(ep.payload, "", &names, &kinds)
	ep.nfields, ep.kinds = len(names), kinds
	if ep.class == nil {
		ep.class = &core.EventClass{Name: ep.meta.Name}
	}
	ep.class.Fields = names
	if sp.cpuID == nil {
		if i := ep.class.FieldIndex("perf_cpu"); i >= 0 && ep.payload != nil {
			ep.perfCPU = int32(i)
		}
	}
	ep.ctxOps = compileOps(ep.ctx)
	ep.payloadOps = compileOps(ep.payload)
	for _, p := range []program{ep.ctxOps, ep.payloadOps} {
		if err := checkLoops(p); err != nil {
			return err
		}
	}
	ep.ready = true
	return nil
}

// prepare compiles ep if it was left for when first met.
func (sp *streamPlan) prepare(ep *eventPlan) error {
	if ep.ready {
		return nil
	}
	c := sp.base
	if err := c.compileEvent(ep); err != nil {
		return err
	}
	ep.markIR()
	return sp.finishEvent(ep)
}

// eventsStayInside reports whether no event class of sc names a field
// outside the event.
func eventsStayInside(sc *tsdl.StreamClass) bool {
	seen := map[*tsdl.Type]bool{}
	var inside func(t *tsdl.Type) bool
	inside = func(t *tsdl.Type) bool {
		if t == nil || seen[t] {
			return true
		}
		seen[t] = true
		if t.Loc != nil && t.Loc.Origin >= 0 && t.Loc.Origin < int8(scopeEventContext) {
			return false
		}
		for _, p := range []string{t.Tag, t.LengthPath} {
			if strings.HasPrefix(p, "trace.") || strings.HasPrefix(p, "stream.") {
				return false
			}
		}
		for _, f := range t.Fields {
			if !inside(f.Type) {
				return false
			}
		}
		return inside(t.Elem)
	}
	for _, ev := range sc.Events {
		if !inside(ev.Context) || !inside(ev.Payload) {
			return false
		}
	}
	return true
}

// eventsClock returns the first clock a field of sc's event classes maps
// to, in declaration order (context, then payload, of each class), as the
// stream's compilation finds it in their trees.
func eventsClock(sc *tsdl.StreamClass) *tsdl.Clock {
	seen := map[*tsdl.Type]bool{}
	var find func(t *tsdl.Type) *tsdl.Clock
	find = func(t *tsdl.Type) *tsdl.Clock {
		if t == nil || seen[t] {
			return nil
		}
		seen[t] = true
		if t.Clock != nil {
			return t.Clock
		}
		for _, f := range t.Fields {
			if c := find(f.Type); c != nil {
				return c
			}
		}
		return find(t.Elem)
	}
	for _, ev := range sc.Events {
		for _, t := range []*tsdl.Type{ev.Context, ev.Payload} {
			if c := find(t); c != nil {
				return c
			}
		}
	}
	return nil
}
