package kstats

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteText prints the report as tables in the manner of lttng-analyses'
// text output (durations in µs).
func (r *Report) WriteText(w io.Writer) error {
	b := bufio.NewWriter(w)
	span := float64(r.ToNS-r.FromNS) / 1e9
	fmt.Fprintf(b, "Timerange: [%d, %d) ns, %.9f s\n", r.FromNS, r.ToNS, span)

	section(b, "CPU usage per thread")
	fmt.Fprintf(b, "%-32s %8s %8s %10s  %s\n", "Thread", "%", "ms", "Migrations", "Priorities")
	for _, t := range r.CPUUsage.Threads {
		fmt.Fprintf(b, "%-32s %8.2f %8.3f %10d  %v\n", who(t.Comm, t.PID, t.TID), t.Percent, float64(t.NS)/1e6, t.Migrations, t.Prios)
	}
	section(b, "CPU usage per process")
	for _, p := range r.CPUUsage.Processes {
		fmt.Fprintf(b, "%-32s %8.2f %8.3f  threads %v\n", fmt.Sprintf("%s (%d)", p.Comm, p.PID), p.Percent, float64(p.NS)/1e6, p.Threads)
	}
	section(b, "CPU usage per CPU")
	for _, c := range r.CPUUsage.CPUs {
		fmt.Fprintf(b, "CPU %-28d %8.2f %8.3f\n", c.CPU, c.Percent, float64(c.NS)/1e6)
	}

	section(b, "System calls (usec)")
	statsHead(b, "System call")
	for _, s := range r.Syscalls {
		statsLine(b, " - "+s.Name, &s.Stats)
	}
	for _, t := range r.ThreadSyscalls {
		section(b, fmt.Sprintf("System calls of %s (usec)", who(t.Comm, -1, t.TID)))
		statsHead(b, "System call")
		for _, s := range t.Syscalls {
			statsLine(b, " - "+s.Name, &s.Stats)
		}
	}

	section(b, "Scheduling latency, wake-up to switch-in, per thread (usec)")
	statsHead(b, "Thread")
	for _, l := range r.SchedLatency {
		statsLine(b, who(l.Comm, l.PID, l.TID), &l.Stats)
	}
	section(b, "Scheduling latency per process (usec)")
	statsHead(b, "Process")
	for _, l := range r.ProcessLatency {
		statsLine(b, fmt.Sprintf("%s (%d)", l.Comm, l.PID), &l.Stats)
	}

	section(b, "Interrupt durations (usec)")
	statsHead(b, "IRQ")
	for _, q := range r.IRQs {
		statsLine(b, q.Kind+" "+q.Label(), &q.Stats)
	}
	section(b, "Soft IRQ raise-to-entry latency (usec)")
	statsHead(b, "Vector")
	for _, q := range r.SoftRaise {
		statsLine(b, q.Label(), &q.Stats)
	}

	for _, o := range []struct {
		title string
		list  []Occurrence
	}{{"Slowest system calls", r.Slowest.Syscalls}, {"Worst wake-up latencies", r.Slowest.SchedLatency},
		{"Longest interrupts", r.Slowest.IRQs}, {"Longest soft IRQ raise latencies", r.Slowest.SoftRaise}} {
		section(b, o.title)
		fmt.Fprintf(b, "%-24s %14s %8s %6s  %s\n", "Start (ns)", "Duration (us)", "TID", "CPU", "Name")
		for _, x := range o.list {
			fmt.Fprintf(b, "%-24d %14.3f %8s %6s  %s\n", x.StartNS, float64(x.DurationNS)/1e3, known(x.TID), known(x.CPU), x.Name)
		}
	}
	return b.Flush()
}

func section(b *bufio.Writer, title string) {
	fmt.Fprintf(b, "\n%s\n%s\n", title, strings.Repeat("-", len(title)))
}

func statsHead(b *bufio.Writer, first string) {
	fmt.Fprintf(b, "%-32s %8s %12s %12s %12s %12s %14s\n", first, "Count", "Min", "Average", "Max", "Stdev", "Total")
}

func statsLine(b *bufio.Writer, name string, s *Stats) {
	stdev := "?" // lttng-analyses' mark for fewer than two values
	if s.Count > 1 {
		stdev = fmt.Sprintf("%.3f", s.StdevNS/1e3)
	}
	fmt.Fprintf(b, "%-32s %8d %12.3f %12.3f %12.3f %12s %14.3f\n", name, s.Count,
		float64(s.MinNS)/1e3, s.MeanNS/1e3, float64(s.MaxNS)/1e3, stdev, float64(s.TotalNS)/1e3)
}

// who names a thread "comm (pid, TID: tid)" as lttng-analyses does; pid
// -1 omits it.
func who(comm string, pid, tid int32) string {
	if pid < 0 {
		return fmt.Sprintf("%s (TID: %d)", comm, tid)
	}
	return fmt.Sprintf("%s (%d, TID: %d)", comm, pid, tid)
}

func known(v int32) string {
	if v < 0 {
		return "?"
	}
	return fmt.Sprint(v)
}
