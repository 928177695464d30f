package perfdata

import (
	"bufio"
	"errors"
	"io"
	"strconv"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ftracefmt"
)

// Report writes the samples of s as `perf script` prints them by default
// (perf 6.1), one line per sample:
//
//	<comm %16s> <tid %5d> [<cpu %03d>] <sec.usec %12s>: <event %*s>: <body>
//
// the CPU only when samples record it, the event name right-aligned to
// the longest event name of the file; a tracepoint's body is its print
// format's rendering; other samples print their period before the event
// name and then their IP as " %16x sym+off (dso)" or, with call chains,
// the comm unpadded and one "\t%16x sym+off (dso)" line per frame and an
// empty line (tracepoints recorded with call chains print them so too,
// after their body). Side-band records (COMM, MMAP...) are not printed, as perf
// script does not by default. It stops after limit samples when limit > 0
// and returns the time of the last event printed and whether every event
// was.
func (s *Source) Report(w io.Writer, limit int64) (last core.Time, all bool, err error) {
	bw := bufio.NewWriterSize(w, 256<<10)
	line := make([]byte, 0, 4096)
	// The text is made from the records: the events' payload fields are
	// not decoded.
	s.noFields = true
	defer func() { s.noFields = false }()
	for n := int64(0); limit <= 0 || n < limit; {
		ev, err := s.Next()
		if errors.Is(err, io.EOF) {
			all = true
			break
		}
		if err != nil {
			bw.Flush()
			return last, false, err
		}
		last = ev.Time
		if s.cur.typ != recSample {
			continue
		}
		n++
		line = s.AppendLine(line[:0])
		if _, err := bw.Write(line); err != nil {
			return last, false, err
		}
	}
	return last, all, bw.Flush()
}

// AppendLine appends the `perf script` text of the sample last returned
// by Next, its newline included (nothing for other records).
func (s *Source) AppendLine(dst []byte) []byte {
	if s.cur.typ != recSample {
		return dst
	}
	sm := &s.curS
	a := sm.attr
	tracepoint := s.curCl.format != nil
	chain := sm.hasCallchain && (tracepoint || sm.hasIP)
	comm := s.f.comm(sm.tid, s.curTime(), s.cur.at)
	if comm == "" {
		if sm.tid == 0 {
			comm = "swapper"
		} else {
			comm = ":" + strconv.Itoa(int(sm.tid))
		}
	}
	if chain {
		dst = append(dst, comm...)
		dst = append(dst, ' ')
	} else {
		dst = padLeft(dst, comm, 16)
		dst = append(dst, ' ')
	}
	if sm.hasTID {
		dst = padLeftNum(dst, int64(sm.tid), 5)
		dst = append(dst, ' ')
	}
	if sm.hasCPU {
		dst = append(dst, '[')
		c := strconv.Itoa(int(sm.cpu))
		for i := len(c); i < 3; i++ {
			dst = append(dst, '0')
		}
		dst = append(dst, c...)
		dst = append(dst, "] "...)
	}
	if sm.hasTime {
		var tb [32]byte
		t := strconv.AppendUint(tb[:0], sm.time/1e9, 10)
		t = append(t, '.')
		var ub [8]byte
		us := strconv.AppendUint(ub[:0], sm.time%1e9/1e3, 10)
		for i := len(us); i < 6; i++ {
			t = append(t, '0')
		}
		t = append(t, us...)
		dst = padLeftBytes(dst, t, 12)
		dst = append(dst, ": "...)
	}
	if !tracepoint && sm.hasPeriod {
		dst = padLeftNum(dst, int64(sm.period), 10)
		dst = append(dst, ' ')
	}
	dst = padLeft(dst, a.name, s.nameWidth())
	dst = append(dst, ": "...)
	if tracepoint {
		dst = s.appendTracepoint(dst)
		dst = append(dst, '\n')
		if chain {
			dst = s.appendCallchain(dst)
			dst = append(dst, '\n')
		}
		return dst
	}
	if !sm.hasIP {
		return append(dst, '\n')
	}
	if !chain {
		dst = append(dst, ' ')
		dst = s.appendFrame(dst, sm.ip, s.cur.misc&miscCPUModeMask)
		return append(dst, '\n')
	}
	dst = append(dst, '\n')
	dst = s.appendCallchain(dst)
	return append(dst, '\n')
}

// nameWidth is the longest event name of the file, to which perf script
// right-aligns them.
func (s *Source) nameWidth() int {
	if s.width == 0 {
		for _, a := range s.f.attrs {
			s.width = max(s.width, len(a.name))
		}
	}
	return s.width
}

// appendTracepoint appends a tracepoint sample's print format rendering.
func (s *Source) appendTracepoint(dst []byte) []byte {
	r := &ftracefmt.Record{Order: s.f.tracing.order, Data: s.curS.raw}
	return s.printer.AppendPrint(dst, s.curCl.format, r)
}

// appendBody is AppendContents: a tracepoint's print format rendering,
// or a sample's IP and symbol, or a side-band record's fields.
func (s *Source) appendBody(dst []byte) []byte {
	if s.cur.typ == recSample {
		if s.curCl.format != nil {
			return s.appendTracepoint(dst)
		}
		if s.curS.hasIP {
			return s.appendFrame(dst, s.curS.ip, s.cur.misc&miscCPUModeMask)
		}
		return dst
	}
	cl := s.curCl
	for i, name := range cl.class.Fields[core.NumThreadContext:] {
		f := s.ev.Fields[core.NumThreadContext+i]
		if f.Kind == core.FieldNone {
			continue
		}
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, name...)
		dst = append(dst, '=')
		dst = f.AppendText(dst)
	}
	return dst
}

func padLeft(dst []byte, v string, width int) []byte {
	for i := len(v); i < width; i++ {
		dst = append(dst, ' ')
	}
	return append(dst, v...)
}

func padLeftBytes(dst, v []byte, width int) []byte {
	for i := len(v); i < width; i++ {
		dst = append(dst, ' ')
	}
	return append(dst, v...)
}

func padLeftNum(dst []byte, v int64, width int) []byte {
	var b [24]byte
	return padLeftBytes(dst, strconv.AppendInt(b[:0], v, 10), width)
}
