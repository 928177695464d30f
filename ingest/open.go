package ingest

import (
	"fmt"
	"os"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/ctf"
)

// Format is a trace format tracetui can read: how to recognise it and how
// to open it. Formats are tried in registry order by [OpenSource] when no
// format is named, so put the most specific detectors first.
type Format struct {
	// Name is the format's name ("ctf", "chrome", "paje", "ftrace"), as
	// given to OpenSource and reported in core.SourceInfo.Format.
	Name string
	// Detect reports whether the file or directory at path looks like
	// this format. It must be cheap (read a few bytes at most) and never
	// fail loudly: an unreadable path is simply not detected.
	Detect func(path string) bool
	// Open opens the trace.
	Open func(path string) (core.Source, error)
	// Analyses, if not nil, returns the format's own state analyses
	// (Chrome, Pajé), run besides the kernel and call-stack analyses
	// that any format's events may feed.
	Analyses func(sink core.StateSink) []Analysis
}

// Formats is the registry of trace formats, in detection order. Other
// readers add their entry here.
var Formats = []Format{
	{Name: "ctf", Detect: ctf.IsTrace, Open: openCTF},
}

func openCTF(path string) (core.Source, error) {
	r, err := ctf.Open(path)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// OpenSource opens the trace at path with the named format, or, when
// format is "", with the first format of [Formats] that detects it.
func OpenSource(path, format string) (core.Source, error) {
	if format != "" {
		for _, f := range Formats {
			if f.Name == format {
				return f.Open(path)
			}
		}
		return nil, fmt.Errorf("unknown trace format %q (known: %s)", format, formatNames())
	}
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	for _, f := range Formats {
		if f.Detect(path) {
			return f.Open(path)
		}
	}
	return nil, fmt.Errorf("%s: not a trace in a known format (%s)", path, formatNames())
}

// formatNamed returns the registered format called name, or nil.
func formatNamed(name string) *Format {
	for i := range Formats {
		if Formats[i].Name == name {
			return &Formats[i]
		}
	}
	return nil
}

func formatNames() string {
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}
