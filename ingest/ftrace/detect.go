package ftrace

import (
	"bytes"

	"github.com/tracetui/tracetui/ingest/internal/lines"
)

const detectBytes = 16 << 10

// Detect reports whether the file at path is an ftrace text capture, by
// content: a "# tracer:" header (/sys/kernel/tracing/trace), or event
// lines in the first few KB parsing as ftrace's (trace-cmd report, whose
// header lines "cpus=N" and "version = N" are allowed before them).
func Detect(path string) (bool, error) {
	head, err := lines.Head(path, detectBytes)
	if err != nil {
		return false, err
	}
	return detectHead(head), nil
}

func detectHead(b []byte) bool {
	if bytes.HasPrefix(b, []byte("# tracer: ")) {
		return true
	}
	lines := bytes.Split(b, []byte("\n"))
	if len(b) == detectBytes && len(lines) > 1 {
		lines = lines[:len(lines)-1] // the last one may be cut
	}
	var l line
	good, bad := 0, 0
	for _, ln := range lines {
		t := bytes.TrimSpace(ln)
		switch {
		case len(t) == 0 || t[0] == '#':
			continue
		case bytes.HasPrefix(t, []byte("cpus=")) || bytes.HasPrefix(t, []byte("version = ")) || bytes.HasPrefix(t, []byte("CPU")):
			continue
		}
		if parseLine(ln, &l) == nil {
			good++
		} else {
			bad++
		}
		if good+bad >= 32 {
			break
		}
	}
	return good > 0 && good >= 4*bad
}
