package ctf2

import (
	"fmt"

	"github.com/tracetui/tracetui/ingest/ctf/tsdl"
)

// Error is invalid or unsupported CTF 2 metadata, with the byte offset
// (from the start of the metadata stream) of the value at fault.
type Error struct {
	Offset int64
	Reason string
}

func (e *Error) Error() string {
	return fmt.Sprintf("CTF 2 metadata, byte %d: %s", e.Offset, e.Reason)
}

// Unwrap makes errors.Is(err, tsdl.ErrInvalid) true, as for TSDL.
func (e *Error) Unwrap() error { return tsdl.ErrInvalid }

func errorf(off int64, format string, a ...any) error {
	return &Error{Offset: off, Reason: fmt.Sprintf(format, a...)}
}
