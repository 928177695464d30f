package ingest

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/chrome"
	"github.com/tracetui/tracetui/ingest/ctf"
	"github.com/tracetui/tracetui/ingest/ftrace"
	"github.com/tracetui/tracetui/ingest/internal/lines"
	"github.com/tracetui/tracetui/ingest/internal/tracefile"
	"github.com/tracetui/tracetui/ingest/paje"
	"github.com/tracetui/tracetui/ingest/perfdata"
	"github.com/tracetui/tracetui/ingest/tracedat"
)

// Format is a trace format tracetui can read: how to recognise it, how to
// open it, and its version in the index fingerprint.
type Format struct {
	// Name is the format's name ("ctf", "chrome", "paje", "tracedat", "ftrace"), as
	// given to OpenSource and reported in core.SourceInfo.Format.
	Name string
	// Detect reports whether the file or directory at path looks like
	// this format, from its content (never its name). It must be cheap
	// (read a few KB at most) and never fail loudly: an unreadable path is
	// simply not detected.
	Detect func(path string) bool
	// Open opens the trace.
	Open func(path string, env OpenEnv) (core.Source, error)
	// Version changes whenever what the reader gives the index changes
	// (its events, its checkpoints, the state it keeps there); it is part
	// of the index fingerprint (see [Versions]), so old indexes are
	// rebuilt.
	Version int
}

// OpenEnv is what a reader may use while opening a trace.
type OpenEnv struct {
	// TempDir is scratch space for readers that need it (Chrome sorts its
	// events there): the index's directory, never the trace's. "" means
	// the system's temporary directory.
	TempDir string
	// Progress, if set, receives the progress of work done while opening
	// (bytes read of the trace), for readers whose Open reads it all.
	Progress func(done, total int64)
	// Context, if set, cancels the readers that read the whole trace
	// while opening (Chrome's sort, the text formats' first pass) and
	// their later reading.
	Context context.Context
	// Indexed says the reader will only be positioned with Seek on the
	// checkpoints of a current index whose build needs no first pass to
	// be reproduced (see [ftrace.Options.Indexed]): readers that can skip
	// their first pass then do.
	Indexed bool
	// Pages says the reader serves the event table and its filters: it is
	// positioned with Seek and read a page of events at a time, so it
	// need not read far ahead (CTF: small windows, see [ctf.Options]).
	Pages bool
	// State is what the index keeps for the reader (see [stateKeeper]),
	// with Indexed.
	State []byte
}

// formats returns the registry of trace formats, in detection order: the
// most specific detectors first (a CTF directory, then the text formats
// whose first lines say what they are). A function, so no caller can
// change the registry.
func formats() []Format {
	return []Format{
		{Name: "ctf", Detect: ctf.IsTrace, Open: func(path string, env OpenEnv) (core.Source, error) {
			return nonNil(ctf.OpenOptions(path, ctf.Options{Pages: env.Pages, Metadata: env.State}))
		}, Version: 1},
		{Name: "paje", Detect: detected(paje.Detect), Open: func(path string, env OpenEnv) (core.Source, error) {
			return nonNil(paje.Open(path, paje.Options{Context: env.Context}))
		}, Version: 1},
		{Name: "chrome", Detect: detected(chrome.Detect), Open: func(path string, env OpenEnv) (core.Source, error) {
			return nonNil(chrome.Open(path, chrome.Options{TempDir: env.TempDir, Progress: env.Progress, Context: env.Context}))
		}, Version: chrome.OrderVersion},
		{Name: "tracedat", Detect: detected(tracedat.Detect), Open: func(path string, env OpenEnv) (core.Source, error) {
			return nonNil(tracedat.Open(path, tracedat.Options{Indexed: env.Indexed, State: env.State}))
		}, Version: tracedat.Version},
		{Name: "perfdata", Detect: detected(perfdata.Detect), Open: func(path string, env OpenEnv) (core.Source, error) {
			return nonNil(perfdata.Open(path, perfdata.Options{Context: env.Context, Indexed: env.Indexed, State: env.State}))
		}, Version: perfdata.Version},
		{Name: "ftrace", Detect: detected(ftrace.Detect), Open: func(path string, env OpenEnv) (core.Source, error) {
			return nonNil(ftrace.Open(path, ftrace.Options{Context: env.Context, Indexed: env.Indexed}))
		}, Version: 1},
	}
}

// nonNil turns a typed nil reader into a nil interface on error, so
// callers can test the source against nil.
func nonNil[S core.Source](s S, err error) (core.Source, error) {
	if err != nil {
		return nil, err
	}
	return s, nil
}

// detected adapts a reader's Detect, whose error (an unreadable file) only
// means "not this format" here.
func detected(detect func(string) (bool, error)) func(string) bool {
	return func(path string) bool {
		ok, err := detect(path)
		return ok && err == nil
	}
}

// OpenSource opens the trace at path with the named format, or, when
// format is "", with the first registered format that detects it.
func OpenSource(path, format string, env OpenEnv) (core.Source, error) {
	if format != "" {
		if f := formatNamed(format); f != nil {
			return f.Open(path, env)
		}
		return nil, fmt.Errorf("unknown trace format %q (known: %s)", format, formatNames())
	}
	if _, err := tracefile.Check(path); err != nil {
		return nil, err
	}
	for _, f := range formats() {
		if f.Detect(path) {
			return f.Open(path, env)
		}
	}
	if head, err := lines.Head(path, 16); err == nil && tracefile.IsTraceDat(head) {
		return nil, fmt.Errorf("%s is a trace-cmd trace.dat file, which this version cannot read: print it as text with `trace-cmd report %s > trace.txt` and open trace.txt", path, path)
	}
	return nil, fmt.Errorf("%s: not a trace in a known format (%s); name one with --format", path, formatNames())
}

// formatNamed returns the registered format called name, or nil.
func formatNamed(name string) *Format {
	for _, f := range formats() {
		if f.Name == name {
			return &f
		}
	}
	return nil
}

// FormatNames returns the names of the registered formats, in detection
// order (for help texts and error messages).
func FormatNames() []string {
	var names []string
	for _, f := range formats() {
		names = append(names, f.Name)
	}
	return names
}

func formatNames() string { return strings.Join(FormatNames(), ", ") }

// Versions names every registered format with its version, for the index
// fingerprint: adding a format or changing one's version changes it.
func Versions() string {
	var b strings.Builder
	for _, f := range formats() {
		if b.Len() > 0 {
			b.WriteByte('-')
		}
		b.WriteString(f.Name + strconv.Itoa(f.Version))
	}
	return b.String()
}
