package tracedat

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ftracefmt"
)

// Options tunes [Open].
type Options struct {
	// Indexed skips the first pass and leaves compressed CPU data to be
	// decompressed chunk by chunk as it is read, for a reader that is
	// only positioned with Seek on the checkpoints of a current index of
	// this file, like the browser's event table: its first page then
	// costs the chunks that hold it, one per CPU. Classes are learned as
	// records are read; Info has no bounds, Events is 0 and Warnings
	// holds only chunks found damaged while reading (what Next delivers is
	// the same: the first pass gives the other warnings).
	Indexed bool
	// State is the trace's [Source.IndexState] kept in its index, for a
	// reader opened Indexed: the event formats and symbols are then taken
	// from it instead of the file's sections (nil, or a state that does
	// not decode: from the file).
	State []byte
}

const maxWarnings = core.MaxListedWarnings

// ErrBadCheckpoint is wrapped by Seek errors for checkpoints this trace
// did not produce.
var ErrBadCheckpoint = errors.New("bad checkpoint")

// class is an event class with its format.
type class struct {
	class  core.EventClass
	format *ftracefmt.Format
}

// Source reads a trace.dat file as a [core.Source]: the records of every
// CPU of every buffer instance, merged by time. It implements core.Source.
type Source struct {
	path    string
	f       *file
	cpus    []*cpuReader
	byID    map[int]*ftracefmt.Format
	classes map[int]*class // by event id, the events the data holds
	order   []*class       // in order of first appearance
	comms   map[int32][]byte
	syms    *ftracefmt.Symbols
	state   *indexState // opened Indexed with a state: its formats and symbols
	closer  io.Closer   // the file, read as needed
	// symValues collects the values that may be kernel addresses, for
	// IndexState (nil when opened Indexed).
	symValues map[uint64]struct{}

	scanning bool
	unprimed bool // no record read ahead yet (opened Indexed, neither read nor sought)
	lazy     bool // opened Indexed: classes are made in Next, no first pass
	warnings []core.Warning
	dropped  int64 // warnings past maxWarnings, counted but not kept
	start    int64
	end      int64
	last     int64
	events   int64
	total    int64

	ev      core.Event
	fields  []core.Field
	scratch []byte   // array fields' text
	num     [24]byte // digits being printed
	printer ftracefmt.Printer
	cur     *cpuReader
}

var _ core.Source = (*Source)(nil)

// Detect reports whether the file at path is a trace.dat, by its magic.
func Detect(path string) (bool, error) {
	fh, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer fh.Close()
	b := make([]byte, len(Magic))
	if _, err := io.ReadFull(fh, b); err != nil {
		return false, nil
	}
	return string(b) == Magic, nil
}

// Open reads the file's metadata and one pass over its records (to learn
// the event classes, time range and lost events; not with opts.Indexed),
// and returns a Source positioned before the first event. The file is read
// with ReadAt as its parts are needed, not whole: each CPU's data is in
// memory a chunk (compressed) or a 1 MiB piece at a time, and of a version
// 6 file, whose sections follow each other, the metadata at its start (a
// 205 MB capture: 26 to 37 MB peak for dump instead of 225 MB).
func Open(path string, opts Options) (*Source, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, err
	}
	s, err := newSource(path, &fileData{at: fh, size: st.Size()}, opts)
	if err != nil {
		fh.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.closer = fh
	return s, nil
}

// inMemory holds a whole file's bytes.
func inMemory(b []byte) *fileData { return &fileData{all: b, size: int64(len(b))} }

