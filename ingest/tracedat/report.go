package tracedat

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ftracefmt"
)

// Report writes the events of s as `trace-cmd report` prints them: a
// "cpus=N" line, then one line per event,
//
//	<comm>-<pid> [<cpu>] <sec>.<usec>: <event>: <body>
//
// preceded by the buffer instance's name when the file has several
// (all merged by time, as trace-cmd 3 prints them),
// with the body from the event's print format, or from libtraceevent's
// plugins for sched_switch, sched_wakeup(_new) and the hrtimer events.
// It stops after limit events when limit > 0, and returns the time of the
// last event printed and whether every event was.
func (s *Source) Report(w io.Writer, limit int64) (last core.Time, all bool, err error) {
	bw := bufio.NewWriterSize(w, 256<<10)
	bw.WriteString("cpus=" + strconv.Itoa(s.f.cpuCount) + "\n")
	line := make([]byte, 0, 1024)
	width := bufferNameWidth(s.f.buffers)
	for n := int64(0); limit <= 0 || n < limit; n++ {
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
		line = line[:0]
		if c := s.cur; c.recLost {
			// trace-cmd's line for a page that follows lost events.
			line = strconv.AppendInt(append(line, "CPU:"...), int64(c.cpu.cpu), 10)
			if c.recLostN >= 0 {
				line = strconv.AppendInt(append(line, " ["...), c.recLostN, 10)
				line = append(line, " EVENTS DROPPED]\n"...)
			} else {
				line = append(line, " [EVENTS DROPPED]\n"...)
			}
		}
		if width >= 0 {
			line = appendBufferPrefix(line, s.cur.buf.name, width)
		}
		line = s.AppendLine(line, int64(ev.Time))
		line = append(line, '\n')
		s.learnComms(ev)
		if _, err := bw.Write(line); err != nil {
			return last, false, err
		}
	}
	return last, all, bw.Flush()
}

// bufferNameWidth is the width trace-cmd gives the buffer names that
// start each line of a file with several buffer instances (the longest
// name), or -1 for a file with the top buffer only, whose lines have none.
func bufferNameWidth(bufs []buffer) int {
	if len(bufs) < 2 {
		return -1
	}
	w := 0
	for _, b := range bufs {
		w = max(w, len(b.name))
	}
	return w
}

// appendBufferPrefix appends what trace-cmd prints before an event of the
// named buffer when there are several: the name right-aligned to width
// and ": ", or as many spaces for the top buffer (no name).
func appendBufferPrefix(dst []byte, name string, width int) []byte {
	if name == "" {
		return appendRepeat(dst, ' ', width+2)
	}
	dst = padLeft(dst, []byte(name), width)
	return append(dst, ": "...)
}

// AppendLine appends the report line of the event last returned by Next,
// whose time is t, without its newline.
func (s *Source) AppendLine(dst []byte, t int64) []byte {
	data, cl := s.record()
	if cl == nil {
		return dst
	}
	r := &ftracefmt.Record{Order: s.f.order, Data: data}
	pid := int64(0)
	if fd := cl.format.Field("common_pid"); fd != nil {
		pid, _ = r.Int(fd, 0)
	}
	dst = padLeft(dst, s.comm(int32(pid)), 16)
	dst = append(dst, '-')
	n := len(dst)
	dst = strconv.AppendInt(dst, pid, 10)
	for len(dst)-n < 5 {
		dst = append(dst, ' ')
	}
	dst = append(dst, " ["...)
	cpu := int64(s.cur.cpu.cpu)
	if cpu < 100 {
		dst = append(dst, '0')
	}
	if cpu < 10 {
		dst = append(dst, '0')
	}
	dst = strconv.AppendInt(dst, cpu, 10)
	dst = append(dst, "] "...)
	us := (t + 500) / 1000 // libtraceevent rounds to the microsecond
	dst = padLeft(dst, strconv.AppendInt(s.num[:0], us/1e6, 10), 5)
	dst = append(dst, '.')
	frac := strconv.AppendInt(s.num[:0], us%1e6, 10)
	dst = appendRepeat(dst, '0', 6-len(frac))
	dst = append(dst, frac...)
	dst = append(dst, ": "...)
	n = len(dst)
	dst = append(dst, cl.format.Name...)
	dst = append(dst, ':')
	for len(dst)-n < 21 {
		dst = append(dst, ' ')
	}
	dst = append(dst, ' ')
	return s.appendBody(dst, cl.format, data)
}

// comm is the task name of a pid as trace-cmd shows it.
func (s *Source) comm(pid int32) []byte {
	if pid == 0 {
		return idleComm
	}
	if c, ok := s.comms[pid]; ok {
		return c
	}
	return unknownComm
}

var unknownComm = []byte("<...>")

func padLeft(dst, b []byte, width int) []byte {
	for i := len(b); i < width; i++ {
		dst = append(dst, ' ')
	}
	return append(dst, b...)
}

// appendBody appends an event's body as trace-cmd prints it.
func (s *Source) appendBody(dst []byte, ef *ftracefmt.Format, data []byte) []byte {
	return s.printer.AppendBody(dst, ef, &ftracefmt.Record{Order: s.f.order, Data: data})
}

func appendRepeat(dst []byte, c byte, n int) []byte {
	for ; n > 0; n-- {
		dst = append(dst, c)
	}
	return dst
}

// commFields are the (comm, pid) field pairs of the events whose printing
// teaches libtraceevent a task's name (its sched_switch and sched_wakeup
// plugins register the comms they print for pids the saved cmdlines do
// not name): trace-cmd report names such a task from that event on.
var commFields = map[string][][2]string{
	"sched_switch":     {{"prev_comm", "prev_pid"}, {"next_comm", "next_pid"}},
	"sched_wakeup":     {{"comm", "pid"}},
	"sched_wakeup_new": {{"comm", "pid"}},
}

// learnComms does what those plugins do after ev is printed: it names
// the pids ev shows that no cmdline names yet.
func (s *Source) learnComms(ev *core.Event) {
	pairs, ok := commFields[ev.Class.Name]
	if !ok {
		return
	}
	for _, p := range pairs {
		c, id := ev.Field(ev.Class.FieldIndex(p[0])), ev.Field(ev.Class.FieldIndex(p[1]))
		pid, ok := id.AsInt()
		if !ok || c.Kind != core.FieldString || pid <= 0 {
			continue
		}
		if _, known := s.comms[int32(pid)]; !known {
			if s.comms == nil {
				s.comms = map[int32][]byte{}
			}
			s.comms[int32(pid)] = bytes.Clone(c.Bytes)
		}
	}
}
