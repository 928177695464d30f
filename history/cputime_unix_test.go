//go:build unix

package history

import (
	"syscall"
	"time"
)

// cpuTime returns the process's user+system CPU time (every thread, GC
// included): on a shared machine it is steadier than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
