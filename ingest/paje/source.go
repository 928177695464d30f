package paje

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/internal/lines"
)

// Options tunes [Open].
type Options struct {
	// Context, if set, cancels reading: Open's first pass and Next then
	// return its error.
	Context context.Context
}

const (
	readBufBytes = 256 << 10 // also the longest line accepted
	maxDefs      = 1 << 12
	maxWarnings  = core.MaxListedWarnings
	maxFields    = 256 // values read from one line
)

// ErrBadCheckpoint is wrapped by Seek errors for checkpoints this trace
// did not produce.
var ErrBadCheckpoint = lines.ErrBadCheckpoint

type classInfo struct {
	class   core.EventClass
	def     *eventDef
	fieldAt []int // definition field index -> class field index, -1 for Time
	ctxRef  int   // definition field naming the event's container, -1 if none
	ctxRef2 int   // fallback (CreateContainer: Name when Alias is empty)
}

// container is one container created by the trace.
type container struct {
	key    string // alias, or name when it has none
	name   string
	parent int32 // -1: the root
	keyF   core.Field
	nameF  core.Field
}

// Source reads a Pajé text trace as a [core.Source]. It implements
// core.Source.
type Source struct {
	path       string
	lines.Base // Checkpoint, Seek, Progress, Warnings, Close
	r          *lines.Reader
	curLine    int64 // number of the line being read, for messages
	defs       map[string]*eventDef
	defList    []*eventDef // in definition order
	classes    []*classInfo
	conts      []container
	contRef    map[string]int32 // alias and name -> container
	start      int64
	end        int64
	events     int64
	inDef      *eventDef
	badDef     bool

	vals   [][]byte
	ev     core.Event
	fields []core.Field
}

var _ core.Source = (*Source)(nil)

