package ctf

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"

	"github.com/tracetui/tracetui/core"
)

// Reader reads a CTF trace directory, or a directory holding several
// traces (an LTTng session's kernel/ and ust/ traces), as one timeline:
// the events of all its streams merged by time, ties broken by stream
// index. It implements [core.Source].
type Reader struct {
	path     string
	traces   []*traceInfo
	streams  []*stream
	classes  []*core.EventClass
	heap     []heapEntry // streams with a decoded head event, min-heap on (time, index)
	last     int32       // stream of the event last returned, -1
	started  bool
	err      error          // sticky decoding error
	warnings []core.Warning // see Warnings
	warnOnce sync.Once
	info     core.SourceInfo
}

var _ core.Source = (*Reader)(nil)

// Options tune how a Reader reads.
type Options struct {
	// Pages: the reader is positioned with Seek and read a page of
	// events at a time (the browser's event table). Each stream then
	// reads through a window of minWindow bytes that grows when an event
	// does not fit, not windowBudget shared by the streams: opening the
	// table of a 4-stream trace allocated 1 MB of windows (fresh pages at
	// 20 to 35 us each on this VM: half of its first frame).
	Pages bool
	// Metadata, when not nil, is what [Reader.IndexState] returned when
	// the trace was indexed: the parsed metadata of its directories,
	// used instead of reading and parsing their metadata files. Bytes
	// that do not decode, or a directory they do not name, fall back to
	// the file.
	Metadata []byte
}

// Open opens the CTF trace at path: a trace directory (with a metadata
// file), or a directory searched recursively for trace directories. It
// reads the metadata and the packet headers of every stream (the packet
// index), not the events.
func Open(path string) (*Reader, error) { return OpenOptions(path, Options{}) }

// OpenOptions is [Open] with options.
func OpenOptions(path string, o Options) (*Reader, error) {
	dirs, err := FindTraces(path)
	if err != nil {
		return nil, fmt.Errorf("ctf: %w", err)
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("ctf: %s: no CTF trace (no directory holding a metadata file)", path)
	}
	r := &Reader{path: path, last: -1}
	stated := statedMetadata(o.Metadata)
	for _, dir := range dirs {
		rel, err := filepath.Rel(path, dir)
		if err != nil || rel == "." {
			rel = ""
		}
		tr, streams, err := openTrace(dir, rel, int32(len(r.streams)), stated[rel])
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("ctf: %w", err)
		}
		r.traces = append(r.traces, tr)
		r.streams = append(r.streams, streams...)
	}
	r.init(o)
	return r, nil
}

// init finishes opening: window sizes, class ids, info (the warnings are
// made when asked).
func (r *Reader) init(o Options) {
	win := min(max(windowBudget/int64(max(len(r.streams), 1)), minWindow), maxWindow)
	if o.Pages {
		win = minWindow
	}
	for _, s := range r.streams {
		s.window = win
	}
	// Dense event class ids across traces and stream classes.
	for _, tr := range r.traces {
		for _, sp := range tr.plan.streams {
			for _, ep := range sp.events {
				ep.class.ID = len(r.classes)
				r.classes = append(r.classes, ep.class)
			}
		}
	}
	r.info = r.describe()
}

func (r *Reader) describe() core.SourceInfo {
	info := core.SourceInfo{Format: "ctf", Path: r.path, Streams: len(r.streams)}
	for _, tr := range r.traces {
		if info.Hostname == "" && tr.hasHost {
			info.Hostname = tr.hostname
		}
		if info.Domain == "" {
			info.Domain = tr.domain
		}
	}
	first := true
	for _, s := range r.streams {
		info.Bytes += s.size
		sp := s.sp
		if sp == nil || sp.clock == nil {
			continue
		}
		for _, p := range s.packets {
			if p.flags&pktHasBegin != 0 {
				if t, ok := sp.conv.ns(p.begin); ok && (first || t < info.Start) {
					info.Start = t
					if first {
						info.End = t
					}
					first = false
				}
			}
			if p.flags&pktHasEnd != 0 {
				if t, ok := sp.conv.ns(p.end); ok && (first || t > info.End) {
					info.End = t
					if first {
						info.Start = t
					}
					first = false
				}
			}
		}
	}
	return info
}

// Info describes the trace; Start and End come from the packet index.
func (r *Reader) Info() core.SourceInfo { return r.info }

// Classes returns every event class of the trace, indexed by ID.
func (r *Reader) Classes() []*core.EventClass { return r.classes }

// Warnings returns the discarded events and packets the tracer reported
// (one warning per report, as babeltrace2 prints them).
func (r *Reader) Warnings() []core.Warning {
	// Computed when first asked (the index's build asks; the event
	// table's readers do not): one per packet that lost events, a
	// formatted message each, 3 ms of the first frame of hello-lost.
	r.warnOnce.Do(func() { r.warnings = r.discardWarnings() })
	return r.warnings
}

