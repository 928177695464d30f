package profile

import "errors"

// ErrCorrupt: the section's bytes are not a valid profile (bad magic,
// checksum, sizes or values). The caller rebuilds the index.
var ErrCorrupt = errors.New("corrupt profile section")

// ErrVersion: the section was written by another format version.
var ErrVersion = errors.New("profile section of another version")
