package ctf

import (
	"errors"
	"fmt"
	"io"

	"github.com/tracetui/tracetui/core"
)

// A stream is one data file of a trace: a sequence of packets, each a
// header, a context and events. It reads packets with ReadAt into
// reusable buffers: the packet header and context into hdrBuf (kept for
// printing), the events through a window that slides over the packet and
// grows when an event does not fit.

// Window sizes: each stream reads its packets through a window of
// windowBudget / streams bytes (clamped), which grows when an event does
// not fit; headerProbe is the first read of a packet header.
const (
	windowBudget = 16 << 20
	minWindow    = 16 << 10
	maxWindow    = 256 << 10
	headerProbe  = 512
	// maxEvent bounds the bytes one event, or one packet header and
	// context, may span: the buffers grow to fit them, never further.
	maxEvent = 256 << 20
)

// packet flags.
const (
	pktHasBegin = 1 << iota
	pktHasEnd
	pktHasDiscarded
	pktHasSeq
)

// packetInfo is one entry of a stream's packet index.
type packetInfo struct {
	offset    int64  // in the file, bytes
	size      int64  // packet size, bytes
	content   int64  // content size, bits
	hdrEnd    int64  // end of the header and context, bits
	begin     uint64 // timestamp_begin, cycles
	end       uint64 // timestamp_end, cycles
	discarded uint64 // events_discarded snapshot
	seq       uint64 // packet_seq_num
	cpu       int32
	flags     uint8
	events    int64 // events in the packet, -1 until decoded
}

type stream struct {
	idx      int32
	tr       *traceInfo
	sp       *streamPlan
	path     string
	f        dataFile
	size     int64
	packets  []packetInfo
	instance uint64 // stream_instance_id, if any
	hasInst  bool

	d         dec
	win       []byte // event window buffer
	hdrBuf    []byte // header and context of the current packet
	hdrFields [1]core.Field
	pktFields []core.Field
	ev        core.Event
	// Event.Fields backing arrays, one per event class (allocated when
	// first used), with their kinds set once; classGen says which
	// packet's fields they hold.
	classFields [][]core.Field
	classGen    []uint64
	pktGen      uint64

	cur         int   // current packet, -1 before the first
	cpu         int32 // current packet's cpu_id, -1 if none
	evStart     int64 // bit offset of the head event in its packet
	clockBefore uint64
	ep          *eventPlan // class of the head event
	scopePos    [3]int64   // stream context, event context, payload starts
	pktCtxPos   int64      // packet context start, in hdrBuf
	counting    bool       // decoding the current packet from its start
	pktEvents   int64
	eof         bool
	ready       bool // head decoded by Seek, not yet in the merge
	lastTime    core.Time
	haveLast    bool  // lastTime holds the previous event's time
	window      int64 // initial window size
}

// dataFile is what a stream reads: an *os.File, or memory in tests.
type dataFile interface {
	io.ReaderAt
	io.Closer
}

// streamError locates a problem in a stream's bytes.
func (s *stream) errorf(pkt int, bitPos int64, format string, a ...any) error {
	where := s.path
	if pkt >= 0 && pkt < len(s.packets) {
		p := s.packets[pkt]
		where = fmt.Sprintf("%s: packet %d at offset %d", s.path, pkt, p.offset)
		if bitPos >= 0 {
			where += fmt.Sprintf(", byte %d", p.offset+bitPos/8)
		}
	}
	return fmt.Errorf("%s: %s", where, fmt.Sprintf(format, a...))
}

// decodeErr wraps a decoder error with the stream's location.
func (s *stream) decodeErr(pkt int, err error) error {
	var de *decodeError
	if errors.As(err, &de) {
		return s.errorf(pkt, de.pos, "%s", de.msg)
	}
	return s.errorf(pkt, -1, "%v", err)
}

