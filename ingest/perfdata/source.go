package perfdata

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ftracefmt"
)

// Options tunes [Open].
type Options struct {
	// Context, if set, cancels the first pass and later reading.
	Context context.Context
	// Indexed with State, the trace's [Source.IndexState] kept in its
	// index, skips the first pass (a pipe-mode file is read up to its
	// first event, for its attrs and features): for a reader positioned
	// only with Seek on that index's checkpoints. A state that does not
	// decode, or another file's, is ignored (the pass is made).
	Indexed bool
	State   []byte
}

const maxWarnings = 100

// Source reads a perf.data file as a [core.Source]: its samples and
// side-band records in time order, as perf delivers them. It implements
// core.Source.
type Source struct {
	f        *file
	closer   io.Closer
	ctx      context.Context
	sc       *scanned
	byAttr   []*class
	byType   map[uint32]*class
	classes  []*class
	st       *stream
	q        queue
	warnings []core.Warning
	dropped  int64
	replayed bool // reading again what a checkpoint's queue holds

	// The record last delivered, for AppendContents and the dump.
	cur     record
	curS    sample
	curBody []byte // a side-band record's body, before its trailer
	curCl   *class
	ev      core.Event
	fields  []core.Field
	scratch []byte
	cursor  cursor
	printer ftracefmt.Printer
	reads   int
	width   int // the longest event name
	frames  []Frame
	stack   []Frame           // AppendStack's
	unnamed map[uint64]string // AppendStack's names of unknown addresses
	// noFields: Next leaves tracepoints' payload fields absent (the
	// dump prints from the records).
	noFields bool
	// streamAt is the position of the record the stream returned last
	// (when streamRead): a Seek ahead of it in zstd data reads on.
	streamAt   pos
	streamRead bool
	syms       *symbolizer
	curQ       *queued // the queued record delivered last, released on the next call
}

// Detect reports whether the file at path is a perf.data, by its magic.
func Detect(path string) (bool, error) {
	fh, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer fh.Close()
	b := make([]byte, 8)
	if _, err := io.ReadFull(fh, b); err != nil {
		return false, nil
	}
	return string(b) == Magic || string(b) == "2ELIFREP", nil
}

// Open reads the file's header, attrs and features, then one pass over
// its records (thread names, lost records, the time range, which events
// have samples), and returns a Source positioned before the first event.
// The records are read with ReadAt as they are needed.
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
	s, err := newSource(path, fh, st.Size(), opts)
	if err != nil {
		fh.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.closer = fh
	return s, nil
}

// newSource reads a perf.data from r, of the given size.
func newSource(path string, r io.ReaderAt, size int64, opts Options) (*Source, error) {
	h, err := readHeader(r, size)
	if err != nil {
		return nil, err
	}
	f := &file{path: path, r: r, size: size, hdr: h, order: h.order}
	f.meta.ClockID = -1
	s := &Source{f: f, ctx: opts.Context}
	if h.pipe {
		f.start, f.end = pipeHeaderLen, size
	} else {
		f.start, f.end = int64(h.data.off), int64(h.data.end())
		attrs, err := readAttrs(r, h, size)
		if err != nil {
			return nil, err
		}
		for _, a := range attrs {
			if err := f.addAttr(a); err != nil {
				return nil, err
			}
		}
		secs, err := featureSections(r, h, size)
		if err != nil {
			return nil, err
		}
		bitsSet := make([]int, 0, len(secs))
		for bit := range secs {
			bitsSet = append(bitsSet, bit)
		}
		sort.Ints(bitsSet)
		for _, bit := range bitsSet {
			sec := secs[bit]
			b, err := readAt(r, sec.off, sec.size, size, fmt.Sprintf("feature %d", bit))
			if err == nil {
				err = f.meta.parseFeature(bit, b, h.order)
			}
			if err != nil {
				if errors.Is(err, ErrUnsupported) {
					return nil, err
				}
				s.warn(core.Warning{Stream: -1, Kind: "feature", Message: fmt.Sprintf("%s: feature %d unreadable, skipped: %v", path, bit, err)})
			}
		}
		if err := f.loadTracing(); err != nil {
			s.warn(core.Warning{Stream: -1, Kind: "tracing-data", Message: fmt.Sprintf("%s: tracing data unreadable (tracepoints print as raw fields): %v", path, err)})
		}
	}
	var sc *scanned
	if opts.Indexed && opts.State != nil {
		if h.pipe {
			_, err = f.scan(opts.Context, s.warn, true)
		}
		if err == nil {
			err = f.finishAttrs()
		}
		if err == nil {
			sc, err = f.loadState(opts.State)
		}
		if err != nil { // read it all again, without the state
			return newSource(path, r, size, Options{Context: opts.Context})
		}
	} else if sc, err = f.scan(opts.Context, s.warn, false); err != nil {
		return nil, err
	}
	if f.meta.Compressed && len(f.attrs) == 0 {
		return nil, fmt.Errorf("%w: no events", ErrCorrupt)
	}
	s.sc = sc
	s.byAttr, s.byType, s.classes = f.makeClasses(sc)
	s.scanWarnings()
	s.st = newStream(r, f.order, f.start, f.end)
	s.cursor.order = f.order
	s.printer.Lookup = s.kernelSymbol
	return s, nil
}

