package record

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
)

// collectMeta reads what the trace.dat keeps beside the pages, once the
// recording stopped (so that the names of the threads seen are known):
// headers and formats from the instance, kallsyms, printk formats, the
// saved command lines (the kernel's, completed from /proc), the clock and
// uname; and each CPU's stats with the events the kernel lost and those
// read (all the events recorded, once the buffers are empty).
func (r *Recorder) collectMeta() (m *Meta, stats []string, lost, events int64) {
	in, fs := r.in, r.fs
	m = &Meta{PageSize: r.pageSize, Version: r.opts.Version, Compress: true}
	m.HeaderPage, _ = fs.readFile("events/header_page")
	m.HeaderEvent, _ = fs.readFile("events/header_event")
	m.Ftrace = ftraceFormats(in.path("events"))
	m.Formats, _ = r.opts.Events.formats(in.path("events"))
	m.Kallsyms, _ = os.ReadFile("/proc/kallsyms")
	m.Printk, _ = fs.readFile("printk_formats")
	saved, _ := fs.readFile("saved_cmdlines")
	r.tasks.scanProc()
	m.Cmdlines = cmdlines(saved, r.tasks.comms)
	m.Tgids = tgids(r.tasks.tgids)
	clock, _ := in.read("trace_clock")
	m.TraceClock = strings.TrimSpace(clock)
	m.Clock = selectedClock(m.TraceClock)
	m.Uname = uname()
	all, _, _ := in.cpus()
	m.CPUCount = len(all)
	for _, cpu := range r.cpus {
		st, err := in.read(fmt.Sprintf("per_cpu/cpu%d/stats", cpu))
		if err != nil {
			continue
		}
		stats = append(stats, fmt.Sprintf("CPU: %d\n%s", cpu, st))
		lost += statField(st, "overrun") + statField(st, "dropped events")
		events += statField(st, "read events")
	}
	return m, stats, lost, events
}

// statField returns a number of a per_cpu stats file ("overrun: 12").
func statField(stats, name string) int64 {
	for _, line := range strings.Split(stats, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == name {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}

// selectedClock returns the bracketed clock of trace_clock ("[local]
// global" gives "local").
func selectedClock(s string) string {
	if i := strings.IndexByte(s, '['); i >= 0 {
		if j := strings.IndexByte(s[i:], ']'); j > 0 {
			return s[i+1 : i+j]
		}
	}
	return "local"
}

// cmdlines merges the kernel's saved_cmdlines ("pid comm" lines, which
// keep only the last saved_cmdlines_size threads) with the names read in
// /proc (the kernel's win), sorted by pid.
func cmdlines(saved []byte, comms map[int]string) []byte {
	names := map[int]string{}
	for pid, c := range comms {
		names[pid] = c
	}
	sc := bufio.NewScanner(bytes.NewReader(saved))
	for sc.Scan() {
		pid, comm, ok := strings.Cut(sc.Text(), " ")
		if n, err := strconv.Atoi(pid); ok && err == nil && comm != "" && comm != "<...>" {
			names[n] = comm
		}
	}
	return pidLines(names)
}

// tgids writes the threads' processes as the kernel's saved_tgids does
// ("pid tgid" lines), sorted by pid.
func tgids(m map[int]int) []byte { return pidLines(m) }

// pidLines writes m as "pid value" lines sorted by pid, as the kernel's
// saved_cmdlines and saved_tgids are.
func pidLines[V any](m map[int]V) []byte {
	var b bytes.Buffer
	for _, pid := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(&b, "%d %v\n", pid, m[pid])
	}
	return b.Bytes()
}
