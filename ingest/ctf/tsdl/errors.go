package tsdl

import (
	"errors"
	"fmt"
)

// ErrInvalid is wrapped by every error about invalid metadata.
var ErrInvalid = errors.New("invalid CTF metadata")

// Error is a problem in the metadata text, with the line it was found on
// (1-based; 0 when not tied to a line).
type Error struct {
	Line   int
	Byte   int64 // CTF 2: 1 + the byte offset in the metadata stream, 0 if unknown
	Reason string
}

// Error formats the error as "metadata line N: reason" (CTF 2: "metadata
// byte N: reason", N counted from 0).
func (e *Error) Error() string {
	if e.Byte > 0 {
		return fmt.Sprintf("metadata byte %d: %s", e.Byte-1, e.Reason)
	}
	if e.Line > 0 {
		return fmt.Sprintf("metadata line %d: %s", e.Line, e.Reason)
	}
	return "metadata: " + e.Reason
}

// Unwrap makes errors.Is(err, ErrInvalid) true.
func (e *Error) Unwrap() error { return ErrInvalid }

func errorf(line int, format string, a ...any) *Error {
	return &Error{Line: line, Reason: fmt.Sprintf(format, a...)}
}
