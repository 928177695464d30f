package ftrace

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/internal/lines"
)

// Options tunes [Open].
type Options struct {
	// Context, if set, cancels reading: Open's first pass and Next then
	// return its error.
	Context context.Context
	// Indexed skips the first pass (a 137 MB capture costs 0.3 s to
	// scan), for a reader that is only positioned with Seek on the
	// checkpoints of a current index of this capture, like the browser's
	// event table. Only valid when the index's build reported no
	// "time-jump" warning: the first pass is what finds those lines.
	// Classes and the fields of generic events are then learned as lines
	// are read; Info has no bounds, Events is 0 and Warnings is empty.
	Indexed bool
}

const (
	maxClasses   = 1 << 16
	maxFields    = 64 // fields per generic class
	maxWarnings  = core.MaxListedWarnings
	readBufBytes = 256 << 10 // also the longest line accepted
)

// WarnTimeJump is the Kind of the warning for a damaged line whose time
// jumps ahead alone (delivered at the next line's time): only the first
// pass finds them, so a reader opened Indexed cannot reproduce them.
const WarnTimeJump = "time-jump"

// ErrBadCheckpoint is wrapped by Seek errors for checkpoints this trace
// did not produce.
var ErrBadCheckpoint = lines.ErrBadCheckpoint

// classInfo is an event class with its field lookup.
type classInfo struct {
	class core.EventClass
	index map[string]int // field name -> index
	types []fieldType    // by index
}

// Source reads an ftrace text capture as a [core.Source]. It implements
// core.Source.
type Source struct {
	lines.Base // Checkpoint, Seek, Progress, Warnings, Close
	path       string
	r          *lines.Reader
	classes    []*classInfo
	byName     map[string]int
	start      int64
	end        int64
	timed      bool // start and end hold a line's time
	events     int64
	cpus       int
	// outliers maps the lines found to jump ahead alone (see outlierGap)
	// to the time they are delivered at.
	outliers map[int64]int64
	// lazy: opened Indexed, so classes and generic fields are learned in
	// Next instead of the first pass.
	lazy bool

	ln     line
	kvs    []kv
	nameB  []byte
	ev     core.Event
	fields []core.Field
}

var _ core.Source = (*Source)(nil)

// Open scans the capture once (to learn its event classes, time range and
// bad lines) and returns a Source positioned before the first event.
func Open(path string, opts Options) (*Source, error) {
	r, err := lines.Open(path, readBufBytes)
	if err != nil {
		return nil, err
	}
	r.Context = opts.Context
	s := &Source{Base: lines.NewBase(r, checkpointMagic, maxWarnings), path: path, r: r, byName: map[string]int{}}
	r.Long = func(lineNo, off int64) {
		s.warn(core.Warning{Kind: "skipped-line",
			Message: fmt.Sprintf("line %d (offset %d): longer than %d bytes, skipped", lineNo, off, readBufBytes)})
	}
	if opts.Indexed {
		s.SkipScan()
		s.lazy = true
		return s, nil
	}
	if err := s.scan(); err != nil {
		r.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if s.events == 0 && len(s.Warnings()) > 0 {
		r.Close()
		return nil, fmt.Errorf("%s: no ftrace event line (first problem: %s)", path, s.Warnings()[0].Message)
	}
	return s, nil
}

// An isolated time jump: a line whose time is more than outlierGap ahead
// of both the line before and the line after it, while those two agree,
// is a damaged line (a corrupted digit), not the new time of the capture.
// Without this rule every later event would be delivered at the bad time
// (sources never let time go back) and the timeline would flatten. The
// captures the tools print are sorted, and the CPUs' clocks agree to
// microseconds, so a gap of a millisecond never flags a sound line.
const (
	outlierGap  = int64(1_000_000) // ns
	maxOutliers = 1 << 16          // lines moved; later jumps are clamped as before
)

// pendingLine is an event line of the first pass whose time is not yet
// accepted: the line after it decides whether it is an outlier.
type pendingLine struct {
	t, lineNo int64
	ok        bool
}

// scan is the first pass: classes, bounds, warnings, outliers.
func (s *Source) scan() error {
	cpus := map[int32]bool{}
	var pend pendingLine
	for {
		b, lineNo, off, err := s.r.Line()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if s.skipLine(b, lineNo, off) {
			continue
		}
		if err := parseLine(b, &s.ln); err != nil {
			s.warn(core.Warning{Kind: "skipped-line",
				Message: fmt.Sprintf("line %d (offset %d): not an ftrace event line, skipped: %q", lineNo, off, clip(b))})
			continue
		}
		ci := s.classOf(&s.ln)
		if ci == nil {
			continue
		}
		s.noteFields(ci)
		t := s.ln.ts
		if pend.ok {
			if s.isOutlier(pend.t, t) {
				s.moveOutlier(pend, t)
			} else {
				s.accept(pend)
			}
		}
		pend = pendingLine{t: t, lineNo: lineNo, ok: true}
		cpus[s.ln.cpu] = true
		s.events++
	}
	if pend.ok {
		s.accept(pend)
	}
	s.cpus = len(cpus)
	return s.EndScan(s.start, s.r.Size(), s.events, int64(len(s.classes)))
}

// isOutlier reports whether a line at time t, followed by one at next,
// jumped ahead alone (see outlierGap).
func (s *Source) isOutlier(t, next int64) bool {
	if len(s.outliers) >= maxOutliers || next >= t-outlierGap {
		return false
	}
	// After a real pause a damaged line may go back instead: the line
	// after the jump must be nearer to the lines before it than to it.
	return !s.timed || (t-s.end > outlierGap && next >= s.end-outlierGap && next-s.end < t-next)
}

// moveOutlier records that the line p, an isolated jump, is delivered at
// the time of the line after it.
func (s *Source) moveOutlier(p pendingLine, next int64) {
	if s.outliers == nil {
		s.outliers = map[int64]int64{}
	}
	s.outliers[p.lineNo] = next
	s.warn(core.Warning{Time: core.Time(next), Kind: WarnTimeJump,
		Message: fmt.Sprintf("line %d: time %s jumps ahead of the lines around it (next %s): a damaged line; the event is delivered at the next line's time",
			p.lineNo, core.FormatTimestamp(core.Time(p.t)), core.FormatTimestamp(core.Time(next)))})
}

// accept makes a line's time part of the capture's bounds.
func (s *Source) accept(p pendingLine) {
	if !s.timed {
		s.start, s.end, s.timed = p.t, p.t, true
	}
	if p.t < s.end {
		s.warn(core.Warning{Time: core.Time(p.t), Kind: "time-order",
			Message: fmt.Sprintf("line %d: time %s goes back from %s; the event is delivered at the later time",
				p.lineNo, core.FormatTimestamp(core.Time(p.t)), core.FormatTimestamp(core.Time(s.end)))})
	}
	s.end = max(s.end, p.t)
}

func clip(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "..."
	}
	return string(b)
}

