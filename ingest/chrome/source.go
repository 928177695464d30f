package chrome

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync/atomic"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/internal/tracefile"
)

// Options tunes [Open].
type Options struct {
	// TempDir holds the sort runs (the cache directory); "" means
	// os.TempDir(). Never the trace's directory. The file is unlinked as
	// soon as it is open where the system allows, else removed by Close.
	TempDir string
	// RunBytes is the memory given to one sorted run (default 32 MiB):
	// the first pass's memory bound.
	RunBytes int
	// Progress, if set, is called during the first pass (which Open
	// runs) with input bytes read and the input size.
	Progress func(done, total int64)
	// Context, if set, cancels the first pass: Open then returns its
	// error (checked at every read of the input and every 256 events).
	Context context.Context
}

const (
	defaultRunBytes = 32 << 20
	minRunBytes     = 4 << 10
	readBufSize     = 1 << 20
	maxEventBytes   = 64 << 20 // largest single event object
	mergeBufBudget  = 16 << 20 // read buffers of all runs together
	maxWarnings     = core.MaxListedWarnings
)

var errTooManyThreads = fmt.Errorf("more than %d distinct (pid, tid) pairs", maxThreads)

// Source reads a Chrome trace-event JSON file (array or object form,
// optionally gzip-compressed) as a [core.Source]: events in time order,
// ties in file order. It implements core.Source.
type Source struct {
	path    string
	size    int64
	cat     *catalog // read-only after the first pass: shared with clones
	sorted  *runsFile
	runs    []run
	readers []*runReader
	heap    mergeHeap
	total   int64 // events
	start   int64 // first event time (M events are delivered at it)
	end     int64 // last instant covered (ts or ts+dur)
	layout  uint32
	gzip    bool // the trace is gzip-compressed: its order is not persisted

	recorder *OrderWriter  // set by RecordOrder during the indexing pass
	ordered  *orderedState // set by OpenOrdered: events read by stored offset

	delivered int64
	seeked    bool // a Seek happened: the B/E balance check is off
	ev        core.Event
	fields    []core.Field
	rec       record
	cur       []byte // body of the current record
	curTS     int64
	done      bool

	depth     []int32 // open B slices per thread, first sequential pass only
	warnings  []core.Warning
	unmatched int64
	dropped   int64 // warnings past maxWarnings
}

var _ core.Source = (*Source)(nil)

// Open reads the whole trace once (sorting it into temporary runs) and
// returns a Source positioned before the first event.
func Open(path string, opts Options) (*Source, error) {
	f, err := tracefile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	s := &Source{path: path, size: st.Size(), cat: newCatalog(), start: 0}
	if err := s.sortPass(f, opts); err != nil {
		s.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// input wraps f, decompressing gzip (detected by its magic bytes), and
// counts the compressed bytes read for progress.
func input(f io.Reader, counter *countingReader) (io.Reader, bool, error) {
	counter.r = f
	br := bufio.NewReaderSize(counter, 64<<10)
	magic, _ := br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, true, fmt.Errorf("gzip: %w", err)
		}
		return zr, true, nil
	}
	return br, false, nil
}

type countingReader struct {
	r    io.Reader
	n    int64
	next int64 // when to report progress next
	fn   func(done, total int64)
	size int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.fn != nil && c.n >= c.next {
		c.fn(c.n, c.size)
		c.next = c.n + 4<<20
	}
	return n, err
}

