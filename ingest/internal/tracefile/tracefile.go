// Package tracefile checks what a trace path names before a reader opens
// it, and recognises content no text reader should parse.
//
// Opening a named pipe with no writer blocks in open(2) for ever, and a
// pipe or a device cannot be read twice (the line readers make two
// passes) nor fingerprinted for the index cache (its size and time say
// nothing of its content), so only regular files and directories (CTF
// traces) are accepted: [Open] and [Check] refuse the rest before any
// open, with a message saying what to do.
package tracefile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// ErrNotRegular is wrapped by the errors for paths that name neither a
// regular file nor a directory (pipes, devices, sockets).
var ErrNotRegular = errors.New("not a regular file")

// ErrBinary is wrapped by [Text]'s errors.
var ErrBinary = errors.New("binary data where text was expected")

// Check stats path and refuses anything but a regular file or a
// directory. It returns what it found.
func Check(path string) (fs.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Mode().IsRegular() || st.IsDir() {
		return st, nil
	}
	return nil, notRegular(path, st.Mode())
}

// Open opens a regular file for reading; anything else is refused before
// it is opened.
func Open(path string) (*os.File, error) {
	st, err := Check(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a file", path)
	}
	// Non-blocking, and checked again on the opened file: a FIFO put at
	// path after the check must neither block open(2) nor be read.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if st, err = f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err != nil {
			return nil, err
		}
		return nil, notRegular(path, st.Mode())
	}
	return f, nil
}

func notRegular(path string, m fs.FileMode) error {
	what := "a special file"
	switch {
	case m&fs.ModeNamedPipe != 0 && (strings.HasPrefix(path, "/dev/fd/") || strings.HasPrefix(path, "/proc/")):
		what = "a pipe (process substitution such as <(cat trace))"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		what = "a device"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	}
	return fmt.Errorf("%s is %s: %w; tracetui reads a trace more than once and keys its index on the file, so save the trace to a file first (cat %s > trace) and open that", path, what, ErrNotRegular, path)
}

// traceDatMagic starts every trace-cmd trace.dat file.
const traceDatMagic = "\x17\x08\x44tracing"

// IsTraceDat reports whether head (the first bytes of a file) is the
// start of a trace-cmd trace.dat file.
func IsTraceDat(head []byte) bool { return bytes.HasPrefix(head, []byte(traceDatMagic)) }

// Text returns an error wrapping [ErrBinary] when head (the first bytes of
// a file) is not text: a trace.dat file (named, with the command that
// prints it as text) or any content with NUL bytes.
func Text(path string, head []byte) error {
	if IsTraceDat(head) {
		return fmt.Errorf("%s is a trace-cmd trace.dat file: %w; print it as text with `trace-cmd report %s > trace.txt` and open trace.txt", path, ErrBinary, path)
	}
	if i := bytes.IndexByte(head, 0); i >= 0 {
		return fmt.Errorf("%s: %w (a NUL byte at offset %d): not a text trace; check the file, or name its format with --format", path, ErrBinary, i)
	}
	return nil
}