// skipLine reports header, comment and empty lines, noting lost events.
func (s *Source) skipLine(b []byte, lineNo, off int64) bool {
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
		n := int64(0)
		if f := bytes.Fields(t); len(f) >= 3 {
			n, _ = strconv.ParseInt(string(f[2]), 10, 64)
		}
		s.warn(core.Warning{Kind: "discarded", Count: n, Message: fmt.Sprintf("line %d (offset %d): %s", lineNo, off, t)})
		return true
	}
	return false
}

// scanning reports whether the first pass is running (warnings and
// classes are collected there only, so Seek never repeats them).
func (s *Source) scanning() bool { return s.Scanning() }

func (s *Source) warn(w core.Warning) { s.Warn(w) }

// classOf returns the class of a parsed line, creating it during the
// first pass.
func (s *Source) classOf(l *line) *classInfo {
	s.nameB = className(s.nameB[:0], l)
	if id, ok := s.byName[string(s.nameB)]; ok {
		return s.classes[id]
	}
	if !(s.scanning() || s.lazy) || len(s.classes) >= maxClasses {
		return nil
	}
	name := string(s.nameB)
	ci := &classInfo{index: map[string]int{}}
	ci.class = core.EventClass{ID: len(s.classes), Name: name, Fields: core.ThreadContextFields()}
	ci.types = make([]fieldType, core.NumThreadContext)
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
		if _, ok := ci.index[string(p.key)]; ok || len(ci.class.Fields) >= core.NumThreadContext+maxFields {
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
	return core.SourceInfo{Format: "ftrace", Path: s.path, Domain: "kernel", Streams: s.cpus, Bytes: s.r.Size(),
		Start: core.Time(s.start), End: core.Time(s.end)}
}

// Events returns the number of events in the trace.
func (s *Source) Events() int64 { return s.events }

// Next implements core.Source.
func (s *Source) Next() (*core.Event, error) {
	for {
		b, lineNo, off, err := s.r.Line()
		if err != nil {
			if err != io.EOF {
				err = fmt.Errorf("%s: %w", s.path, err)
			}
			return nil, err
		}
		if s.skipLine(b, lineNo, off) || parseLine(b, &s.ln) != nil {
			continue
		}
		ci := s.classOf(&s.ln)
		if ci == nil {
			continue
		}
		if t, moved := s.outliers[lineNo]; moved {
			s.ln.ts = t
		}
		if s.lazy {
			s.noteFields(ci)
		}
		s.fillEvent(ci)
		return &s.ev, nil
	}
}

func (s *Source) fillEvent(ci *classInfo) {
	l := &s.ln
	t := s.Deliver(l.ts)
	s.ev.Time, s.ev.CPU, s.ev.Stream, s.ev.Class = core.Time(t), l.cpu, l.cpu, &ci.class
	n := len(ci.class.Fields)
	if cap(s.fields) < n {
		s.fields = make([]core.Field, n)
	}
	f := s.fields[:n]
	clear(f)
	f[core.CtxTID] = core.Field{Kind: core.FieldInt, Int: l.tid}
	if l.hasTgid {
		f[core.CtxPID] = core.Field{Kind: core.FieldInt, Int: l.tgid}
	}
	f[core.CtxComm] = core.Field{Kind: core.FieldString, Bytes: l.comm}
	s.kvs = parseBody(s.kvs[:0], s.nameB, l)
	for _, p := range s.kvs {
		if i, ok := ci.index[string(p.key)]; ok {
			f[i] = toField(p.val, ci.types[i])
		}
	}
	s.ev.Fields = f
}

// AppendContents implements core.Source: the payload fields,
// babeltrace-style ({ prev_comm = "bash", prev_pid = 1234, ... }).
func (s *Source) AppendContents(dst []byte, ev *core.Event) []byte {
	return lines.AppendFields(dst, ev, core.NumThreadContext)
}

// checkpointMagic starts every ftrace checkpoint (see lines.Checkpoint).
const checkpointMagic = "ft"
