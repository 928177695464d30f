package core

import "strconv"

// FormatAddress prints a code address the one way tracetui shows them
// (details line and pane, Gantt rows, call tree, Threads/<tid> of
// user-space traces): "0x" and lowercase hexadecimal, without padding,
// so that the same address reads the same everywhere.
func FormatAddress(addr uint64) string { return "0x" + strconv.FormatUint(addr, 16) }

// FrameText prints a call-stack frame without symbols: a function name as
// it is, an address (an integer frame) with [FormatAddress].
func FrameText(v Value) string {
	if v.Kind() == KindInt64 || v.Kind() == KindInt32 {
		return FormatAddress(uint64(v.Int()))
	}
	return v.String()
}

// FrameLabeler names a call-stack frame value of a thread (its
// Threads/<id> key): a symbol for an address, the name itself for a
// string. The trace that knows its symbols makes one; the call tree and
// the browser use it.
type FrameLabeler func(thread Key, v Value) string