// Open reads the trace once (definitions, containers, time range,
// problems) and returns a Source positioned before the first event.
func Open(path string, opts Options) (*Source, error) {
	r, err := lines.Open(path, readBufBytes)
	if err != nil {
		return nil, err
	}
	r.Context = opts.Context
	s := &Source{Base: lines.NewBase(r, checkpointMagic, maxWarnings), path: path, r: r,
		defs: map[string]*eventDef{}, contRef: map[string]int32{}}
	r.Long = func(lineNo, off int64) {
		s.warn(core.Warning{Kind: "skipped-line", Message: fmt.Sprintf("line %d (offset %d): longer than %d bytes, skipped", lineNo, off, readBufBytes)})
	}
	if err := s.scan(); err != nil {
		r.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

func (s *Source) warn(w core.Warning) { s.Warn(w) }

// scanned reports whether the first pass is over.
func (s *Source) scanned() bool { return !s.Scanning() }

// scan is the first pass.
func (s *Source) scan() error {
	first := true
	for {
		b, lineNo, off, err := s.r.Line()
		if err == io.EOF {
			break
		}
		s.curLine = lineNo
		if err != nil {
			return err
		}
		def, t, ok, err := s.line(b, off)
		if err != nil {
			return err
		}
		if !ok || def == nil {
			continue
		}
		if def.timeAt >= 0 {
			if first {
				s.start, s.end, first = t, t, false
			}
			if t < s.end {
				s.warn(core.Warning{Time: core.Time(t), Kind: "time-order",
					Message: fmt.Sprintf("line %d: time %s goes back from %s; the event is delivered at the later time",
						s.curLine, core.FormatTimestamp(core.Time(t)), core.FormatTimestamp(core.Time(s.end)))})
			}
			s.end = max(s.end, t)
		}
		if def.kind == EvCreateContainer {
			s.addContainer(def)
		}
		s.events++
	}
	if s.inDef != nil {
		s.warn(core.Warning{Kind: "bad-definition", Message: fmt.Sprintf("line %d: %%EventDef %s is not closed by %%EndEventDef", s.inDef.line, s.inDef.name)})
	}
	if len(s.classes) == 0 {
		return fmt.Errorf("no Pajé event definition (%%EventDef): not a Pajé trace")
	}
	for _, d := range s.defList {
		if d.class < 0 && d.skipped > 0 {
			s.warn(core.Warning{Kind: "skipped-events", Count: d.skipped,
				Message: fmt.Sprintf("%d event(s) of the unknown definition %s (id %s) skipped", d.skipped, d.name, d.id)})
		}
	}
	return s.EndScan(s.start, s.r.Size(), s.events, int64(len(s.classes)))
}

// line handles one line in either pass: definitions (first pass only),
// comments, events. For an event it returns its definition and time, with
// the values in s.vals; ok is false for lines to skip.
func (s *Source) line(b []byte, off int64) (def *eventDef, t int64, ok bool, err error) {
	t0 := bytes.TrimLeft(b, " \t\r") // the blanks splitFields skips
	if len(t0) == 0 || t0[0] == '#' {
		return nil, 0, false, nil
	}
	if t0[0] == '%' {
		if !s.scanned() {
			s.definitionLine(t0)
		}
		return nil, 0, false, nil
	}
	var good bool
	s.vals, good = splitFields(s.vals[:0], t0)
	if !good || len(s.vals) > maxFields {
		s.warn(core.Warning{Kind: "skipped-line", Message: fmt.Sprintf("line %d (offset %d): unterminated quote or too many values, skipped", s.curLine, off)})
		return nil, 0, false, nil
	}
	def, found := s.defs[string(s.vals[0])]
	if !found {
		s.warn(core.Warning{Kind: "skipped-line", Message: fmt.Sprintf("line %d (offset %d): event id %q has no %%EventDef, skipped", s.curLine, off, clip(s.vals[0]))})
		return nil, 0, false, nil
	}
	if def.class < 0 {
		if !s.scanned() {
			def.skipped++
		}
		return nil, 0, false, nil
	}
	vals := s.vals[1:]
	if len(vals) < len(def.fields) {
		s.warn(core.Warning{Kind: "skipped-line", Message: fmt.Sprintf("line %d (offset %d): %s wants %d values, found %d; skipped", s.curLine, off, def.name, len(def.fields), len(vals))})
		return nil, 0, false, nil
	}
	if def.timeAt >= 0 {
		var tok bool
		if t, tok = parseSeconds(vals[def.timeAt]); !tok {
			s.warn(core.Warning{Kind: "skipped-line", Message: fmt.Sprintf("line %d (offset %d): bad time %q, skipped", s.curLine, off, clip(vals[def.timeAt]))})
			return nil, 0, false, nil
		}
	}
	return def, t, true, nil
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "..."
	}
	return string(b)
}

// definitionLine reads the %EventDef header blocks.
func (s *Source) definitionLine(b []byte) {
	word := bytes.Fields(b[1:])
	switch {
	case len(word) > 0 && string(word[0]) == "EventDef":
		d, err := parseDefHeader(b)
		if err != nil {
			s.warn(core.Warning{Kind: "bad-definition", Message: fmt.Sprintf("line %d: %v", s.curLine, err)})
			s.inDef, s.badDef = nil, true
			return
		}
		d.line = s.curLine
		s.inDef, s.badDef = d, false
	case len(word) > 0 && string(word[0]) == "EndEventDef":
		d := s.inDef
		s.inDef = nil
		if d == nil {
			if !s.badDef {
				s.warn(core.Warning{Kind: "bad-definition", Message: fmt.Sprintf("line %d: %%EndEventDef without %%EventDef", s.curLine)})
			}
			return
		}
		s.endDefinition(d)
	case s.inDef != nil:
		if err := s.inDef.addField(b); err != nil {
			s.warn(core.Warning{Kind: "bad-definition", Message: fmt.Sprintf("line %d: %s: %v; its events are skipped", s.curLine, s.inDef.name, err)})
			s.inDef.kind = EvUnknown
		}
	}
}

func (s *Source) endDefinition(d *eventDef) {
	if _, dup := s.defs[d.id]; dup {
		s.warn(core.Warning{Kind: "bad-definition", Message: fmt.Sprintf("line %d: event id %s defined twice; the first definition is kept", d.line, d.id)})
		return
	}
	if len(s.defs) >= maxDefs {
		s.warn(core.Warning{Kind: "bad-definition", Message: fmt.Sprintf("line %d: more than %d definitions", d.line, maxDefs)})
		return
	}
	s.defs[d.id] = d
	s.defList = append(s.defList, d)
	if d.kind == EvUnknown {
		if _, known := kindByName[d.name]; !known {
			s.warn(core.Warning{Kind: "unknown-definition",
				Message: fmt.Sprintf("line %d: unknown event definition %s (id %s): its events are skipped", d.line, d.name, d.id)})
		}
		return
	}
	if err := d.check(); err != nil {
		s.warn(core.Warning{Kind: "bad-definition", Message: fmt.Sprintf("line %d: %v; its events are skipped", d.line, err)})
		d.kind = EvUnknown
		return
	}
	ci := &classInfo{def: d, ctxRef: -1, ctxRef2: -1}
	ci.class = core.EventClass{ID: len(s.classes), Name: d.name, Fields: core.ThreadContextFields()}
	for i, f := range d.fields {
		if i == d.timeAt {
			ci.fieldAt = append(ci.fieldAt, -1)
			continue
		}
		ci.fieldAt = append(ci.fieldAt, len(ci.class.Fields))
		ci.class.Fields = append(ci.class.Fields, f)
	}
	switch d.kind {
	case EvCreateContainer:
		ci.ctxRef, ci.ctxRef2 = d.field("Alias"), d.field("Name")
	case EvDestroyContainer:
		ci.ctxRef = d.field("Name")
	default:
		ci.ctxRef = d.field("Container")
	}
	if ci.ctxRef < 0 {
		ci.ctxRef, ci.ctxRef2 = ci.ctxRef2, -1
	}
	d.class = ci.class.ID
	s.classes = append(s.classes, ci)
}

// addContainer records the container created by the event in s.vals.
func (s *Source) addContainer(d *eventDef) {
	vals := s.vals[1:]
	name := string(vals[d.field("Name")])
	key := name
	if a := d.field("Alias"); a >= 0 && len(vals[a]) > 0 {
		key = string(vals[a])
	}
	parent := int32(-1)
	if p, ok := s.contRef[string(vals[d.field("Container")])]; ok {
		parent = p
	}
	id := int32(len(s.conts))
	s.conts = append(s.conts, container{key: key, name: name, parent: parent,
		keyF:  core.Field{Kind: core.FieldString, Bytes: []byte(key)},
		nameF: core.Field{Kind: core.FieldString, Bytes: []byte(name)}})
	for _, ref := range []string{key, name} {
		if _, dup := s.contRef[ref]; !dup {
			s.contRef[ref] = id
		}
	}
}

// Info implements core.Source.
func (s *Source) Info() core.SourceInfo {
	return core.SourceInfo{Format: "paje", Path: s.path, Streams: 1, Bytes: s.r.Size(),
		Start: core.Time(s.start), End: core.Time(s.end)}
}

// Events returns the number of events (definitions included).
func (s *Source) Events() int64 { return s.events }

// Next implements core.Source. Definitions without a time (types, entity
// values) are delivered at the time of the event before them.
func (s *Source) Next() (*core.Event, error) {
	for {
		b, lineNo, off, err := s.r.Line()
		s.curLine = lineNo
		if err != nil {
			if err != io.EOF {
				err = fmt.Errorf("%s: %w", s.path, err)
			}
			return nil, err
		}
		def, t, ok, _ := s.line(b, off)
		if !ok || def == nil {
			continue
		}
		if def.timeAt >= 0 {
			s.Deliver(t)
		}
		s.fill(s.classes[def.class])
		return &s.ev, nil
	}
}

func (s *Source) fill(ci *classInfo) {
	d := ci.def
	vals := s.vals[1:]
	s.ev.Time, s.ev.CPU, s.ev.Stream, s.ev.Class = core.Time(s.Last()), -1, 0, &ci.class
	n := len(ci.class.Fields)
	if cap(s.fields) < n {
		s.fields = make([]core.Field, n)
	}
	f := s.fields[:n]
	clear(f)
	for i, at := range ci.fieldAt {
		if at < 0 {
			continue
		}
		f[at] = toField(vals[i], d.types[i])
	}
	ref := -1
	if ci.ctxRef >= 0 && len(vals[ci.ctxRef]) > 0 {
		ref = ci.ctxRef
	} else if ci.ctxRef2 >= 0 {
		ref = ci.ctxRef2
	}
	if ref >= 0 {
		if c, ok := s.contRef[string(vals[ref])]; ok {
			ct := &s.conts[c]
			f[core.CtxTID], f[core.CtxComm] = ct.keyF, ct.nameF
			if ct.parent >= 0 {
				p := &s.conts[ct.parent]
				f[core.CtxPID], f[core.CtxProcname] = p.keyF, p.nameF
			}
		} else {
			f[core.CtxTID] = core.Field{Kind: core.FieldString, Bytes: vals[ref]}
		}
	}
	s.ev.Fields = f
}

// toField types a value as its definition declares.
func toField(v []byte, t fieldType) core.Field {
	switch t {
	case typeInt:
		if x, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return core.Field{Kind: core.FieldInt, Int: x}
		}
	case typeHex:
		h := bytes.TrimPrefix(bytes.TrimPrefix(v, []byte("0x")), []byte("0X"))
		if x, err := strconv.ParseUint(string(h), 16, 64); err == nil {
			return core.Field{Kind: core.FieldInt, Int: int64(x)}
		}
	case typeDouble:
		if x, err := strconv.ParseFloat(string(v), 64); err == nil {
			return core.Field{Kind: core.FieldFloat, Float: x}
		}
	}
	return core.Field{Kind: core.FieldString, Bytes: v}
}

// AppendContents implements core.Source: the definition's fields other
// than Time, babeltrace-style ({ Container = "p1", Type = "ST", Value = "Run" }).
func (s *Source) AppendContents(dst []byte, ev *core.Event) []byte {
	return lines.AppendFields(dst, ev, core.NumThreadContext)
}

// checkpointMagic starts every Pajé checkpoint (see lines.Checkpoint).
const checkpointMagic = "pj"
