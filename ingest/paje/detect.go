package paje

import (
	"bytes"

	"github.com/tracetui/tracetui/ingest/internal/lines"
)

const detectBytes = 8 << 10

// Detect reports whether the file at path is a Pajé trace, by content:
// the first line that is neither empty nor a '#' comment starts a
// "%EventDef" block.
func Detect(path string) (bool, error) {
	head, err := lines.Head(path, detectBytes)
	if err != nil {
		return false, err
	}
	return detectHead(head), nil
}

func detectHead(b []byte) bool {
	for len(b) > 0 {
		ln := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			ln, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		t := bytes.TrimSpace(ln)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		f := bytes.Fields(t[1:])
		return t[0] == '%' && len(f) > 0 && string(f[0]) == "EventDef"
	}
	return false
}