// readHeader reads and decodes the header and context of the packet at
// off into hdrBuf, setting the slots, the packet fields and the clock. n is
// the packet's index (for messages).
func (s *stream) readHeader(off int64, n int, want int64) (packetInfo, error) {
	tp := s.tr.plan
	avail := s.size - off
	want = min(avail, want)
	p := packetInfo{offset: off, cpu: -1, events: -1}
	for {
		if int64(cap(s.hdrBuf)) < want {
			s.hdrBuf = make([]byte, want)
		}
		buf := s.hdrBuf[:want]
		if _, err := s.f.ReadAt(buf, off); err != nil && !(errors.Is(err, io.EOF)) {
			return p, fmt.Errorf("%s: %w", s.path, err)
		}
		d := &s.d
		d.data, d.base, d.pos = buf, 0, 0
		d.content = avail * 8
		d.limit = min(want*8, d.content)
		if int32(len(d.slots)) < tp.hdrSlots {
			d.slots = make([]uint64, tp.hdrSlots)
		}
		d.fields = s.hdrFields[:]
		err := d.run(tp.headerOps)
		if err == errRefill {
			if want >= maxEvent {
				return p, s.errorf(-1, -1, "packet %d at offset %d: the packet header is larger than %d MiB", n, off, maxEvent>>20)
			}
			want = min(avail, want*2)
			continue
		}
		if err != nil {
			return p, s.errorf(-1, -1, "packet %d at offset %d: header: %v", n, off, err)
		}
		if err := s.checkHeader(off, n); err != nil {
			return p, err
		}
		s.pktCtxPos = d.pos
		sp := s.sp
		d.fields = s.pktFields
		err = d.run(sp.pktCtxOps)
		if err == errRefill {
			if want >= maxEvent {
				return p, s.errorf(-1, -1, "packet %d at offset %d: the packet context is larger than %d MiB", n, off, maxEvent>>20)
			}
			want = min(avail, want*2)
			continue
		}
		if err != nil {
			return p, s.errorf(-1, -1, "packet %d at offset %d: context: %v", n, off, err)
		}
		p.hdrEnd = d.pos
		break
	}
	sp, d := s.sp, &s.d
	// Sizes: packet_size and content_size in bits; without them the
	// packet is the rest of the file.
	size, content := uint64(avail)*8, uint64(0)
	hasSize, hasContent := sp.packetSize != nil, sp.contentSize != nil
	if hasSize {
		size = d.slots[sp.packetSize.slot]
	}
	if hasContent {
		content = d.slots[sp.contentSize.slot]
		if !hasSize {
			size = (content + 7) &^ 7
		}
	} else {
		content = size
	}
	switch {
	case size%8 != 0:
		return p, s.errorf(-1, -1, "packet %d at offset %d: packet size %d bits is not a whole number of bytes", n, off, size)
	case size == 0:
		return p, s.errorf(-1, -1, "packet %d at offset %d: packet size is 0", n, off)
	case size/8 > uint64(avail):
		return p, s.errorf(-1, -1, "packet %d at offset %d: packet size %d bytes goes past the end of the file (%d bytes left)", n, off, size/8, avail)
	case content > size:
		return p, s.errorf(-1, -1, "packet %d at offset %d: content size %d bits is larger than the packet size %d bits", n, off, content, size)
	case content < uint64(p.hdrEnd):
		return p, s.errorf(-1, -1, "packet %d at offset %d: content size %d bits is smaller than the packet header and context (%d bits)", n, off, content, p.hdrEnd)
	}
	p.size, p.content = int64(size/8), int64(content)
	if sp.tsBegin != nil {
		p.begin, p.flags = d.slots[sp.tsBegin.slot], p.flags|pktHasBegin
	}
	if sp.tsEnd != nil {
		p.end, p.flags = d.slots[sp.tsEnd.slot], p.flags|pktHasEnd
	}
	if sp.discarded != nil {
		p.discarded, p.flags = d.slots[sp.discarded.slot], p.flags|pktHasDiscarded
	}
	if sp.seqNum != nil {
		p.seq, p.flags = d.slots[sp.seqNum.slot], p.flags|pktHasSeq
	}
	if sp.cpuID != nil {
		p.cpu = int32(d.slots[sp.cpuID.slot])
	}
	return p, nil
}

