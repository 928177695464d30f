//go:build unix

package coretest

import (
	"syscall"
	"time"
)

// CPUTime returns the process's user+system CPU time, for benchmarks on a
// shared machine: it varies less with the load than wall time does
// (it includes the garbage collector's work on other threads).
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
