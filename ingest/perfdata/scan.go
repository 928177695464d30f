package perfdata

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/tracetui/tracetui/core"
)

// scanned is what the first pass learns besides the file's thread names.
type scanned struct {
	used       map[int]bool // attrs with samples
	sideband   map[uint32]bool
	start, end uint64 // timed records' bounds
	records    int64
	events     int64
	lost       int64 // LOST: records the kernel dropped
	lostSample int64 // LOST_SAMPLES
	skipped    map[uint32]int64
	pipeHeader int // pipe mode: header records
}

// commChange is a COMM or FORK record, replayed in delivery order after
// the pass to give each thread its names over time.
type commChange struct {
	t      uint64
	at     pos
	tid    int32
	parent int32 // FORK: the parent thread (comm is then empty)
	comm   string
	fork   bool
}

// scan is the first pass: in pipe mode the attrs, features and tracing
// data the stream starts with; then thread names (THREAD_MAP, COMM,
// FORK), ID_INDEX, lost records, skipped record types, the time range
// and which events have samples.
func (f *file) scan(ctx context.Context, warn func(core.Warning), headerOnly bool) (*scanned, error) {
	sc := &scanned{used: map[int]bool{}, sideband: map[uint32]bool{}, skipped: map[uint32]int64{}, start: ^uint64(0)}
	st := newStream(f.r, f.order, f.start, f.end)
	defer st.close()
	var changes []commChange
	var s sample
	c := &cursor{order: f.order}
	for n := 0; ; n++ {
		if n&4095 == 0 && ctx != nil {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		rec, err := st.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		sc.records++
		if f.hdr.pipe && rec.typ >= recUserStart {
			if done, err := f.pipeRecord(rec, st, warn); err != nil {
				return nil, err
			} else if done {
				continue
			}
		}
		switch rec.typ {
		case recThreadMap:
			c := &cursor{b: rec.data[8:], order: f.order, what: "THREAD_MAP"}
			k := c.count(c.u64(), 24)
			for i := 0; i < k && c.err == nil; i++ {
				pid := int32(c.u64())
				f.addComm(pid, 0, rec.at, cstr(c.take(16)))
			}
			continue
		case recCPUMap:
			cpus, err := parseCPUMap(rec.data[8:], f.order)
			if err != nil {
				warn(core.Warning{Stream: -1, Kind: "cpu-map", Message: fmt.Sprintf("%s: CPU_MAP at offset %d skipped: %v", f.path, rec.at.off, err)})
			} else {
				f.meta.CPUs = cpus
			}
			continue
		case recTimeConv:
			tc, err := parseTimeConv(rec.data[8:], f.order)
			if err != nil {
				warn(core.Warning{Stream: -1, Kind: "time-conv", Message: fmt.Sprintf("%s: TIME_CONV at offset %d skipped: %v", f.path, rec.at.off, err)})
			} else {
				f.meta.TimeConv = tc
			}
			continue
		case recIDIndex:
			c := &cursor{b: rec.data[8:], order: f.order, what: "ID_INDEX"}
			k := c.count(c.u64(), 32)
			if f.idIndex == nil {
				f.idIndex = map[uint64]idEntry{}
			}
			for i := 0; i < k && c.err == nil && len(f.idIndex) < maxIDs; i++ {
				id, _, cpu, tid := c.u64(), c.u64(), c.u64(), c.u64()
				f.idIndex[id] = idEntry{cpu: int32(cpu), tid: int32(tid)}
			}
			continue
		}
		if rec.typ >= recUserStart {
			continue
		}
		if err := f.finishAttrs(); err != nil {
			return nil, err
		}
		if headerOnly {
			return sc, nil
		}
		if rec.typ != recSample && !sidebandType(rec.typ) {
			// Not read (AUX, KSYMBOL..., unknown types): stepped over by
			// size, trailer unread.
			sc.skipped[rec.typ]++
			continue
		}
		a, err := f.attrOf(rec.typ, rec.data)
		if err != nil {
			return nil, err
		}
		var body []byte
		if rec.typ == recSample {
			if err := parseSample(a, rec.data[8:], c, &s); err != nil {
				return nil, fmt.Errorf("sample at offset %d: %w", rec.at.off, err)
			}
			if !a.sampled { // a map write per sample was 2 % of an index's CPU
				a.sampled, sc.used[a.index] = true, true
			}
			sc.events++
		} else {
			if a == nil {
				a = f.attrs[0]
				if a.sampleIDAll() {
					a = &attr{} // no trailer to read
				}
			}
			body, err = parseTrailer(a, rec.data[8:], c, &s)
			if err != nil {
				return nil, fmt.Errorf("record of type %d at offset %d: %w", rec.typ, rec.at.off, err)
			}
			if minBody := sidebandMin[rec.typ]; len(body) < minBody {
				return nil, fmt.Errorf("%w: record of type %d at offset %d: %d bytes, less than %d", ErrCorrupt, rec.typ, rec.at.off, len(body)+8, minBody+8)
			}
			sc.sideband[rec.typ] = true
			sc.events++
		}
		if s.hasTime && s.time != 0 && s.time <= math.MaxInt64 {
			sc.start, sc.end = min(sc.start, s.time), max(sc.end, s.time)
		}
		switch rec.typ {
		case recComm:
			changes = append(changes, commChange{t: s.time, at: rec.at, tid: int32(f.order.Uint32(body[4:])), comm: cstr(body[8:])})
		case recFork:
			changes = append(changes, commChange{t: s.time, at: rec.at, tid: int32(f.order.Uint32(body[8:])), parent: int32(f.order.Uint32(body[12:])), fork: true})
			if pid, ppid := int32(f.order.Uint32(body)), int32(f.order.Uint32(body[4:])); pid != ppid {
				p := f.space.proc(pid)
				if len(p.forks) < maxIDs {
					p.forks = append(p.forks, forkAt{t: s.time, at: rec.at, parent: ppid})
				}
			}
		case recMMAP, recMMAP2:
			if rec.misc&miscMmapData == 0 {
				name := body[32:]
				if rec.typ == recMMAP2 {
					name = body[64:]
				}
				start, n := f.order.Uint64(body[8:]), f.order.Uint64(body[16:])
				if start+n >= start {
					f.space.addMap(int32(f.order.Uint32(body)), mapping{t: s.time, at: rec.at, start: start, end: start + n, pgoff: f.order.Uint64(body[24:]), name: cstr(name)})
				}
			}
		case recLost:
			sc.lost += int64(f.order.Uint64(body[8:]))
		case recLostSamples:
			sc.lostSample += int64(f.order.Uint64(body))
		}
	}
	if err := f.finishAttrs(); err != nil {
		return nil, err
	}
	f.replayComms(changes)
	f.space.sort()
	return sc, nil
}

// replayComms gives each thread its names over time: COMM records, and
// at a FORK the parent's name then (as perf copies it to the child).
func (f *file) replayComms(changes []commChange) {
	f.sortComms() // THREAD_MAP's, at time 0
	sort.SliceStable(changes, func(i, j int) bool {
		return changes[i].t < changes[j].t || changes[i].t == changes[j].t && changes[i].at.less(changes[j].at)
	})
	for _, ch := range changes {
		comm := ch.comm
		if ch.fork {
			comm = f.comm(ch.parent, ch.t, ch.at)
			if comm == "" {
				continue
			}
		}
		f.addComm(ch.tid, ch.t, ch.at, comm)
	}
}

// sidebandType reports whether records of type typ become events.
func sidebandType(typ uint32) bool {
	_, ok := sidebandMin[typ]
	return ok
}

// sidebandMin is the smallest body (after the header, before the
// trailer) of the records that become events.
var sidebandMin = map[uint32]int{
	recMMAP:          32 + 1,
	recMMAP2:         64 + 1,
	recComm:          8 + 1,
	recFork:          24,
	recExit:          24,
	recLost:          16,
	recLostSamples:   8,
	recSwitch:        0,
	recSwitchCPUWide: 8,
	recThrottle:      24,
	recUnthrottle:    24,
}

// pipeRecord handles the records that carry a pipe-mode file's header:
// HEADER_ATTR, HEADER_FEATURE, HEADER_TRACING_DATA, HEADER_BUILD_ID,
// EVENT_UPDATE. done is true for those.
func (f *file) pipeRecord(rec record, st *stream, warn func(core.Warning)) (done bool, err error) {
	body := rec.data[8:]
	switch rec.typ {
	case recHeaderAttr:
		if f.idsSet {
			return true, fmt.Errorf("%w: HEADER_ATTR at offset %d after the first event", ErrCorrupt, rec.at.off)
		}
		if len(body) < 8 {
			return true, fmt.Errorf("%w: HEADER_ATTR of %d bytes", ErrCorrupt, len(rec.data))
		}
		size := int(f.order.Uint32(body[4:]))
		if size == 0 {
			size = minAttrSize
		}
		if size > len(body) || (len(body)-size)%8 != 0 {
			return true, fmt.Errorf("%w: HEADER_ATTR at offset %d: attr size %d in %d bytes", ErrCorrupt, rec.at.off, size, len(body))
		}
		a, ok := parseAttr(body[:size], f.order)
		if !ok {
			return true, fmt.Errorf("%w: HEADER_ATTR at offset %d", ErrCorrupt, rec.at.off)
		}
		for i := size; i+8 <= len(body); i += 8 {
			a.ids = append(a.ids, f.order.Uint64(body[i:]))
		}
		return true, f.addAttr(&a)
	case recHeaderFeature:
		if len(body) < 8 {
			return true, fmt.Errorf("%w: HEADER_FEATURE of %d bytes", ErrCorrupt, len(rec.data))
		}
		bit := f.order.Uint64(body)
		if len(body) > 8 && bit < maxFeatures {
			if err := f.meta.parseFeature(int(bit), body[8:], f.order); err != nil {
				warn(core.Warning{Stream: -1, Kind: "feature", Message: fmt.Sprintf("%s: feature %d: %v", f.path, bit, err)})
			}
		}
		return true, nil
	case recHeaderTracing:
		f.meta.tracing = st.extra
		st.extra = nil
		return true, f.loadTracing()
	case recHeaderBuildID:
		c := &cursor{b: rec.data, order: f.order, what: "HEADER_BUILD_ID"}
		f.meta.parseBuildIDs(c)
		return true, nil
	case recEventUpdate:
		// u64 type (2: name), u64 id, then the name.
		if len(body) >= 16 && f.order.Uint64(body) == 2 {
			if f.meta.names == nil {
				f.meta.names = map[uint64]string{}
			}
			f.meta.names[f.order.Uint64(body[8:])] = cstr(body[16:])
		}
		return true, nil
	case recHeaderEventType, recFinishedInit:
		return true, nil
	}
	return false, nil
}

// loadTracing parses the tracing data, once.
func (f *file) loadTracing() error {
	if f.tracing != nil || f.meta.tracing == nil {
		return nil
	}
	t, err := parseTracing(f.meta.tracing)
	if err != nil {
		return err
	}
	f.tracing = t
	return nil
}