// checkHeader checks the decoded packet header (magic, uuid) and selects
// the stream class.
func (s *stream) checkHeader(off int64, n int) error {
	tp, d := s.tr.plan, &s.d
	if tp.magic != nil {
		if m := d.slots[tp.magic.slot]; m != 0xC1FC1FC1 {
			return s.errorf(-1, -1, "packet %d at offset %d: bad magic number 0x%X (want 0xC1FC1FC1)", n, off, m)
		}
	}
	// The packet's trace uuid is not checked against the metadata's:
	// babeltrace2 does not either, and reads such traces.
	var sp *streamPlan
	if tp.streamID != nil {
		id := d.slots[tp.streamID.slot]
		for _, c := range tp.streams {
			if c.meta.ID == id {
				sp = c
			}
		}
		if sp == nil {
			return s.errorf(-1, -1, "packet %d at offset %d: unknown stream id %d", n, off, id)
		}
	} else {
		if len(tp.streams) == 0 {
			return s.errorf(-1, -1, "the metadata declares no stream")
		}
		sp = tp.streams[0]
	}
	if s.sp != nil && s.sp != sp {
		return s.errorf(-1, -1, "packet %d at offset %d: stream id %d differs from the previous packets' (%d)", n, off, sp.meta.ID, s.sp.meta.ID)
	}
	if tp.instance != nil {
		s.instance, s.hasInst = d.slots[tp.instance.slot], true
	}
	if s.sp == nil {
		s.sp = sp
		slots := make([]uint64, sp.nslots)
		copy(slots, d.slots)
		d.slots = slots
		s.pktFields = make([]core.Field, sp.nPktFields)
		for i, k := range sp.pktKinds {
			s.pktFields[i].Kind = k
		}
		s.classFields = make([][]core.Field, len(sp.events))
		s.classGen = make([]uint64, len(sp.events))
		s.ev.Stream = s.idx
	}
	return nil
}

// scan builds the packet index of the stream.
func (s *stream) scan() error {
	for off := int64(0); off < s.size; {
		p, err := s.readHeader(off, len(s.packets), headerProbe)
		if err != nil {
			return err
		}
		s.packets = append(s.packets, p)
		off += p.size
	}
	s.cur = -1
	return nil
}

// loadPacket makes packet i current: header and context decoded, the
// window loaded from the first event.
func (s *stream) loadPacket(i int) error {
	p := &s.packets[i]
	if _, err := s.readHeader(p.offset, i, p.hdrEnd/8+1); err != nil {
		return err
	}
	s.cur, s.cpu = i, p.cpu
	s.pktGen++
	return s.fill(p.hdrEnd, false)
}

// fill loads the window of the current packet from bit position from
// (rounded down to a byte). grow doubles the window first.
func (s *stream) fill(from int64, grow bool) error {
	p := &s.packets[s.cur]
	start := from / 8
	left := (p.content+7)/8 - start
	size := int64(cap(s.win))
	if size == 0 {
		size = s.window
	}
	if grow {
		size = min(size*2, maxEvent)
	}
	size = min(size, max(left, 0))
	if int64(cap(s.win)) < size {
		s.win = make([]byte, size)
	}
	buf := s.win[:size]
	if size > 0 {
		if _, err := s.f.ReadAt(buf, p.offset+start); err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("%s: %w", s.path, err)
		}
	}
	d := &s.d
	d.data, d.base, d.pos = buf, start*8, from
	d.content = p.content
	d.limit = min(d.base+size*8, d.content)
	return nil
}

