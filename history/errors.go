package history

import "errors"

// Errors returned by [Open] and by queries on a damaged file. They are
// distinguishable with errors.Is; the wrapped message says what was wrong.
// Every one of them means the same thing to a caller: the index cannot be
// used as it is, rebuild it from the trace.
var (
	// ErrNotIndex: the file is not a tracetui index (foreign file, bad magic).
	ErrNotIndex = errors.New("not a tracetui index")
	// ErrVersion: the file is an index of an older or newer format version.
	ErrVersion = errors.New("index format version not supported")
	// ErrCorrupt: a checksum or a structural check failed.
	ErrCorrupt = errors.New("index is corrupt")
	// ErrTruncated: the file is shorter than its header says.
	ErrTruncated = errors.New("index is truncated")
	// ErrNoSection: [Tree.Section] was asked for a name the file does not hold.
	ErrNoSection = errors.New("no such section")
	// ErrTreeClosed: a query on a [Tree] after [Tree.Close].
	ErrTreeClosed = errors.New("index already closed")
)
