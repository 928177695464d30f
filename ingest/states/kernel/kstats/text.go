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
	b := bufio.NewWriterSize(w, 64<<10) // tens of MB at tens of thousands of threads
	span := float64(r.ToNS-r.FromNS) / 1e9
	fmt.Fprintf(b, "Timerange: [%d, %d) ns, %.9f s\n", r.FromNS, r.ToNS, span)

	section(b, "CPU usage per thread")
	fmt.Fprintf(b, "%-32s %8s %8s %10s  %s\n", "Thread", "%", "ms", "Migrations", "Priorities")
	var l line // the lines of tens of thousands of threads: appended, not fmt's (textline.go)
	for i := range r.CPUUsage.Threads {
		l = appendUsageLine(l[:0], &r.CPUUsage.Threads[i])
		b.Write(l)
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
	var name line
	for _, t := range r.ThreadSyscalls {
		name = append(appendWho(append(name[:0], "System calls of "...), t.Comm, -1, t.TID), " (usec)"...)
		section(b, string(name))
		statsHead(b, "System call")
		for i := range t.Syscalls {
			name = append(name[:0], " - "...)
			l = appendStatsLine(l[:0], string(append(name, t.Syscalls[i].Name...)), &t.Syscalls[i].Stats)
			b.Write(l)
		}
	}

	section(b, "Scheduling latency, wake-up to switch-in, per thread (usec)")
	statsHead(b, "Thread")
	for i := range r.SchedLatency {
		t := &r.SchedLatency[i]
		name = appendWho(name[:0], t.Comm, t.PID, t.TID)
		l = appendStatsLine(l[:0], string(name), &t.Stats)
		b.Write(l)
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
	b.Write(appendStatsLine(nil, name, s))
}

func known(v int32) string {
	if v < 0 {
		return "?"
	}
	return fmt.Sprint(v)
}
