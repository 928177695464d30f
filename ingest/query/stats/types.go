package stats

import "github.com/tracetui/tracetui/ingest/states/kernel/kstats"

// The report's types live in package kstats, which the index build also
// uses to store the whole trace's report (stored.go).
type (
	// Report is what [Compute] returns; see [kstats.Report].
	Report = kstats.Report
	// CPUUsage is who used the CPUs.
	CPUUsage = kstats.CPUUsage
	// ThreadUsage is one thread's time on any CPU.
	ThreadUsage = kstats.ThreadUsage
	// ProcessUsage is the time of a process's threads.
	ProcessUsage = kstats.ProcessUsage
	// CPURow is the time one CPU ran something other than its idle thread.
	CPURow = kstats.CPURow
	// SyscallRow is the statistics of one system call.
	SyscallRow = kstats.SyscallRow
	// ThreadSyscalls is the system calls of one thread.
	ThreadSyscalls = kstats.ThreadSyscalls
	// LatencyRow is the wake-up latency of one thread or process.
	LatencyRow = kstats.LatencyRow
	// IRQRow is the durations of one hard IRQ or soft IRQ vector.
	IRQRow = kstats.IRQRow
	// Slowest is the N worst occurrences of each family.
	Slowest = kstats.Slowest
	// Stats summarises durations in ns.
	Stats = kstats.Stats
	// Occurrence is one timed thing of an N-worst list.
	Occurrence = kstats.Occurrence
)

// HistBuckets is the number of log2 histogram buckets.
const HistBuckets = kstats.HistBuckets

func softName(v int64) string { return kstats.SoftName(v) }
