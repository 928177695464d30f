package ctf

import (
	"fmt"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// tracePlan is the compiled metadata of one trace.
type tracePlan struct {
	meta      *tsdl.Trace
	header    *node // packet header, nil if none
	headerOps program
	hdrSlots  int32 // slots [0, hdrSlots) belong to the packet header
	magic     *node
	streamID  *node
	instance  *node
	uuid      *node // array of 16 bytes, exposed as hdrFields[0]
	streams   []*streamPlan
}

// streamPlan is the compiled metadata of one stream class.
type streamPlan struct {
	meta         *tsdl.StreamClass
	clock        *tsdl.Clock // the stream's default clock, nil if none
	conv         clockConv
	pktCtx       *node
	header       *node
	streamCtx    *node
	pktCtxOps    program
	headerOps    program
	streamCtxOps program
	nslots       int32
	// Packet context fields the reader uses, nil when absent.
	tsBegin, tsEnd, contentSize, packetSize, discarded, seqNum, cpuID *node
	nPktFields                                                        int // exposed packet context fields: Event.Fields[0:nPktFields]
	nCtxFields                                                        int // then the stream event context's
	fieldPrefix                                                       []string
	ctxKinds                                                          []core.FieldKind // of fieldPrefix
	// base is the compiler once the stream's scopes are compiled, from
	// which an event class is compiled on demand; its roots are zero when
	// the events were compiled with the stream.
	base        compiler
	pktKinds    []core.FieldKind
	events      []*eventPlan
	byID        []*eventPlan // dense, when ids are small
	byIDMap     map[uint64]*eventPlan
	headerHasID bool
}

// eventPlan is the compiled metadata of one event class.
type eventPlan struct {
	idx        int // in streamPlan.events
	kinds      []core.FieldKind
	meta       *tsdl.EventClass
	class      *core.EventClass
	ctx        *node
	payload    *node
	ctxOps     program
	payloadOps program
	nfields    int
	perfCPU    int32 // index of a perf_cpu payload field, -1
	ready      bool  // compiled (lazy.go)
	nslots     int32 // slots its decoding needs
}

// event returns the event class with the given id, or nil.
func (s *streamPlan) event(id uint64) *eventPlan {
	if id < uint64(len(s.byID)) {
		return s.byID[id]
	}
	return s.byIDMap[id]
}

// compileTrace compiles the metadata of a trace. When lazy, the event
// classes of a stream whose events refer to nothing outside themselves
// are compiled when a reader first meets one (lazy.go): for metadata that
// compiled whole before (an indexed trace's).
func compileTrace(meta *tsdl.Trace, lazy bool) (*tracePlan, error) {
	tp := &tracePlan{meta: meta}
	clocks := meta.Clocks
	var defaultClock *tsdl.Clock

	c := &compiler{clocks: clocks, ctf2: meta.IsCTF2()}
	hdr, err := c.compileScope(scopePacketHeader, meta.PacketHeader)
	if err != nil {
		return nil, err
	}
	tp.header, tp.hdrSlots = hdr, c.nslots
	if !c.ctf2 {
		if err := refuseWide(hdr, "magic", "stream_id", "stream_instance_id"); err != nil {
			return nil, err
		}
	}
	if hdr != nil && c.ctf2 {
		for _, ch := range hdr.children {
			switch ch.meaning = roleMeaning(ch.typ.Roles); ch.meaning {
			case meanMagic:
				tp.magic = ch
			case meanStreamID:
				tp.streamID = ch
			case meanStreamInstanceID:
				tp.instance = ch
			case meanUUID:
				tp.uuid = ch
				ch.text, ch.field = true, 0 // read as bytes, not printed
			}
		}
	} else if hdr != nil {
		for _, ch := range hdr.children {
			isInt := ch.kind == tsdl.KindInt || ch.kind == tsdl.KindEnum
			switch {
			case ch.name == "magic" && isInt:
				ch.meaning, tp.magic = meanMagic, ch
			case ch.name == "stream_id" && isInt:
				ch.meaning, tp.streamID = meanStreamID, ch
			case ch.name == "stream_instance_id" && isInt:
				ch.meaning, tp.instance = meanStreamInstanceID, ch
			case ch.name == "uuid" && ch.kind == tsdl.KindArray:
				ch.meaning = meanUUID
				el := ch.elem
				if ch.length != 16 || el.kind != tsdl.KindInt || el.size != 8 || el.align%8 != 0 {
					return nil, planError(ch.typ, "packet header uuid must be an array of 16 bytes")
				}
				tp.uuid = ch
				ch.text, ch.field = true, 0 // read as bytes, not printed
			}
		}
		if hasClock(hdr) {
			return nil, planError(hdr.typ, "the packet header must not hold clock values")
		}
		if tp.magic != nil && (tp.magic.size != 32 || tp.magic.signed) {
			return nil, planError(tp.magic.typ, "packet header magic must be a 32-bit unsigned integer")
		}
	}
	if len(meta.Streams) > 1 && tp.streamID == nil && c.ctf2 {
		return nil, &tsdl.Error{Reason: "the trace has several data stream classes but its packet header has no data-stream-class-id role"}
	}
	if len(meta.Streams) > 1 && tp.streamID == nil {
		return nil, &tsdl.Error{Reason: "the trace has several stream classes but its packet header has no stream_id"}
	}
	for _, sc := range meta.Streams {
		if !c.ctf2 && len(clocks) == 0 && defaultClock == nil && needsDefaultClock(meta, sc) {
			// babeltrace2 maps unmapped timestamps to a 1 GHz clock
			// when the metadata declares none.
			defaultClock = &tsdl.Clock{Name: "default", Freq: 1_000_000_000}
		}
		sp, err := compileStream(c, tp, sc, defaultClock, lazy)
		if err != nil {
			return nil, err
		}
		tp.streams = append(tp.streams, sp)
	}
	if hdr != nil {
		markIR(hdr)
	}
	tp.headerOps = compileOps(hdr)
	return tp, nil
}

// needsDefaultClock reports whether a stream class has timestamp fields
// that babeltrace2 would map to an implicit clock.
func needsDefaultClock(meta *tsdl.Trace, sc *tsdl.StreamClass) bool {
	return hasNamedInt(sc.PacketContext, "timestamp_begin", 0) || hasNamedInt(sc.PacketContext, "timestamp_end", 0) ||
		hasNamedInt(sc.EventHeader, "timestamp", 0)
}

func hasNamedInt(t *tsdl.Type, name string, depth int) bool {
	if t == nil || depth > maxDepth {
		return false
	}
	for _, f := range t.Fields {
		if stripName(f.Name) == name && (f.Type.Kind == tsdl.KindInt || f.Type.Kind == tsdl.KindEnum) {
			return true
		}
		if f.Type.Kind == tsdl.KindStruct || f.Type.Kind == tsdl.KindVariant {
			if hasNamedInt(f.Type, name, depth+1) {
				return true
			}
		}
	}
	return false
}

const maxDepth = 64

func compileStream(c *compiler, tp *tracePlan, sc *tsdl.StreamClass, defaultClock *tsdl.Clock, lazy bool) (*streamPlan, error) {
	sp := &streamPlan{meta: sc}
	c.nslots = tp.hdrSlots
	var err error
	if sp.pktCtx, err = c.compileScope(scopePacketContext, sc.PacketContext); err != nil {
		return nil, err
	}
	if sp.header, err = c.compileScope(scopeEventHeader, sc.EventHeader); err != nil {
		return nil, err
	}
	if sp.streamCtx, err = c.compileScope(scopeStreamContext, sc.EventContext); err != nil {
		return nil, err
	}
	if !c.ctf2 { // CTF 2 roles are on integers of 64 bits at most (package ctf2)
		if err := refuseWide(sp.pktCtx, "timestamp_begin", "timestamp_end", "content_size", "packet_size", "events_discarded", "packet_seq_num", "cpu_id"); err != nil {
			return nil, err
		}
		if err := refuseWide(sp.header, "id", "timestamp"); err != nil {
			return nil, err
		}
	}
	// Timestamps without a clock use the trace's only clock (babeltrace2).
	autoClock := defaultClock
	if len(c.clocks) == 1 {
		autoClock = c.clocks[0]
	}
	if autoClock != nil && !c.ctf2 {
		autoMapClock(sp.pktCtx, "timestamp_begin", autoClock)
		autoMapClock(sp.pktCtx, "timestamp_end", autoClock)
		autoMapClock(sp.header, "timestamp", autoClock)
	}
	lazy = lazy && eventsStayInside(sc)
	if lazy {
		sp.base = *c
		sp.base.stack = nil
	}
	for _, ec := range sc.Events {
		ep := &eventPlan{idx: len(sp.events), meta: ec, perfCPU: -1}
		if lazy {
			ep.class = &core.EventClass{Name: ec.Name}
		} else if err := c.compileEvent(ep); err != nil {
			return nil, err
		}
		sp.events = append(sp.events, ep)
	}
	sp.nslots = c.nslots

	// The stream's default clock: the first one a field maps to.
	trees := []*node{sp.pktCtx, sp.header, sp.streamCtx}
	for _, ep := range sp.events {
		trees = append(trees, ep.ctx, ep.payload)
	}
	for _, t := range trees {
		if err := findClock(t, &sp.clock); err != nil {
			return nil, err
		}
	}
	if lazy && sp.clock == nil {
		sp.clock = eventsClock(sc)
	}
	if sp.clock != nil {
		if sp.conv, err = newClockConv(sp.clock); err != nil {
			return nil, planError(nil, "clock %q: %v", sp.clock.Name, err)
		}
	}

	// Meanings (CTF 2: roles; CTF 1.8: babeltrace2's names).
	if p := sp.pktCtx; p != nil && c.ctf2 {
		for _, ch := range p.children {
			if ch.kind != tsdl.KindInt && ch.kind != tsdl.KindEnum && ch.kind != tsdl.KindVarInt {
				continue
			}
			switch ch.meaning = roleMeaning(ch.typ.Roles); ch.meaning {
			case meanTSBegin:
				sp.tsBegin = ch
			case meanTSEnd:
				sp.tsEnd = ch
			case meanContentSize:
				sp.contentSize = ch
			case meanPacketSize:
				sp.packetSize = ch
			case meanDiscarded:
				sp.discarded = ch
			case meanSeqNum:
				sp.seqNum = ch
			}
			if ch.name == "cpu_id" {
				sp.cpuID = ch
			}
		}
	} else if p := sp.pktCtx; p != nil {
		for _, ch := range p.children {
			if ch.kind != tsdl.KindInt && ch.kind != tsdl.KindEnum {
				continue
			}
			switch ch.name {
			case "timestamp_begin":
				ch.meaning, sp.tsBegin = meanTSBegin, ch
			case "timestamp_end":
				ch.meaning, sp.tsEnd = meanTSEnd, ch
				ch.clock = nil // read as a value: it must not move the clock
			case "content_size":
				ch.meaning, sp.contentSize = meanContentSize, ch
			case "packet_size":
				ch.meaning, sp.packetSize = meanPacketSize, ch
			case "events_discarded":
				ch.meaning, sp.discarded = meanDiscarded, ch
			case "packet_seq_num":
				ch.meaning, sp.seqNum = meanSeqNum, ch
			case "cpu_id":
				sp.cpuID = ch
			}
		}
	}
	if c.ctf2 {
		sp.headerHasID = markEventIDRoles(sp.header)
	} else {
		sp.headerHasID = markEventID(sp.header)
	}

	// What babeltrace2 prints: dependents first (reverse decoding order).
	for _, ep := range sp.events {
		ep.markIR()
	}
	for _, t := range []*node{sp.streamCtx, sp.header, sp.pktCtx} {
		if t != nil {
			markIR(t)
		}
	}

	// Printed member labels (an event's: finishEvent); the packet context
	// hides its meanings.
	for _, t := range trees[:3] {
		setLabels(t)
	}
	if sp.pktCtx != nil && !c.ctf2 {
		for _, ch := range sp.pktCtx.children {
			if packetContextHidden[ch.name] {
				ch.shown = false
			}
		}
	}

	// Exposed fields: packet context, stream context, event context,
	// payload.
	var pktNames []string
	var pktKinds []core.FieldKind
	expose(sp.pktCtx, "packet.", &pktNames, &pktKinds)
	sp.nPktFields = len(pktNames)
	sp.pktKinds = pktKinds
	ctxNames, ctxKinds := pktNames, pktKinds
	expose(sp.streamCtx, "context.", &ctxNames, &ctxKinds)
	sp.nCtxFields = len(ctxNames) - len(pktNames)
	sp.fieldPrefix, sp.ctxKinds = ctxNames, ctxKinds

	sp.pktCtxOps = compileOps(sp.pktCtx)
	sp.headerOps = compileOps(sp.header)
	sp.streamCtxOps = compileOps(sp.streamCtx)
	for _, p := range []program{sp.pktCtxOps, sp.headerOps, sp.streamCtxOps} {
		if err := checkLoops(p); err != nil {
			return nil, err
		}
	}
	if !lazy {
		for _, ep := range sp.events {
			if err := sp.finishEvent(ep); err != nil {
				return nil, err
			}
		}
	}

	maxID := uint64(0)
	for _, ep := range sp.events {
		maxID = max(maxID, ep.meta.ID)
	}
	if maxID < 1<<16 {
		sp.byID = make([]*eventPlan, maxID+1)
		for _, ep := range sp.events {
			sp.byID[ep.meta.ID] = ep
		}
	} else {
		sp.byIDMap = map[uint64]*eventPlan{}
		for _, ep := range sp.events {
			sp.byIDMap[ep.meta.ID] = ep
		}
	}
	return sp, nil
}

// describe returns a short name of a stream class for error messages.
func (s *streamPlan) describe() string { return fmt.Sprintf("stream class %d", s.meta.ID) }
