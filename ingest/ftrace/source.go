package ftrace

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
)

// Options tunes [Open]. There is nothing to tune yet; the type keeps the
// readers' Open signatures alike.
type Options struct{}

const (
	maxLine      = 64 << 10 // longer lines are skipped with a warning
	maxClasses   = 1 << 16
	maxFields    = 64 // fields per generic class
	maxWarnings  = 100
	readBufBytes = 256 << 10
)

// ErrBadCheckpoint is wrapped by Seek errors for checkpoints this trace
// did not produce.
var ErrBadCheckpoint = errors.New("bad checkpoint")

// classInfo is an event class with its field lookup.
type classInfo struct {
	class core.EventClass
	index map[string]int // field name -> index
	types []fieldType    // by index
}

// Source reads an ftrace text capture as a [core.Source]. It implements
// core.Source.
type Source struct {
	path     string
	f        *os.File
	r        *bufio.Reader
	size     int64
	off      int64 // offset of the next line
	lineNo   int64 // number of the next line (1-based)
	last     int64 // time of the last event delivered
	classes  []*classInfo
	byName   map[string]int
	start    int64
	end      int64
	events   int64
	cpus     int
	layout   uint32
	scanned  bool // the first pass is over
	warnings []core.Warning
	dropped  int64

	ln     line
	kvs    []kv
	nameB  []byte
	ev     core.Event
	fields []core.Field
	cur    *classInfo
	lineB  []byte // the current line (copied when it crossed the buffer)
}

var _ core.Source = (*Source)(nil)

// Open scans the capture once (to learn its event classes, time range and
// bad lines) and returns a Source positioned before the first event.
func Open(path string, _ Options) (*Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	s := &Source{path: path, f: f, size: st.Size(), byName: map[string]int{}, r: bufio.NewReaderSize(f, readBufBytes)}
	if err := s.scan(); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if s.events == 0 && len(s.warnings) > 0 {
		f.Close()
		return nil, fmt.Errorf("%s: no ftrace event line (first problem: %s)", path, s.warnings[0].Message)
	}
	if err := s.Seek(s.checkpointAt(0, 1, 0)); err != nil {
		f.Close()
		return nil, err
	}
	return s, nil
}

// scan is the first pass: classes, bounds, warnings.
func (s *Source) scan() error {
	first := true
	cpus := map[int32]bool{}
	for {
		b, off, err := s.readLine()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if s.skipLine(b, off) {
			continue
		}
		if err := parseLine(b, &s.ln); err != nil {
			s.warn(core.Warning{Kind: "skipped-line", Stream: -1,
				Message: fmt.Sprintf("line %d (offset %d): not an ftrace event line, skipped: %q", s.lineNo-1, off, clip(b))})
			continue
		}
		ci := s.classOf(&s.ln)
		if ci == nil {
			continue
		}
		s.noteFields(ci)
		t := s.ln.ts
		if first {
			s.start, s.end, first = t, t, false
		}
		if t < s.end {
			s.warn(core.Warning{Time: core.Time(t), Kind: "time-order", Stream: -1,
				Message: fmt.Sprintf("line %d: time %s goes back from %s; the event is delivered at the later time",
					s.lineNo-1, core.FormatTimestamp(core.Time(t)), core.FormatTimestamp(core.Time(s.end)))})
		}
		s.end = max(s.end, t)
		cpus[s.ln.cpu] = true
		s.events++
	}
	s.cpus = len(cpus)
	if s.dropped > 0 {
		s.warnings = append(s.warnings, core.Warning{Stream: -1, Count: s.dropped, Kind: "more-warnings",
			Message: fmt.Sprintf("%d more warnings not listed", s.dropped)})
	}
	var h []byte
	h = binary.AppendVarint(h, s.size)
	h = binary.AppendVarint(h, s.events)
	h = binary.AppendVarint(h, int64(len(s.classes)))
	s.layout = crc32.ChecksumIEEE(h)
	s.scanned = true
	return nil
}

func clip(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "..."
	}
	return string(b)
}

