package index

import (
	"context"
	"runtime/pprof"
	"slices"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/index/eventindex"
	"github.com/tracetui/tracetui/ingest/perfdata"
)

// eventReader is where the build takes the trace's events from, through
// the event index writer: on the build's goroutine ([directReader]), or
// decoded ahead on a goroutine of their own ([readAhead]). Either way the
// analyses see the same events in the same order, and the same trace
// facts at the first event, so the index has the same bytes.
type eventReader interface {
	// next returns the next event (valid until the following call), or
	// io.EOF after the last, or the error that stopped reading.
	next() (*core.Event, error)
	// progress is the source's progress as of the last event returned.
	progress() (done, total int64)
	// first returns the source's Info and, for a source that lists them,
	// its classes, as they were just after the first event was read.
	first() (core.SourceInfo, []*core.EventClass)
	// stop ends reading; the source and the writer are the caller's again.
	stop()
}

// newEventReader reads a CTF trace ahead on its own goroutine. It is safe
// there: nothing the analyses read of an event (its class's field names)
// changes after the event is handed over, since CTF classes come from the
// metadata. The ftrace text, Chrome and Pajé readers add field names to a
// class while reading. trace.dat classes are complete when published, but
// its kernel traces are light to analyse and heavy to decode (and to copy:
// a dozen fields an event), so that the copy cost more than the overlap
// gave: bigbuild.dat took 1.28 s of CPU instead of 1.01 s, and longer.
// They are read on the build's goroutine.
//
// A trace of less than readAheadMin bytes is read on the build's
// goroutine too: the stage's batches are fresh memory, whose first touch
// costs more than the overlap gives back on a short build (bug446190,
// 1.1 MB: 40 ms of its 160 ms of CPU went to filling batches).
//
// A perf.data file (ingest/perfdata) is read ahead too: its classes are
// made at open, and decoding its samples (the per-CPU streams merged, the
// tracepoints' fields) costs more than the analyses: on a 6.3 M-event
// recording of every scheduler, IRQ, timer, system call and workqueue
// event its index went from 3.80-3.81 to 3.35-3.40 s (perf script:
// 6.1 s), for 10-15 MB more.
//
// A source of call stacks is read on the build's goroutine whatever its
// format: its stack is the event's last returned by Next.
func newEventReader(ew *eventindex.Writer, src core.Source) eventReader {
	if hasStacks(src) {
		return &directReader{ew: ew, src: src}
	}
	switch src.(type) {
	case *ctf.Reader, *perfdata.Source:
		if _, total := src.Progress(); total >= readAheadMin {
			return startReadAhead(ew, src)
		}
	}
	return &directReader{ew: ew, src: src}
}

// hasStacks reports whether src is a core.Stacker whose events may carry
// call stacks (a perf.data file says whether it sampled any).
func hasStacks(src core.Source) bool {
	if _, ok := src.(core.Stacker); !ok {
		return false
	}
	if h, ok := src.(interface{ HasStacks() bool }); ok {
		return h.HasStacks()
	}
	return true
}

// readAheadMin is the trace size from which a CTF or perf.data trace is
// read ahead.
const readAheadMin = 32 << 20

// directReader reads the source on the caller's goroutine.
type directReader struct {
	ew  *eventindex.Writer
	src core.Source
}

func (d *directReader) next() (*core.Event, error)    { return d.ew.Next(d.src) }
func (d *directReader) progress() (done, total int64) { return d.src.Progress() }
func (d *directReader) first() (core.SourceInfo, []*core.EventClass) {
	return sourceFacts(d.src)
}
func (d *directReader) stop() {}

// sourceFacts returns src's Info and, if it lists them, its classes.
func sourceFacts(src core.Source) (core.SourceInfo, []*core.EventClass) {
	var classes []*core.EventClass
	if cl, ok := src.(classLister); ok {
		classes = cl.Classes()
	}
	return src.Info(), classes
}

// Read-ahead batches: readBatchLen events each, readAheadDepth of them
// (being filled, queued or being analysed): 16 k events, about 10 ms of
// analysis, which is how long the decoder may wait for a core when the
// tree side has it (the Go scheduler's time slice); with 2 k events the
// analyses waited for it 0.6 s of a gen200k build. A batch of a kernel
// trace takes about 200 KB (events, their fields, their strings), so the
// stage holds about 7 MB, whatever the trace's size.
const (
	readBatchLen   = 512
	readAheadDepth = 32
)

// eventBatch is a run of decoded events, copied out of the decoder's
// buffers.
type eventBatch struct {
	events []core.Event
	fields []core.Field
	bytes  []byte
	ends   []int32   // end of each event's fields in fields
	refs   []byteRef // the fields whose Bytes are in bytes
	err    error     // what ended reading after the events (io.EOF at the end)

	done, total int64 // the source's progress after the last event
	info        *sourceInfo
}