// newSource builds a Source over a file's bytes; opts.Indexed skips the
// first pass (see [Options.Indexed]).
func newSource(path string, d *fileData, opts Options) (*Source, error) {
	indexed := opts.Indexed
	var st *indexState
	if indexed && opts.State != nil {
		st, _ = decodeState(opts.State) // one that does not decode: the file's sections
	}
	f, err := parseFile(d, indexed, st)
	if err != nil {
		return nil, err
	}
	s := &Source{path: path, f: f, byID: map[int]*ftracefmt.Format{}, classes: map[int]*class{}, total: d.size, lazy: indexed, state: st}
	s.printer.Lookup = s.lookupSymbol
	if s.state == nil { // else formats are parsed from the state as events need them
		if err := f.loadSections(OptFtraceEvents, OptEventFormats); err != nil {
			return nil, err
		}
		for _, ev := range f.formats {
			s.byID[ev.ID] = ev
		}
	}
	if !indexed {
		s.symValues = map[uint64]struct{}{}
	}
	s.comms = ftracefmt.ParseCmdlines(f.cmdlines)
	for bi := range f.buffers {
		buf := &f.buffers[bi]
		for ci := range buf.cpus {
			s.cpus = append(s.cpus, &cpuReader{f: f, buf: buf, cpu: &buf.cpus[ci], index: int32(len(s.cpus))})
		}
	}
	if indexed {
		// Every CPU before its first record, read ahead when first
		// needed: the event table seeks first.
		s.unprimed = true
		return s, nil
	}
	s.scanning = true
	if err := s.scan(); err != nil {
		return nil, err
	}
	s.scanning = false
	s.rewind()
	return s, nil
}

// scan is the first pass: classes, bounds, lost events. A damaged chunk
// is a warning (its pages are skipped, see openPage), not an error.
func (s *Source) scan() error {
	s.rewind()
	first := true
	for {
		c := s.advance()
		if c == nil {
			break
		}
		if s.classOf(c.recData) == nil {
			continue
		}
		t := c.recTS + s.f.tsOffset
		if first {
			s.start, first = t, false
		}
		s.end = max(s.end, t)
		s.events++
	}
	return nil
}

// rewind puts every CPU before its first record and reads it ahead.
func (s *Source) rewind() {
	for _, c := range s.cpus {
		*c = cpuReader{f: c.f, buf: c.buf, cpu: c.cpu, index: c.index}
		s.fill(c)
	}
	s.cur, s.last, s.unprimed = nil, 0, false
}

// fill reads the next record of c ahead, noting page problems.
func (s *Source) fill(c *cpuReader) {
	c.next(func(w pageWarning) { s.pageWarning(c, w) })
}

func (s *Source) pageWarning(c *cpuReader, w pageWarning) {
	// The first pass reports every problem; a reader that made none (an
	// Indexed one) reports the damaged chunks it meets.
	if !s.scanning && (!w.damaged || !s.lazy) {
		return
	}
	kind, count := "corrupt-page", int64(0)
	if w.lost != 0 {
		kind, count = "discarded", max(w.lost, 0)
	}
	s.warn(core.Warning{Time: core.Time(c.ts), Stream: c.index, Count: count, Kind: kind, Message: s.path + ": " + w.message})
}

func (s *Source) warn(w core.Warning) {
	if len(s.warnings) < maxWarnings {
		s.warnings = append(s.warnings, w)
		return
	}
	s.dropped++
}

// advance returns the CPU whose pending record is the earliest (ties to
// the lowest stream), after which that record is consumed: the caller
// reads c.recTS and c.recData, then the reader is refilled on the next call.
func (s *Source) advance() *cpuReader {
	if s.unprimed {
		s.rewind()
	}
	if s.cur != nil {
		s.fill(s.cur)
		s.cur = nil
	}
	var best *cpuReader
	for _, c := range s.cpus {
		if !c.done && (best == nil || c.recTS < best.recTS) {
			best = c
		}
	}
	s.cur = best
	return best
}

// classOf returns the class of a record, creating it during the first
// pass; nil for records too short for a header or of an unknown event.
func (s *Source) classOf(data []byte) *class {
	if len(data) < 2 {
		return nil
	}
	id := int(s.f.order.Uint16(data))
	if cl, ok := s.classes[id]; ok {
		return cl
	}
	if !s.scanning && !s.lazy {
		return nil
	}
	ef, ok := s.byID[id]
	if !ok && s.state != nil {
		ef = s.state.format(id)
		ok = ef != nil
	}
	if !ok && s.lazy { // the first pass warned of it
		s.classes[id] = nil
		return nil
	}
	if !ok {
		s.warn(core.Warning{Stream: -1, Kind: "unknown-event",
			Message: fmt.Sprintf("%s: event id %d has no format in the file; its records are skipped", s.path, id)})
		s.classes[id] = nil
		return nil
	}
	cl := &class{format: ef}
	cl.class = core.EventClass{ID: len(s.order), Name: ef.Name, Fields: core.ThreadContextFields()}
	for _, fd := range ef.Fields {
		cl.class.Fields = append(cl.class.Fields, fieldName(ef, &fd))
	}
	s.classes[id] = cl
	s.order = append(s.order, cl)
	return cl
}