// skipLine reports header, comment and empty lines, noting lost events.
func (s *Source) skipLine(b []byte, off int64) bool {
	t := bytes.TrimSpace(b)
	switch {
	case len(t) == 0, t[0] == '#':
		return true
	case bytes.HasPrefix(t, []byte("cpus=")), bytes.HasPrefix(t, []byte("version = ")),
		bytes.HasPrefix(t, []byte("CPU ")) && bytes.HasSuffix(t, []byte("is empty")),
		bytes.HasPrefix(t, []byte("trace-cmd: ")):
		return true
	case bytes.HasPrefix(t, []byte("CPU:")) && bytes.Contains(t, []byte("[LOST ")):
		// trace-cmd report: "CPU:2 [LOST 1234 EVENTS]"
		if s.scanning() {
			n := int64(0)
			if f := bytes.Fields(t); len(f) >= 3 {
				n, _ = strconv.ParseInt(string(f[2]), 10, 64)
			}
			s.warn(core.Warning{Kind: "discarded", Count: n, Stream: -1,
				Message: fmt.Sprintf("line %d (offset %d): %s", s.lineNo-1, off, t)})
		}
		return true
	}
	return false
}

// scanning reports whether the first pass is running (warnings are
// collected there only, so Seek never repeats them).
func (s *Source) scanning() bool { return !s.scanned }

func (s *Source) warn(w core.Warning) {
	if !s.scanning() {
		return
	}
	if len(s.warnings) >= maxWarnings {
		s.dropped++
		return
	}
	s.warnings = append(s.warnings, w)
}

// readLine returns the next line without its newline, and its offset.
// Lines longer than maxLine are skipped with a warning.
func (s *Source) readLine() ([]byte, int64, error) {
	for {
		off := s.off
		b, err := s.r.ReadSlice('\n')
		s.off += int64(len(b))
		if err == bufio.ErrBufferFull {
			for err == bufio.ErrBufferFull {
				var more []byte
				more, err = s.r.ReadSlice('\n')
				s.off += int64(len(more))
			}
			s.lineNo++
			s.warn(core.Warning{Kind: "skipped-line", Stream: -1,
				Message: fmt.Sprintf("line %d (offset %d): longer than %d bytes, skipped", s.lineNo-1, off, readBufBytes)})
			if err != nil && err != io.EOF {
				return nil, off, err
			}
			continue
		}
		if err != nil && err != io.EOF {
			return nil, off, err
		}
		if len(b) == 0 && err == io.EOF {
			return nil, off, io.EOF
		}
		s.lineNo++
		b = bytes.TrimSuffix(b, []byte("\n"))
		b = bytes.TrimSuffix(b, []byte("\r"))
		return b, off, nil
	}
}

// classOf returns the class of a parsed line, creating it during the
// first pass.
func (s *Source) classOf(l *line) *classInfo {
	s.nameB = className(s.nameB[:0], l)
	if id, ok := s.byName[string(s.nameB)]; ok {
		return s.classes[id]
	}
	if !s.scanning() || len(s.classes) >= maxClasses {
		return nil
	}
	name := string(s.nameB)
	ci := &classInfo{index: map[string]int{}}
	ci.class = core.EventClass{ID: len(s.classes), Name: name, Fields: append([]string(nil), contextFields...)}
	ci.types = make([]fieldType, numContext)
	if specs, ok := schemas[name]; ok {
		for _, sp := range specs {
			ci.addField(sp.name, sp.typ)
		}
	}
	s.byName[name] = len(s.classes)
	s.classes = append(s.classes, ci)
	return ci
}

func (ci *classInfo) addField(name string, typ fieldType) {
	ci.index[name] = len(ci.class.Fields)
	ci.class.Fields = append(ci.class.Fields, name)
	ci.types = append(ci.types, typ)
}

// noteFields adds, during the first pass, the fields of a generic event
// not seen before.
func (s *Source) noteFields(ci *classInfo) {
	if _, fixed := schemas[ci.class.Name]; fixed {
		return
	}
	s.kvs = parseBody(s.kvs[:0], s.nameB, &s.ln)
	for _, p := range s.kvs {
		if _, ok := ci.index[string(p.key)]; ok || len(ci.class.Fields) >= numContext+maxFields {
			continue
		}
		typ := typeAuto
		if strings.HasPrefix(ci.class.Name, "sys_enter_") || strings.HasPrefix(ci.class.Name, "sys_exit_") {
			typ = typeHex
		}
		ci.addField(string(p.key), typ)
	}
}

// Info implements core.Source.
func (s *Source) Info() core.SourceInfo {
	return core.SourceInfo{Format: "ftrace", Path: s.path, Domain: "kernel", Streams: s.cpus, Bytes: s.size,
		Start: core.Time(s.start), End: core.Time(s.end)}
}

// Events returns the number of events in the trace.
func (s *Source) Events() int64 { return s.events }

// Next implements core.Source.
func (s *Source) Next() (*core.Event, error) {
	for {
		b, _, err := s.readLine()
		if err != nil {
			if err != io.EOF {
				err = fmt.Errorf("%s: %w", s.path, err)
			}
			return nil, err
		}
		if s.skipLine(b, 0) || parseLine(b, &s.ln) != nil {
			continue
		}
		ci := s.classOf(&s.ln)
		if ci == nil {
			continue
		}
		s.fillEvent(ci)
		return &s.ev, nil
	}
}