// byteRef says that fields[field].Bytes is bytes[off:off+n].
type byteRef struct{ field, off, n int32 }

// sourceInfo is what the analyses are chosen from.
type sourceInfo struct {
	info    core.SourceInfo
	classes []*core.EventClass
}

// add copies ev into the batch. The fields' slices are set by seal, once
// the batch's arrays no longer move.
func (bt *eventBatch) add(ev *core.Event) {
	e := *ev
	e.Fields = nil
	bt.events = append(bt.events, e)
	for _, f := range ev.Fields {
		if f.Bytes != nil {
			bt.refs = append(bt.refs, byteRef{int32(len(bt.fields)), int32(len(bt.bytes)), int32(len(f.Bytes))})
			bt.bytes = append(bt.bytes, f.Bytes...)
			f.Bytes = nil
		}
		bt.fields = append(bt.fields, f)
	}
	bt.ends = append(bt.ends, int32(len(bt.fields)))
}

// seal points each event at its fields and each field at its bytes.
func (bt *eventBatch) seal() {
	from := int32(0)
	for i, end := range bt.ends {
		bt.events[i].Fields = bt.fields[from:end:end]
		from = end
	}
	for _, r := range bt.refs {
		bt.fields[r.field].Bytes = bt.bytes[r.off : r.off+r.n : r.off+r.n]
	}
}

func (bt *eventBatch) reset() {
	bt.events, bt.fields, bt.bytes = bt.events[:0], bt.fields[:0], bt.bytes[:0]
	bt.ends, bt.refs, bt.err, bt.info = bt.ends[:0], bt.refs[:0], nil, nil
}

// readAhead decodes the trace, and writes the event index, on its own
// goroutine, handing the events over in batches through a bounded queue:
// the build's goroutine is left with the analyses (issue 16: decoding was
// a sixth of its time, the tree side waited for it).
type readAhead struct {
	full chan *eventBatch // filled batches, in trace order
	free chan *eventBatch // batches given back by the analysis side
	quit chan struct{}    // closed by stop
	done chan struct{}    // closed when the goroutine has returned

	cur         *eventBatch // the batch being analysed
	at          int         // index in cur of the next event
	fact        *sourceInfo
	err         error // the error after the last event, once reached
	done0, all0 int64 // the progress before the first batch
}

func startReadAhead(ew *eventindex.Writer, src core.Source) *readAhead {
	r := &readAhead{full: make(chan *eventBatch, readAheadDepth), free: make(chan *eventBatch, readAheadDepth),
		quit: make(chan struct{}), done: make(chan struct{})}
	r.done0, r.all0 = src.Progress()
	for range readAheadDepth {
		r.free <- &eventBatch{}
	}
	go func() {
		// A CPU profile of a build splits by stage (pprof -tagfocus).
		pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels("stage", "decode")))
		r.run(ew, src)
	}()
	return r
}

// run fills batches until the trace ends, reading fails or stop is called.
func (r *readAhead) run(ew *eventindex.Writer, src core.Source) {
	defer close(r.done)
	first := true
	for {
		var bt *eventBatch
		select {
		case bt = <-r.free:
		case <-r.quit:
			return
		}
		bt.reset()
		for len(bt.events) < readBatchLen {
			ev, err := ew.Next(src)
			if err != nil {
				bt.err = err
				break
			}
			bt.add(ev)
			if first { // as the analyses were chosen when read in sequence
				info, classes := sourceFacts(src)
				bt.info = &sourceInfo{info, slices.Clone(classes)}
				first = false
			}
		}
		bt.seal()
		bt.done, bt.total = src.Progress()
		select {
		case r.full <- bt:
		case <-r.quit:
			return
		}
		if bt.err != nil {
			return
		}
	}
}

func (r *readAhead) next() (*core.Event, error) {
	for r.cur == nil || r.at == len(r.cur.events) {
		if r.err != nil {
			return nil, r.err
		}
		if r.cur != nil {
			r.free <- r.cur // never blocks: there are readAheadDepth batches
		}
		r.cur, r.at = <-r.full, 0
		if r.cur.info != nil {
			r.fact = r.cur.info
		}
		r.err = r.cur.err
	}
	r.at++
	return &r.cur.events[r.at-1], nil
}

func (r *readAhead) progress() (done, total int64) {
	if r.cur == nil {
		return r.done0, r.all0
	}
	return r.cur.done, r.cur.total
}

func (r *readAhead) first() (core.SourceInfo, []*core.EventClass) {
	if r.fact == nil {
		return core.SourceInfo{}, nil
	}
	return r.fact.info, r.fact.classes
}

// stop ends the goroutine and waits for it: within one batch's decoding
// (about 50 µs) when it was reading.
func (r *readAhead) stop() {
	select {
	case <-r.quit:
	default:
		close(r.quit)
	}
	<-r.done
}