// scanWarnings reports what the first pass found: lost records and the
// records skipped.
func (s *Source) scanWarnings() {
	sc := s.sc
	if sc.lost > 0 {
		s.warn(core.Warning{Stream: -1, Count: sc.lost, Kind: "lost",
			Message: fmt.Sprintf("%s: %d events lost: the kernel's ring buffers overflowed (record with a larger -m or a lower frequency)", s.f.path, sc.lost)})
	}
	if sc.lostSample > 0 {
		s.warn(core.Warning{Stream: -1, Count: sc.lostSample, Kind: "lost-samples",
			Message: fmt.Sprintf("%s: %d samples lost by the PMU", s.f.path, sc.lostSample)})
	}
	types := make([]int, 0, len(sc.skipped))
	for typ := range sc.skipped {
		types = append(types, int(typ))
	}
	sort.Ints(types)
	for _, typ := range types {
		n := sc.skipped[uint32(typ)]
		switch uint32(typ) {
		case recKsymbol, recBPFEvent, recNamespaces, recCgroup, recTextPoke, recRead:
			continue // known, nothing to show
		}
		s.warn(core.Warning{Stream: -1, Count: n, Kind: "skipped-record",
			Message: fmt.Sprintf("%s: %d records of type %d (%s) skipped: not read by this version", s.f.path, n, typ, recordName(uint32(typ)))})
	}
}

func recordName(typ uint32) string {
	switch typ {
	case recAux:
		return "AUX"
	case recItraceStart:
		return "ITRACE_START"
	case recAuxOutputHWID:
		return "AUX_OUTPUT_HW_ID"
	case recCallchainDefer:
		return "CALLCHAIN_DEFERRED"
	}
	return "unknown"
}

func (s *Source) warn(w core.Warning) {
	if len(s.warnings) >= maxWarnings {
		s.dropped++
		return
	}
	s.warnings = append(s.warnings, w)
}

// Meta returns what the file's feature sections say.
func (s *Source) Meta() *Meta { return &s.f.meta }

// Pipe reports whether the file is a pipe-mode stream.
func (s *Source) Pipe() bool { return s.f.hdr.pipe }

// Events returns the number of events in the trace.
func (s *Source) Events() int64 { return s.sc.events }

// Classes returns the event classes of the trace, by ID.
func (s *Source) Classes() []*core.EventClass {
	out := make([]*core.EventClass, len(s.classes))
	for i, cl := range s.classes {
		out[i] = &cl.class
	}
	return out
}

// Info implements core.Source.
func (s *Source) Info() core.SourceInfo {
	info := core.SourceInfo{Format: "perfdata", Path: s.f.path, Hostname: s.f.meta.Hostname, Domain: "kernel",
		Arch: s.f.meta.Arch, Streams: max(s.f.meta.CPUsAvailable, 1), Bytes: s.f.size}
	if s.sc.start <= s.sc.end {
		info.Start, info.End = core.Time(s.sc.start), core.Time(s.sc.end)
	}
	return info
}

// Progress implements core.Source.
func (s *Source) Progress() (done, total int64) {
	return s.st.off - s.f.start, s.f.end - s.f.start
}

// Warnings implements core.Source. Past maxWarnings, one
// core.WarningMore warning counts the rest.
func (s *Source) Warnings() []core.Warning {
	out := append([]core.Warning(nil), s.warnings...)
	if s.q.late > 0 {
		out = append(out, core.Warning{Stream: -1, Count: s.q.late, Kind: "time-order",
			Message: fmt.Sprintf("%s: %d records older than records delivered before them (perf delivers them late too)", s.f.path, s.q.late)})
	}
	if s.dropped > 0 {
		out = append(out, core.Warning{Stream: -1, Count: s.dropped, Kind: core.WarningMore, Message: fmt.Sprintf("%d more warnings", s.dropped)})
	}
	return out
}

// Close implements core.Source.
func (s *Source) Close() error {
	s.st.close()
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}
