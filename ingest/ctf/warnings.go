package ctf

import (
	"fmt"

	"github.com/tracetui/tracetui/core"
)

// discardWarnings derives, from the packet index, the discarded-events
// and discarded-packets reports babeltrace2 prints: one per packet whose
// events_discarded counter grew (or is non-zero in the first packet), and
// one per gap in packet_seq_num.
func (r *Reader) discardWarnings() []core.Warning {
	var out []core.Warning
	for _, s := range r.streams {
		sp := s.sp
		if sp == nil {
			continue
		}
		withTimes := sp.clock != nil && sp.tsBegin != nil && sp.tsEnd != nil
		for i, p := range s.packets {
			if p.flags&pktHasDiscarded != 0 {
				var count uint64
				var from, to uint64
				switch {
				case i == 0 && p.discarded != 0:
					count, from, to = p.discarded, p.begin, p.end
				case i > 0 && p.discarded != s.packets[i-1].discarded:
					// The counter is a snapshot that may wrap at its size.
					count, from, to = (p.discarded-s.packets[i-1].discarded)&sizeMask(sp.discarded.size), s.packets[i-1].end, p.end
				}
				if count != 0 {
					out = append(out, r.discardWarning(s, "discarded", "events", count, from, to, withTimes))
				}
			}
			if p.flags&pktHasSeq != 0 && i > 0 {
				prev := s.packets[i-1].seq
				if p.seq != prev+1 && p.seq > prev {
					out = append(out, r.discardWarning(s, "discarded-packets", "packets", p.seq-prev-1, s.packets[i-1].end, p.begin, withTimes))
				}
			}
		}
	}
	return out
}

func (r *Reader) discardWarning(s *stream, kind, what string, count, from, to uint64, withTimes bool) core.Warning {
	w := core.Warning{Stream: s.idx, Count: int64(count), Kind: kind}
	msg := fmt.Sprintf("WARNING: Tracer discarded %d %s", count, what)
	if withTimes {
		t0, _ := s.sp.conv.ns(from)
		t1, _ := s.sp.conv.ns(to)
		w.Time = t0
		msg += " between [" + core.FormatTimestamp(t0) + "] and [" + core.FormatTimestamp(t1) + "]"
	}
	name := s.tr.name
	if name == "" {
		name = "(unknown)"
	}
	msg += " in trace \"" + name + "\" "
	switch {
	case s.tr.plan.meta.IsCTF2() && s.tr.plan.meta.HasUID:
		// babeltrace2 2.1 (the only one reading CTF 2) names the trace
		// class's uid.
		msg += "(UID: " + s.tr.plan.meta.UID + ") "
	case s.tr.plan.meta.IsCTF2():
		msg += "(no UID) "
	case s.tr.uuid != "":
		msg += "(UUID: " + s.tr.uuid + ") "
	default:
		msg += "(no UUID) "
	}
	msg += fmt.Sprintf("within stream \"%s\" (stream class ID: %d, ", s.path, s.sp.meta.ID)
	msg += fmt.Sprintf("stream ID: %d).", r.streamID(s))
	w.Message = msg
	return w
}

// streamID is the stream id babeltrace2 reports: the stream_instance_id
// when the packet header has one, else the stream's rank among the
// trace's streams without one.
func (r *Reader) streamID(s *stream) uint64 {
	if s.hasInst {
		return s.instance
	}
	var n uint64
	for _, o := range r.streams {
		if o == s {
			break
		}
		if o.tr == s.tr && !o.hasInst {
			n++
		}
	}
	return n
}

// sizeMask is the mask of the low size bits.
func sizeMask(size int) uint64 {
	if size >= 64 {
		return ^uint64(0)
	}
	return 1<<size - 1
}
