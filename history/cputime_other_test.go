//go:build !unix

package history

import "time"

// cpuTime is not measured without getrusage; the metric reads as +Inf.
func cpuTime() time.Duration { return 0 }
