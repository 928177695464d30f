package core

// Source is a trace reader: events in non-decreasing time order (ties
// broken deterministically, e.g. by stream index), with positions that can
// be saved and resumed so any event is reachable without decoding from the
// start.
//
// A Source is used by one goroutine at a time. The event returned by Next
// and everything it references are valid only until the next call to Next
// or Seek.
type Source interface {
	// Info describes the trace. Counts that need a full pass (events) may
	// be zero until the source has been read to the end.
	Info() SourceInfo
	// Next returns the next event, or io.EOF after the last one. Any other
	// error means the trace is invalid at that point; its message says
	// where (file, offset) and why.
	Next() (*Event, error)
	// AppendContents appends the event's fields as `tracetui dump` prints
	// them after the event name (for CTF: exactly babeltrace2's text).
	// ev must be the event last returned by Next.
	AppendContents(dst []byte, ev *Event) []byte
	// Checkpoint appends an encoding of the current position (just after
	// the event last returned by Next) to dst. Seek(checkpoint) followed
	// by Next returns the same events as the original pass did.
	Checkpoint(dst []byte) []byte
	// Seek resumes reading at a position saved by Checkpoint on a source
	// of the same trace. A malformed checkpoint is an error, not a panic.
	Seek(checkpoint []byte) error
	// Progress returns bytes consumed and total bytes, for progress bars.
	Progress() (done, total int64)
	// Warnings returns the problems met so far that did not stop reading
	// (discarded events, skipped lines...).
	Warnings() []Warning
	// Close releases the files.
	Close() error
}

// Stacker is a source whose events may carry a sampled call stack
// (perf.data's samples recorded with -g). The index stores the stacks
// while it reads the events (ingest/index/profile).
type Stacker interface {
	// AppendStack appends the function names of the call stack of the
	// event last returned by Next, leaf first; nothing for an event
	// without one.
	AppendStack(dst []string) []string
}

// SourceInfo describes an opened trace.
type SourceInfo struct {
	Format   string // "ctf", "chrome", "paje", "tracedat", "ftrace"
	Path     string // as given to the reader
	Hostname string // from the trace's environment, "" if unknown
	Domain   string // "kernel", "ust", ... if the trace says
	Arch     string // machine architecture as `uname -m` prints it ("x86_64", "aarch64"...), "" if unknown
	Streams  int    // number of streams (CTF data files, CPUs...)
	Bytes    int64  // total size of the trace's files
	Start    Time   // first event time, if known without a full pass
	End      Time   // last event time, if known without a full pass
}

// WarningCount returns how many warnings ws stands for: readers keep the
// first messages and sum the rest up in one "more-warnings" warning whose
// Count is the number left out.
func WarningCount(ws []Warning) int64 {
	n := int64(0)
	for _, w := range ws {
		if w.Kind == WarningMore {
			n += w.Count
		} else {
			n++
		}
	}
	return n
}

// WarningMore is the Kind of the warning that stands for the messages a
// reader left out past its limit.
const WarningMore = "more-warnings"

// MaxListedWarnings is how many warnings a reader or an analysis lists
// one by one; the rest are counted in one WarningMore.
const MaxListedWarnings = 100

// Warning is a problem in a trace that did not stop reading it.
type Warning struct {
	Time    Time   // where in the trace, 0 if not tied to a time
	Stream  int32  // stream index, -1 if not tied to a stream
	Count   int64  // how many items it concerns (discarded events...), or 0
	Kind    string // short machine-readable class: "discarded", "skipped-line", ...
	Message string // one line for people
}
