package history

import (
	"io"
)

// HasMagic reports whether the file at path starts with an index file's
// magic: a tracetui index, perhaps damaged or of another version. The CLI
// overwrites only such files, and trace readers skip them.
func HasMagic(path string) bool {
	f, err := openRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [len(magic)]byte
	if _, err := io.ReadFull(f, b[:]); err != nil {
		return false
	}
	return b == magic
}