// sortPass is the first pass: parse every event, fill the catalog, write
// the sorted runs.
func (s *Source) sortPass(f *os.File, opts Options) error {
	budget := opts.RunBytes
	if budget <= 0 {
		budget = defaultRunBytes
	}
	budget = max(budget, minRunBytes)
	dir := opts.TempDir
	if dir == "" {
		dir = os.TempDir()
	}
	tmp, err := os.CreateTemp(dir, "tracetui-chrome-*.run")
	if err != nil {
		return fmt.Errorf("sort space: %w", err)
	}
	s.sorted = &runsFile{f: tmp}
	s.sorted.refs.Store(1)
	if os.Remove(tmp.Name()) != nil {
		s.sorted.name = tmp.Name()
	}
	counter := &countingReader{fn: opts.Progress, size: s.size}
	in, gz, err := input(f, counter)
	s.gzip = gz
	if err != nil {
		return err
	}
	// Small traces get small buffers; the reader grows its buffer when an
	// event needs it (gzip input may be larger than the file).
	er := newEventReader(in, int(min(readBufSize, max(4<<10, 2*s.size))), maxEventBytes)
	er.ctx = opts.Context
	rw := newRunWriter(tmp, budget, s.size)
	var ev rawEvent
	var body []byte
	minTS, maxEnd := int64(1<<63-1), int64(-1<<63)
	for {
		if s.total%256 == 0 {
			if err := er.ctxErr(); err != nil {
				return err
			}
		}
		ok, err := er.next(&ev)
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		cls, overflow := s.cat.classOf(ev.name)
		thread, err := s.cat.threadOf(&ev)
		if err != nil {
			return fmt.Errorf("offset %d: %w", ev.offset, err)
		}
		ci := s.cat.classes[cls]
		if ev.args != nil {
			s.cat.noteArgs(ci, ev.args)
		}
		ts := ev.ts
		if ev.ph == 'M' {
			s.cat.noteMetadata(&ev, thread)
			ts = metadataTimeRaw
		} else {
			minTS = min(minTS, ts)
			maxEnd = max(maxEnd, ts)
			if ev.hasDur && ev.dur > 0 && ts <= 1<<62 && ev.dur <= 1<<62 {
				maxEnd = max(maxEnd, ts+ev.dur)
			}
		}
		body = appendBody(body[:0], &ev, cls, thread, overflow)
		if err := rw.add(ts, body); err != nil {
			return err
		}
		s.total++
	}
	if err := er.readErr; err != nil {
		if !errors.Is(err, gzip.ErrChecksum) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, gzip.ErrHeader) {
			return fmt.Errorf("reading: %w", err)
		}
		s.warn(core.Warning{Kind: "truncated", Message: fmt.Sprintf("compressed input damaged or cut short (%v); the events before are kept", err)})
	}
	if er.truncated != "" {
		s.warn(core.Warning{Kind: "truncated", Message: er.truncated})
	}
	if err := rw.close(); err != nil {
		return err
	}
	if opts.Progress != nil {
		opts.Progress(s.size, s.size)
	}
	if s.total > 0 && minTS > maxEnd { // only metadata events
		minTS, maxEnd = 0, 0
	}
	if s.total == 0 {
		minTS, maxEnd = 0, 0
	}
	s.start, s.end = minTS, maxEnd
	s.runs = rw.runs
	s.cat.finish()
	s.depth = make([]int32, len(s.cat.threads))
	s.layout = s.layoutHash()
	return s.openReaders()
}

// openReaders gives the source its own reader of every run, at the start.
func (s *Source) openReaders() error {
	perRun := max(mergeBufBudget/max(len(s.runs), 1), 4<<10)
	for _, r := range s.runs {
		size := int(min(int64(perRun), r.end-r.start+64))
		s.readers = append(s.readers, &runReader{f: s.sorted.f, run: r, maxBody: maxEventBytes + 1<<10, bufSize: size, buf: make([]byte, size)})
	}
	return s.seekRuns(nil)
}

// runsFile is the sorted runs' temporary file, shared by a source and its
// clones (all read it with ReadAt); the last Close closes it.
type runsFile struct {
	f    *os.File
	name string // set when the file could not be unlinked at once
	refs atomic.Int32
}

func (r *runsFile) release() error {
	if r.refs.Add(-1) > 0 {
		return nil
	}
	err := r.f.Close()
	if r.name != "" {
		if rerr := os.Remove(r.name); rerr != nil && err == nil {
			err = rerr
		}
	}
	return err
}

