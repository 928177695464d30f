//go:build !unix

package coretest

import "time"

// CPUTime is not measured on this system: benchmarks report 0.
func CPUTime() time.Duration { return 0 }
