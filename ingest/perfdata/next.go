package perfdata

import (
	"fmt"
	"io"
	"math"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ftracefmt"
)

// Next implements core.Source.
func (s *Source) Next() (*core.Event, error) {
	if s.curQ != nil {
		s.q.release(s.curQ)
		s.curQ = nil
	}
	for {
		if e := s.q.pop(); e != nil {
			s.curQ = e
			if ev, err := s.deliver(record{typ: e.typ, misc: e.misc, data: e.data, at: e.at}, e.t); ev != nil || err != nil {
				return ev, err
			}
			continue
		}
		if s.q.st.eof {
			return nil, io.EOF
		}
		s.reads++
		if s.reads&4095 == 0 && s.ctx != nil {
			if err := s.ctx.Err(); err != nil {
				return nil, err
			}
		}
		rec, err := s.st.next()
		if err == io.EOF {
			s.q.finish()
			s.streamRead = false
			continue
		}
		if err != nil {
			return nil, err
		}
		s.streamAt, s.streamRead = rec.at, true
		s.q.st.lastRead, s.q.st.started = rec.at, true
		if rec.typ == recFinishedRound {
			s.q.round()
			continue
		}
		t, ok, err := s.timeOf(rec)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if s.q.push(rec, t) {
			continue
		}
		if ev, err := s.deliver(rec, t); ev != nil || err != nil {
			return ev, err
		}
	}
}

// timeOf returns the time of a record that becomes an event (0 or ^0 for
// none); false for the others.
func (s *Source) timeOf(rec record) (uint64, bool, error) {
	if rec.typ >= recUserStart || rec.typ != recSample && !sidebandType(rec.typ) {
		return 0, false, nil
	}
	a, err := s.f.attrOf(rec.typ, rec.data)
	if err != nil {
		return 0, false, err
	}
	if rec.typ == recSample {
		if a.sampleType&sampleTime == 0 {
			return ^uint64(0), true, nil
		}
		off := 8
		for _, b := range []uint64{sampleIdentifier, sampleIP, sampleTID} {
			if a.sampleType&b != 0 {
				off += 8
			}
		}
		if off+8 > len(rec.data) {
			return 0, false, corrupt(rec.at.off, "a sample of %d bytes without its time", len(rec.data))
		}
		return checkTime(s.f.order.Uint64(rec.data[off:])), true, nil
	}
	if a == nil || !a.sampleIDAll() || a.sampleType&sampleTime == 0 {
		return ^uint64(0), true, nil
	}
	n := trailerSize(a)
	off := len(rec.data) - n
	if a.sampleType&sampleTID != 0 {
		off += 8
	}
	if off < 8 || off+8 > len(rec.data) {
		return 0, false, corrupt(rec.at.off, "a record of %d bytes for a sample_id trailer of %d", len(rec.data), n)
	}
	return checkTime(s.f.order.Uint64(rec.data[off:])), true, nil
}

// checkTime returns t, or ^0 (no time) for a time past what core.Time
// holds (a damaged record).
func checkTime(t uint64) uint64 {
	if t > math.MaxInt64 {
		return ^uint64(0)
	}
	return t
}

// deliver decodes a record into the event Next returns.
func (s *Source) deliver(rec record, t uint64) (*core.Event, error) {
	a, err := s.f.attrOf(rec.typ, rec.data)
	if err != nil {
		return nil, err
	}
	s.cur = rec
	if t != ^uint64(0) {
		s.q.st.time = max(s.q.st.time, t)
	}
	var cl *class
	if rec.typ == recSample {
		if err := parseSample(a, rec.data[8:], &s.cursor, &s.curS); err != nil {
			return nil, fmt.Errorf("%s: sample at offset %d: %w", s.f.path, rec.at.off, err)
		}
		cl = s.byAttr[a.index]
		s.curBody = nil
	} else {
		if a == nil {
			a = &attr{}
		}
		body, err := parseTrailer(a, rec.data[8:], &s.cursor, &s.curS)
		if err != nil {
			return nil, fmt.Errorf("%s: record of type %d at offset %d: %w", s.f.path, rec.typ, rec.at.off, err)
		}
		if len(body) < sidebandMin[rec.typ] {
			return nil, corrupt(rec.at.off, "%d bytes for a record of type %d", len(rec.data), rec.typ)
		}
		s.curBody = body
		cl = s.byType[sidebandClassOf(rec.typ)]
	}
	if cl == nil {
		return nil, nil // a record type the first pass did not see: not this file's
	}
	s.curCl = cl
	sm := &s.curS
	// Time 0 (perf's synthesized start-up records) and records without a
	// time take the last time delivered, or the trace's start.
	tm := s.q.st.time
	if s.sc.start <= s.sc.end {
		tm = max(tm, s.sc.start)
	}
	s.ev = core.Event{Time: core.Time(tm), CPU: cpuOf(sm), Class: &cl.class}
	if s.ev.CPU >= 0 {
		s.ev.Stream = s.ev.CPU
	}
	n := len(cl.class.Fields)
	if cap(s.fields) < n {
		s.fields = make([]core.Field, n)
	}
	fs := s.fields[:n]
	clear(fs)
	s.scratch = s.scratch[:0]
	if sm.hasTID {
		fs[core.CtxTID] = core.Field{Kind: core.FieldInt, Int: int64(sm.tid)}
		fs[core.CtxPID] = core.Field{Kind: core.FieldInt, Int: int64(sm.pid)}
		if c := s.commOf(sm.tid); c != "" {
			fs[core.CtxComm] = core.Field{Kind: core.FieldString, Bytes: s.str(c)}
		}
	}
	switch {
	case rec.typ == recSample && cl.format != nil:
		if !s.noFields {
			s.decodeTracepoint(cl.format, fs)
		}
	case rec.typ == recSample:
		f := fs[core.NumThreadContext:]
		if sm.hasIP {
			f[0] = core.Field{Kind: core.FieldUint, Int: int64(sm.ip)}
		}
		if sm.hasPeriod {
			f[1] = core.Field{Kind: core.FieldUint, Int: int64(sm.period)}
		}
		if a.sampleType&sampleAddr != 0 {
			f[2] = core.Field{Kind: core.FieldUint, Int: int64(sm.addr)}
		}
		if sm.hasCallchain {
			f[3] = core.Field{Kind: core.FieldInt, Int: int64(len(sm.callchain))}
		}
	default:
		s.decodeSideband(rec, fs[core.NumThreadContext:])
	}
	s.ev.Fields = fs
	return &s.ev, nil
}

