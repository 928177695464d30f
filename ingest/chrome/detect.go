package chrome

import (
	"bytes"
	"compress/gzip"
	"io"

	"github.com/tracetui/tracetui/ingest/internal/tracefile"
)

// detectBytes is how much of the (decompressed) start of a file Detect
// looks at.
const detectBytes = 8 << 10

// Detect reports whether the file at path holds a Chrome trace-event JSON
// trace, by content only: optional gzip, optional UTF-8 BOM, then either
// '[' followed by an object with a "ph", "ts" or "name" member, or '{'
// with a "traceEvents" member in the first few KB.
func Detect(path string) (bool, error) {
	f, err := tracefile.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	head := make([]byte, detectBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return false, err
	}
	head = head[:n]
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return false, err
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			return false, nil
		}
		head = make([]byte, detectBytes)
		n, _ = io.ReadFull(zr, head)
		head = head[:n]
	}
	return detectHead(head), nil
}

// detectHead decides on the first bytes of the JSON text.
func detectHead(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	i := skipSpace(b, 0)
	if i >= len(b) {
		return false
	}
	switch b[i] {
	case '[':
		j := skipSpace(b, i+1)
		if j >= len(b) {
			return true // "[" alone: an empty trace being written
		}
		if b[j] == ']' {
			return true
		}
		if b[j] != '{' {
			return false
		}
		rest := b[j:]
		return bytes.Contains(rest, []byte(`"ph"`)) || bytes.Contains(rest, []byte(`"ts"`)) || bytes.Contains(rest, []byte(`"name"`))
	case '{':
		return bytes.Contains(b[i:], []byte(`"traceEvents"`))
	}
	return false
}