// Clone returns an independent source over the same sorted trace,
// positioned before the first event, without parsing or sorting again: the
// event table and each filter worker read the trace through clones of the
// source that indexed it. Clones are used by one goroutine each, like any
// source; the sorted file lives until the original and every clone are
// closed. A clone reports no warnings (the original's first pass has them).
func (s *Source) Clone() (core.Source, error) {
	if s.ordered != nil {
		return s.cloneOrdered()
	}
	if s.sorted == nil {
		return nil, errors.New("chrome: clone of a closed source")
	}
	s.sorted.refs.Add(1)
	c := &Source{path: s.path, size: s.size, cat: s.cat, sorted: s.sorted, runs: s.runs,
		total: s.total, start: s.start, end: s.end, layout: s.layout,
		seeked: true, // no balance check: the original's first pass made it
	}
	if err := c.openReaders(); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Info implements core.Source.
func (s *Source) Info() core.SourceInfo {
	return core.SourceInfo{
		Format: "chrome", Path: s.path, Streams: 1, Bytes: s.size,
		Start: core.Time(s.start), End: core.Time(s.end),
	}
}

// Events returns the number of events in the trace.
func (s *Source) Events() int64 { return s.total }

// Classes returns the event classes, indexed by ID.
func (s *Source) Classes() []*core.EventClass {
	out := make([]*core.EventClass, len(s.cat.classes))
	for i, c := range s.cat.classes {
		out[i] = &c.class
	}
	return out
}

// Next implements core.Source.
func (s *Source) Next() (*core.Event, error) {
	if s.ordered != nil {
		return s.nextOrdered()
	}
	if len(s.heap) == 0 {
		if !s.done {
			s.done = true
			s.finishChecks()
		}
		return nil, io.EOF
	}
	rr := s.heap[0]
	s.cur = append(s.cur[:0], rr.headBody...)
	s.curTS = rr.headTS
	if err := rr.advance(); err != nil {
		return nil, fmt.Errorf("%s: %w", s.path, err)
	}
	if !rr.ok {
		s.heap[0] = s.heap[len(s.heap)-1]
		s.heap = s.heap[:len(s.heap)-1]
	}
	s.heap.down(0)
	if err := decodeBody(s.cur, &s.rec); err != nil {
		return nil, fmt.Errorf("%s: %w", s.path, err)
	}
	if int(s.rec.class) >= len(s.cat.classes) || int(s.rec.thread) >= len(s.cat.threads) {
		return nil, fmt.Errorf("%s: %w", s.path, errBadRecord)
	}
	if s.recorder != nil && !s.seeked {
		s.recorder.add(s.rec.spanOff, s.rec.spanLen)
	}
	s.delivered++
	s.fill()
	if !s.seeked {
		s.checkBalance()
	}
	return &s.ev, nil
}

var phText [256][]byte

var bindEnclosingText = []byte("e")

func init() {
	for i := range phText {
		phText[i] = []byte{byte(i)}
	}
}

// fill builds the core.Event of the current record.
func (s *Source) fill() {
	r := &s.rec
	ci := s.cat.classes[r.class]
	t := s.curTS
	if t == metadataTimeRaw {
		t = s.start
	}
	s.ev.Time, s.ev.CPU, s.ev.Stream, s.ev.Class = core.Time(t), -1, 0, &ci.class
	n := len(ci.class.Fields)
	if cap(s.fields) < n {
		s.fields = make([]core.Field, n)
	}
	f := s.fields[:n]
	clear(f)
	if r.ph != 0 {
		f[fieldPh] = core.Field{Kind: core.FieldString, Bytes: phText[r.ph]}
	}
	if len(r.cat) > 0 {
		f[fieldCat] = core.Field{Kind: core.FieldString, Bytes: r.cat}
	}
	if r.hasDur {
		f[fieldDur] = core.Field{Kind: core.FieldFloat, Float: float64(r.dur) / 1000}
	}
	if len(r.id) > 0 {
		f[fieldID] = core.Field{Kind: core.FieldString, Bytes: r.id}
	}
	if r.thread != noThread {
		th := &s.cat.threads[r.thread]
		f[fieldPid], f[fieldTid], f[fieldComm], f[fieldProcname] = th.pidF, th.tidF, th.commF, th.procF
	}
	if r.bindEnclosing {
		f[fieldBP] = core.Field{Kind: core.FieldString, Bytes: bindEnclosingText}
	}
	if len(r.args) > 0 && n > numBaseFields {
		eachMember(r.args, func(key, val []byte) bool {
			if i, ok := ci.argIndex[string(key)]; ok {
				f[i] = argField(val)
			}
			return true
		})
	}
	s.ev.Fields = f
}

// argField converts one argument's raw JSON value to a field: integers,
// floats, strings (undecoded escapes are rare enough to keep raw),
// booleans as text, null as absent, objects and arrays as their JSON text.
func argField(val []byte) core.Field {
	switch c := val[0]; {
	case c == '"':
		return core.Field{Kind: core.FieldString, Bytes: val[1 : len(val)-1]}
	case c == '-' || (c >= '0' && c <= '9'):
		integer := true
		for _, d := range val[1:] {
			if d < '0' || d > '9' {
				integer = false
				break
			}
		}
		if integer {
			if v, err := strconv.ParseInt(string(val), 10, 64); err == nil {
				return core.Field{Kind: core.FieldInt, Int: v}
			}
		}
		if v, err := strconv.ParseFloat(string(val), 64); err == nil {
			return core.Field{Kind: core.FieldFloat, Float: v}
		}
	case c == 'n':
		return core.Field{}
	}
	return core.Field{Kind: core.FieldString, Bytes: val}
}

// Warnings implements core.Source.
func (s *Source) Warnings() []core.Warning { return s.warnings }

// Progress implements core.Source: the share of events delivered, in
// input bytes.
func (s *Source) Progress() (done, total int64) {
	if s.total == 0 {
		return s.size, s.size
	}
	return int64(float64(s.size) * float64(s.delivered) / float64(s.total)), s.size
}

// Close implements core.Source: it releases and removes the sort file.
func (s *Source) Close() error {
	if s.ordered != nil {
		return s.ordered.close()
	}
	if s.sorted == nil {
		return nil
	}
	err := s.sorted.release()
	s.sorted = nil
	return err
}