// commOf is a thread's name at the record being delivered, "" if unknown.
func (s *Source) commOf(tid int32) string {
	c := s.f.comm(tid, s.curTime(), s.cur.at)
	if c == "" && tid == 0 {
		return "swapper"
	}
	return c
}

// curTime is the record's own time (0 without one).
func (s *Source) curTime() uint64 {
	if s.curS.hasTime {
		return s.curS.time
	}
	return 0
}

// str copies a string into the scratch buffer, for a field's bytes.
func (s *Source) str(v string) []byte {
	start := len(s.scratch)
	s.scratch = append(s.scratch, v...)
	return s.scratch[start:len(s.scratch):len(s.scratch)]
}

// decodeTracepoint fills a tracepoint's fields from its RAW payload, as
// the trace.dat reader does: integers, char arrays and __data_loc strings
// as text, other arrays as their elements in hex, sched_switch's
// prev_state as the kernel's letters.
func (s *Source) decodeTracepoint(ef *ftracefmt.Format, fs []core.Field) {
	r := &ftracefmt.Record{Order: s.f.tracing.order, Data: s.curS.raw}
	if !s.curS.hasTID {
		if fd := ef.Field("common_pid"); fd != nil {
			pid, _ := r.Int(fd, 0)
			fs[core.CtxTID] = core.Field{Kind: core.FieldInt, Int: pid}
			if c := s.commOf(int32(pid)); c != "" {
				fs[core.CtxComm] = core.Field{Kind: core.FieldString, Bytes: s.str(c)}
			}
		}
	}
	s.scratch = ftracefmt.DecodeFields(fs[core.NumThreadContext:], ef, r, s.scratch, nil)
}

// decodeSideband fills a side-band record's fields (see sidebandClasses).
func (s *Source) decodeSideband(rec record, f []core.Field) {
	o, b := s.f.order, s.curBody
	i32 := func(off int) core.Field { return core.Field{Kind: core.FieldInt, Int: int64(int32(o.Uint32(b[off:])))} }
	u64 := func(off int) core.Field { return core.Field{Kind: core.FieldUint, Int: int64(o.Uint64(b[off:]))} }
	flag := func(v bool) core.Field {
		if v {
			return core.Field{Kind: core.FieldInt, Int: 1}
		}
		return core.Field{Kind: core.FieldInt, Int: 0}
	}
	switch rec.typ {
	case recComm:
		f[0], f[1] = i32(0), i32(4)
		f[2] = core.Field{Kind: core.FieldString, Bytes: cbytes(b[8:])}
		f[3] = flag(rec.misc&miscCommExec != 0)
	case recFork, recExit:
		f[0], f[1], f[2], f[3] = i32(0), i32(4), i32(8), i32(12)
	case recMMAP, recMMAP2:
		f[0], f[1], f[2], f[3], f[4] = i32(0), i32(4), u64(8), u64(16), u64(24)
		name := b[32:]
		if rec.typ == recMMAP2 {
			name = b[64:]
		}
		f[5] = core.Field{Kind: core.FieldString, Bytes: cbytes(name)}
		f[6] = flag(rec.misc&miscMmapData != 0)
	case recLost:
		f[0] = u64(8)
	case recLostSamples:
		f[0] = u64(0)
	case recSwitch, recSwitchCPUWide:
		f[0] = flag(rec.misc&miscSwitchOut != 0)
		f[1] = flag(rec.misc&miscSwitchOutPreempt != 0)
		if rec.typ == recSwitchCPUWide {
			f[2], f[3] = i32(0), i32(4)
		}
	}
}

// misc bits.
const (
	miscCPUModeMask      = 7
	miscKernel           = 1
	miscUser             = 2
	miscCommExec         = 1 << 13
	miscMmapData         = 1 << 13
	miscSwitchOut        = 1 << 13
	miscSwitchOutPreempt = 1 << 14
	miscMmapBuildID      = 1 << 14
)

// AppendContents implements core.Source: the event's body as `perf
// script` prints it after the event name.
func (s *Source) AppendContents(dst []byte, ev *core.Event) []byte {
	return s.appendBody(dst)
}