func (s *Source) fillEvent(ci *classInfo) {
	l := &s.ln
	t := max(l.ts, s.last)
	s.last = t
	s.ev.Time, s.ev.CPU, s.ev.Stream, s.ev.Class = core.Time(t), l.cpu, l.cpu, &ci.class
	n := len(ci.class.Fields)
	if cap(s.fields) < n {
		s.fields = make([]core.Field, n)
	}
	f := s.fields[:n]
	clear(f)
	f[ctxTid] = core.Field{Kind: core.FieldInt, Int: l.tid}
	if l.hasTgid {
		f[ctxPid] = core.Field{Kind: core.FieldInt, Int: l.tgid}
	}
	f[ctxComm] = core.Field{Kind: core.FieldString, Bytes: l.comm}
	s.kvs = parseBody(s.kvs[:0], s.nameB, l)
	for _, p := range s.kvs {
		if i, ok := ci.index[string(p.key)]; ok {
			f[i] = toField(p.val, ci.types[i])
		}
	}
	s.ev.Fields = f
	s.cur = ci
}

// AppendContents implements core.Source: the payload fields,
// babeltrace-style ({ prev_comm = "bash", prev_pid = 1234, ... }).
func (s *Source) AppendContents(dst []byte, ev *core.Event) []byte {
	dst = append(dst, '{')
	first := true
	for i := numContext; i < len(ev.Fields); i++ {
		f := ev.Fields[i]
		if f.Kind == core.FieldNone {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, ' ')
		dst = append(dst, ev.Class.Fields[i]...)
		dst = append(dst, " = "...)
		if f.Kind == core.FieldString {
			dst = strconv.AppendQuote(dst, string(f.Bytes))
		} else {
			dst = f.AppendText(dst)
		}
	}
	if first {
		return append(dst, '}')
	}
	return append(dst, " }"...)
}

// Checkpoint encoding: "ft", version 1, offset, line number, last time
// delivered, CRC-32 over them and the trace's layout.
const cpVersion = 1

// Checkpoint implements core.Source.
func (s *Source) Checkpoint(dst []byte) []byte {
	return append(dst, s.checkpointAt(s.off, s.lineNo, s.last)...)
}

func (s *Source) checkpointAt(off, lineNo, last int64) []byte {
	b := []byte{'f', 't', cpVersion}
	b = binary.AppendUvarint(b, uint64(off))
	b = binary.AppendUvarint(b, uint64(lineNo))
	b = binary.AppendVarint(b, last)
	return binary.LittleEndian.AppendUint32(b, crc32.Update(s.layout, crc32.IEEETable, b))
}

// Seek implements core.Source.
func (s *Source) Seek(cp []byte) error {
	if len(cp) < 7 || cp[0] != 'f' || cp[1] != 't' || cp[2] != cpVersion {
		return fmt.Errorf("%w: not an ftrace checkpoint", ErrBadCheckpoint)
	}
	body := cp[:len(cp)-4]
	if crc32.Update(s.layout, crc32.IEEETable, body) != binary.LittleEndian.Uint32(cp[len(cp)-4:]) {
		return fmt.Errorf("%w: checksum mismatch (damaged, or from another trace)", ErrBadCheckpoint)
	}
	b := body[3:]
	off, n := binary.Uvarint(b)
	if n <= 0 || off > uint64(s.size) {
		return fmt.Errorf("%w: offset", ErrBadCheckpoint)
	}
	b = b[n:]
	lineNo, n := binary.Uvarint(b)
	if n <= 0 {
		return fmt.Errorf("%w: line", ErrBadCheckpoint)
	}
	b = b[n:]
	last, n := binary.Varint(b)
	if n <= 0 || n != len(b) {
		return fmt.Errorf("%w: time", ErrBadCheckpoint)
	}
	if _, err := s.f.Seek(int64(off), io.SeekStart); err != nil {
		return err
	}
	s.r.Reset(s.f)
	s.off, s.lineNo, s.last = int64(off), int64(lineNo), last
	return nil
}

// Progress implements core.Source.
func (s *Source) Progress() (done, total int64) { return s.off, s.size }

// Warnings implements core.Source: skipped lines, lost events, time going
// back, all found by Open's first pass.
func (s *Source) Warnings() []core.Warning { return s.warnings }

// Close implements core.Source.
func (s *Source) Close() error { return s.f.Close() }
