package eventindex

import "errors"

// ErrCorrupt: the index bytes are not a valid event index (bad magic,
// checksum, sizes or offsets). The caller rebuilds the index.
var ErrCorrupt = errors.New("corrupt event index")

// ErrVersion: the index was written by another format version.
var ErrVersion = errors.New("event index of another version")

// ErrRange: a rank or entry past the end.
var ErrRange = errors.New("event rank out of range")