// fieldName is a field's name in the class: the kernel's, except the raw
// syscall events' number, "NR" as the ftrace text reader (and the ftrace
// kernel layout) names it from the printed line.
func fieldName(ef *ftracefmt.Format, fd *ftracefmt.Field) string {
	if ef.System == "raw_syscalls" && fd.Name == "id" {
		return "NR"
	}
	return fd.Name
}

// Info implements core.Source.
func (s *Source) Info() core.SourceInfo {
	return core.SourceInfo{Format: "tracedat", Path: s.path, Domain: "kernel", Arch: s.Arch(), Hostname: s.hostname(),
		Streams: len(s.cpus), Bytes: s.total, Start: core.Time(s.start), End: core.Time(s.end)}
}

// Arch returns the recorded machine's architecture (uname's machine
// field: the UNAME option is "sysname nodename release version machine").
func (s *Source) Arch() string {
	f := strings.Fields(s.f.uname)
	if len(f) < 2 {
		return ""
	}
	return f[len(f)-1]
}

func (s *Source) hostname() string {
	if f := strings.Fields(s.f.uname); len(f) >= 2 {
		return f[1]
	}
	return ""
}

// Clock returns the trace clock the top buffer was recorded with.
func (s *Source) Clock() string {
	if len(s.f.buffers) > 0 && s.f.buffers[0].clock != "" {
		return s.f.buffers[0].clock
	}
	return s.f.clock
}

// Events returns the number of events in the trace.
func (s *Source) Events() int64 { return s.events }

// Classes returns the event classes of the trace, by ID.
func (s *Source) Classes() []*core.EventClass {
	out := make([]*core.EventClass, len(s.order))
	for i, c := range s.order {
		out[i] = &c.class
	}
	return out
}

// Next implements core.Source.
func (s *Source) Next() (*core.Event, error) {
	for {
		c := s.advance()
		if c == nil {
			return nil, io.EOF
		}
		cl := s.classOf(c.recData)
		if cl == nil {
			continue
		}
		t := c.recTS + s.f.tsOffset
		if t < s.last {
			t = s.last
		}
		s.last = t
		s.ev.Time, s.ev.CPU, s.ev.Stream, s.ev.Class = core.Time(t), int32(c.cpu.cpu), c.index, &cl.class
		s.ev.Fields = s.decode(cl, c.recData)
		return &s.ev, nil
	}
}

// Record returns the raw bytes of the event last returned by Next.
func (s *Source) record() ([]byte, *class) {
	if s.cur == nil {
		return nil, nil
	}
	return s.cur.recData, s.classOf(s.cur.recData)
}

// AppendContents implements core.Source: the event as `trace-cmd report`
// prints it after the event name.
func (s *Source) AppendContents(dst []byte, ev *core.Event) []byte {
	data, cl := s.record()
	if cl == nil {
		return dst
	}
	return s.appendBody(dst, cl.format, data)
}

// Progress implements core.Source.
func (s *Source) Progress() (done, total int64) {
	var pages, at int64
	for _, c := range s.cpus {
		n := int64(c.cpu.length() / max(c.buf.pageSize, 1))
		pages += n
		at += min(int64(c.page), n)
	}
	if pages == 0 {
		return s.total, s.total
	}
	return s.total * at / pages, s.total
}

// Warnings implements core.Source.
// Past maxWarnings, one core.WarningMore warning counts the rest, so
// core.WarningCount gives the true number.
func (s *Source) Warnings() []core.Warning {
	if s.dropped == 0 {
		return s.warnings
	}
	more := core.Warning{Stream: -1, Count: s.dropped, Kind: core.WarningMore,
		Message: fmt.Sprintf("%d more warnings not listed", s.dropped)}
	return append(s.warnings[:len(s.warnings):len(s.warnings)], more)
}

// Close implements core.Source: it releases the decoder and the file of
// a reader opened Indexed.
func (s *Source) Close() error {
	s.f.close()
	if s.closer != nil {
		err := s.closer.Close()
		s.closer = nil
		return err
	}
	return nil
}

// checkpointMagic starts every trace.dat checkpoint.
const checkpointMagic = "td1"