// Next returns the next event in time order, or io.EOF.
func (r *Reader) Next() (*core.Event, error) {
	if r.err != nil {
		return nil, r.err
	}
	if !r.started {
		r.started = true
		r.heap = r.heap[:0]
		for i, s := range r.streams {
			if s.eof {
				continue
			}
			if !s.ready {
				if err := s.next(); err != nil {
					r.err = err
					return nil, err
				}
			}
			s.ready = false
			if !s.eof {
				r.push(int32(i))
			}
		}
	} else if r.last >= 0 {
		s := r.streams[r.last]
		if err := s.next(); err != nil {
			r.err = err
			return nil, err
		}
		if s.eof {
			r.pop()
		} else {
			h := r.heap
			h[0].t = s.ev.Time
			// Often the same stream is still first: two comparisons.
			if n := len(h); n > 1 && (less(h[1], h[0]) || n > 2 && less(h[2], h[0])) {
				r.down(0)
			}
		}
	}
	if len(r.heap) == 0 {
		r.last = -1
		return nil, io.EOF
	}
	r.last = r.heap[0].i
	return &r.streams[r.last].ev, nil
}

// heapEntry is a stream in the merge, keyed by its head event's time.
type heapEntry struct {
	t core.Time
	i int32
}

// less orders streams by their head event: time, then stream index.
func less(a, b heapEntry) bool {
	return a.t < b.t || (a.t == b.t && a.i < b.i)
}

func (r *Reader) push(i int32) {
	r.heap = append(r.heap, heapEntry{r.streams[i].ev.Time, i})
	j := len(r.heap) - 1
	for j > 0 {
		p := (j - 1) / 2
		if !less(r.heap[j], r.heap[p]) {
			break
		}
		r.heap[j], r.heap[p] = r.heap[p], r.heap[j]
		j = p
	}
}

func (r *Reader) pop() {
	n := len(r.heap) - 1
	r.heap[0] = r.heap[n]
	r.heap = r.heap[:n]
	if n > 0 {
		r.down(0)
	}
}

func (r *Reader) down(j int) {
	h := r.heap
	n := len(h)
	for {
		l := 2*j + 1
		if l >= n {
			return
		}
		m := l
		if l+1 < n && less(h[l+1], h[l]) {
			m = l + 1
		}
		if !less(h[m], h[j]) {
			return
		}
		h[j], h[m] = h[m], h[j]
		j = m
	}
}

// Progress returns the bytes of data streams consumed and their total.
func (r *Reader) Progress() (done, total int64) {
	for _, s := range r.streams {
		total += s.size
		switch {
		case s.eof:
			done += s.size
		case s.cur >= 0:
			done += s.packets[s.cur].offset + s.evStart/8
		}
	}
	return done, total
}

// Close closes the data files.
func (r *Reader) Close() error {
	var errs []error
	for _, s := range r.streams {
		if s.f != nil {
			errs = append(errs, s.f.Close())
			s.f = nil
		}
	}
	r.err = errors.New("ctf: reader closed")
	return errors.Join(errs...)
}

// Hostname returns the hostname of the trace an event comes from ("" if
// its environment has none), for dumps of multi-trace directories.
func (r *Reader) Hostname(ev *core.Event) (string, bool) {
	if ev == nil || ev.Stream < 0 || int(ev.Stream) >= len(r.streams) {
		return "", false
	}
	tr := r.streams[ev.Stream].tr
	return tr.label, tr.label != ""
}

// HasTimestamp reports whether ev has a time: false for streams without
// a clock, whose events babeltrace2 prints without one (their Time is 0).
func (r *Reader) HasTimestamp(ev *core.Event) bool {
	if ev == nil || ev.Stream < 0 || int(ev.Stream) >= len(r.streams) {
		return false
	}
	return r.streams[ev.Stream].sp.clock != nil
}

// StreamPath returns the file of stream i.
func (r *Reader) StreamPath(i int) string { return r.streams[i].path }

// PacketInfo is one entry of a stream's packet index.
type PacketInfo struct {
	Offset      int64     // byte offset in the stream file
	Size        int64     // packet size in bytes
	ContentBits int64     // content size in bits
	Begin, End  core.Time // timestamp_begin and timestamp_end (if HasTimes)
	HasTimes    bool
	Discarded   uint64 // events_discarded counter snapshot
	CPU         int32  // cpu_id, -1 if none
	Events      int64  // events in the packet, -1 until a pass decoded it
}

// Packets returns the packet index of stream i.
func (r *Reader) Packets(i int) []PacketInfo {
	s := r.streams[i]
	out := make([]PacketInfo, len(s.packets))
	for j, p := range s.packets {
		pi := PacketInfo{Offset: p.offset, Size: p.size, ContentBits: p.content, Discarded: p.discarded, CPU: p.cpu, Events: p.events}
		if s.sp.clock != nil && p.flags&pktHasBegin != 0 && p.flags&pktHasEnd != 0 {
			b, ok1 := s.sp.conv.ns(p.begin)
			e, ok2 := s.sp.conv.ns(p.end)
			pi.Begin, pi.End, pi.HasTimes = b, e, ok1 && ok2
		}
		out[j] = pi
	}
	return out
}

// UserAttributes returns the CTF 2 user attributes (JSON text, "" when
// none) of the trace and of the event record class of ev, which must be
// the event last returned by Next: what a details pane shows beside the
// fields. CTF 1.8 traces have none.
func (r *Reader) UserAttributes(ev *core.Event) (trace, event string) {
	if ev == nil || ev.Stream < 0 || int(ev.Stream) >= len(r.streams) {
		return "", ""
	}
	s := r.streams[ev.Stream]
	if &s.ev != ev || s.ep == nil {
		return "", ""
	}
	return s.tr.plan.meta.Attributes, s.ep.meta.Attributes
}