// next decodes the stream's next event into s.ev, or sets s.eof.
func (s *stream) next() error {
	d := &s.d
	for {
		if s.cur < 0 || d.pos >= d.content {
			if s.cur >= 0 && s.counting {
				s.packets[s.cur].events = s.pktEvents
			}
			if s.cur+1 >= len(s.packets) {
				s.eof = true
				return nil
			}
			if err := s.loadPacket(s.cur + 1); err != nil {
				return err
			}
			s.counting, s.pktEvents = true, 0
			continue
		}
		s.evStart, s.clockBefore = d.pos, d.clock
		err := s.decodeEvent()
		if err == errRefill {
			// Reload from the event start (growing the window when it
			// already started there) and decode it again.
			grow := d.base == (s.evStart/8)*8
			if grow && len(d.data) >= maxEvent {
				return s.errorf(s.cur, s.evStart, "an event larger than %d MiB", maxEvent>>20)
			}
			if err := s.fill(s.evStart, grow); err != nil {
				return err
			}
			d.clock = s.clockBefore
			continue
		}
		if err != nil {
			return s.decodeErr(s.cur, err)
		}
		s.pktEvents++
		return nil
	}
}

// decodeEvent decodes the event at the current position.
func (s *stream) decodeEvent() error {
	d, sp := &s.d, s.sp
	d.haveID = false
	d.fields = s.hdrFields[:]
	if err := d.run(sp.headerOps); err != nil {
		return err
	}
	stamp := d.clock
	var ep *eventPlan
	switch {
	case d.haveID:
		ep = sp.event(d.evID)
	case len(sp.events) == 1:
		ep = sp.events[0]
	default:
		ep = sp.event(0)
	}
	if ep == nil {
		return d.fail(s.evStart, "unknown event id %d in %s", d.evID, sp.describe())
	}
	if !ep.ready {
		if err := sp.prepare(ep); err != nil {
			return d.fail(s.evStart, "event class %q: %v", ep.meta.Name, err)
		}
	}
	if n := int(ep.nslots); n > len(d.slots) {
		d.slots = append(d.slots, make([]uint64, n-len(d.slots))...)
	}
	fields := s.classFields[ep.idx]
	if fields == nil {
		fields = make([]core.Field, ep.nfields)
		for i, k := range ep.kinds {
			fields[i].Kind = k
		}
		s.classFields[ep.idx] = fields
		s.classGen[ep.idx] = s.pktGen - 1
	}
	if s.classGen[ep.idx] != s.pktGen {
		copy(fields, s.pktFields)
		s.classGen[ep.idx] = s.pktGen
	}
	d.fields = fields
	s.scopePos[0] = d.pos
	if len(sp.streamCtxOps) > 0 {
		if err := d.run(sp.streamCtxOps); err != nil {
			return err
		}
	}
	s.scopePos[1] = d.pos
	if len(ep.ctxOps) > 0 {
		if err := d.run(ep.ctxOps); err != nil {
			return err
		}
	}
	s.scopePos[2] = d.pos
	if len(ep.payloadOps) > 0 {
		if err := d.run(ep.payloadOps); err != nil {
			return err
		}
	}
	if d.pos == s.evStart {
		return d.fail(s.evStart, "event of length 0 (id %d)", ep.meta.ID)
	}
	// Alignment alone (an empty field aligned past the end) reads no bits
	// but still places the event's end past the content: the event is
	// not whole in its packet.
	if d.pos > d.content {
		return d.fail(s.evStart, "event %q ends at bit %d, past the end of the packet content (%d bits)", ep.meta.Name, d.pos, d.content)
	}
	s.ep = ep
	ev := &s.ev
	ev.Class = ep.class
	ev.Fields = fields
	ev.CPU = s.cpu
	if ep.perfCPU >= 0 {
		ev.CPU = int32(ev.Fields[ep.perfCPU].Int)
	}
	ev.Time = 0
	if sp.clock != nil {
		t, ok := sp.conv.ns(stamp)
		if !ok {
			return d.fail(s.evStart, "timestamp %d cycles of clock %q overflows the nanosecond range", stamp, sp.clock.Name)
		}
		// Time never goes back in a stream (babeltrace2 stops there too):
		// the merge's order relies on it.
		if s.haveLast && t < s.lastTime {
			return d.fail(s.evStart, "event time %s is before the previous event's (%s)", core.FormatTimestamp(t), core.FormatTimestamp(s.lastTime))
		}
		ev.Time, s.lastTime, s.haveLast = t, t, true
	}
	return nil
}
