//go:build !unix

package history

import "os"

// Without flock, temporary files are not locked, and stale ones are left
// alone (they never open as a valid index).
func lockFile(*os.File) error { return nil }

func tryLockFile(*os.File) bool { return false }
