package kstats

import "strconv"

// Report is what stats.Compute (ingest/query/stats) returns; its JSON form is the schema the stats
// command prints (README, "tracetui stats").
type Report struct {
	FromNS int64 `json:"from_ns"`
	ToNS   int64 `json:"to_ns"` // exclusive

	CPUUsage       CPUUsage         `json:"cpu_usage"`
	Syscalls       []SyscallRow     `json:"syscalls"`
	ThreadSyscalls []ThreadSyscalls `json:"thread_syscalls"`
	SchedLatency   []LatencyRow     `json:"sched_latency"`
	// ProcessLatency is SchedLatency summed over each process's threads.
	ProcessLatency []LatencyRow `json:"process_sched_latency"`
	IRQs           []IRQRow     `json:"irqs"`
	// SoftRaise is the soft IRQ raise-to-entry latency per vector.
	SoftRaise []IRQRow `json:"softirq_raise_latency"`
	Slowest   Slowest  `json:"slowest"`
}

// CPUUsage is who used the CPUs.
type CPUUsage struct {
	Threads   []ThreadUsage  `json:"threads"`
	Processes []ProcessUsage `json:"processes"`
	CPUs      []CPURow       `json:"cpus"`
}

// ThreadUsage is one thread's time on any CPU.
type ThreadUsage struct {
	TID        int32   `json:"tid"`
	PID        int32   `json:"pid"` // the tid when the trace does not say
	Comm       string  `json:"comm"`
	NS         int64   `json:"ns"`
	Percent    float64 `json:"percent"` // of the range
	Migrations int64   `json:"migrations"`
	Prios      []int32 `json:"prios,omitempty"`
}

// ProcessUsage is the time of a process's threads.
type ProcessUsage struct {
	PID     int32   `json:"pid"`
	Comm    string  `json:"comm"`
	NS      int64   `json:"ns"`
	Percent float64 `json:"percent"`
	Threads []int32 `json:"threads"`
}

// CPURow is the time one CPU ran something other than its idle thread.
type CPURow struct {
	CPU     int32   `json:"cpu"`
	NS      int64   `json:"ns"`
	Percent float64 `json:"percent"`
}

// SyscallRow is the statistics of one system call.
type SyscallRow struct {
	Name string `json:"name"`
	Stats
	// Returns counts the calls by outcome: "success", an errno name
	// ("ENOENT"), from Threads/<tid>/System_call_error.
	Returns Outcomes `json:"returns"`
}

// ThreadSyscalls is the system calls of one thread.
type ThreadSyscalls struct {
	TID      int32        `json:"tid"`
	Comm     string       `json:"comm"`
	Syscalls []SyscallRow `json:"syscalls"`
}

// LatencyRow is the wake-up latency of one thread (or process: TID is
// then the PID).
type LatencyRow struct {
	TID  int32  `json:"tid"`
	PID  int32  `json:"pid"`
	Comm string `json:"comm"`
	Stats
}

// IRQRow is the durations of one hard IRQ or soft IRQ vector.
type IRQRow struct {
	Kind string `json:"kind"` // "hard" or "soft"
	IRQ  int64  `json:"irq"`
	Name string `json:"name"` // soft IRQ vector names; hard IRQs: the handler's name, else the number
	Stats
}

// Label names the row for people: the number and the name ("30 i915",
// "1 TIMER"), or the number alone when the trace names no handler.
func (r IRQRow) Label() string {
	n := strconv.FormatInt(r.IRQ, 10)
	if r.Name == n || r.Name == "" {
		return n
	}
	return n + " " + r.Name
}

// Slowest is the N worst occurrences of each family.
type Slowest struct {
	Syscalls     []Occurrence `json:"syscalls"`
	SchedLatency []Occurrence `json:"sched_latency"`
	IRQs         []Occurrence `json:"irqs"`
	SoftRaise    []Occurrence `json:"softirq_raise_latency"`
}

// SoftName names a soft IRQ vector (its number past the known ones).
func SoftName(v int64) string {
	if v >= 0 && v < int64(len(softNames)) {
		return softNames[v]
	}
	return strconv.FormatInt(v, 10)
}

// softNames are Linux's soft IRQ vector names (include/linux/interrupt.h),
// as lttng-analyses prints them.
var softNames = []string{"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU"}
