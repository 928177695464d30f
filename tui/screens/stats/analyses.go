package stats

import (
	"fmt"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
	"github.com/tracetui/tracetui/tui/ui"

	querystats "github.com/tracetui/tracetui/ingest/query/stats"
)

// analysisLines turns a report of ingest/query/stats into the lines of the
// system call table and of the analysis tables.
func analysisLines(rep *querystats.Report, out *[NumTables][]Line) {
	var callTime int64
	for _, c := range rep.Syscalls {
		callTime += c.TotalNS
	}
	slowestCall := map[string]*querystats.Occurrence{} // the list is longest first
	for i := range rep.Slowest.Syscalls {
		if o := &rep.Slowest.Syscalls[i]; slowestCall[o.Name] == nil {
			slowestCall[o.Name] = o
		}
	}
	for _, c := range rep.Syscalls {
		out[Syscalls] = append(out[Syscalls], Line{Name: c.Name, Occ: slowestCall[c.Name], hist: c.Histogram,
			Vals: []float64{0, float64(c.Count), float64(c.TotalNS), c.MeanNS, float64(c.MaxNS), percent(c.TotalNS, callTime)}})
	}
	// A thread line's occurrence is the thread over the whole range:
	// enter selects it in Control Flow (issue 13: any thread row).
	whole := func(name string, tid int32) *querystats.Occurrence {
		return &querystats.Occurrence{Name: name, TID: tid, CPU: -1, StartNS: rep.FromNS, DurationNS: rep.ToNS - rep.FromNS}
	}
	for _, t := range rep.CPUUsage.Threads {
		out[Threads] = append(out[Threads], Line{Name: threadName(t.Comm, t.TID), Occ: whole(t.Comm, t.TID),
			Vals: []float64{0, float64(t.NS), t.Percent, float64(t.Migrations)}})
	}
	// Processes (their threads summed) in a table of their own, so that
	// no column adds a process to its threads.
	for _, p := range rep.CPUUsage.Processes {
		out[Processes] = append(out[Processes], Line{Name: threadName(p.Comm, p.PID),
			Vals: []float64{0, float64(p.NS), p.Percent, float64(len(p.Threads))}})
	}
	for _, c := range rep.CPUUsage.CPUs {
		out[CPUs] = append(out[CPUs], Line{Name: fmt.Sprintf("CPU %d", c.CPU),
			Vals: []float64{0, float64(c.NS), c.Percent}})
	}
	worstWakeup := map[int32]*querystats.Occurrence{} // the list is longest first
	for i := range rep.Slowest.SchedLatency {
		if o := &rep.Slowest.SchedLatency[i]; worstWakeup[o.TID] == nil {
			worstWakeup[o.TID] = o
		}
	}
	for _, l := range rep.SchedLatency {
		occ := worstWakeup[l.TID]
		if occ == nil { // not among the N worst: the thread over the range
			occ = whole(l.Comm, l.TID)
		}
		out[Latency] = append(out[Latency], Line{Name: threadName(l.Comm, l.TID), Occ: occ, Vals: durationVals(&l.Stats), hist: l.Histogram})
	}
	for _, l := range rep.ProcessLatency {
		out[ProcLatency] = append(out[ProcLatency], Line{Name: threadName(l.Comm, l.PID), Vals: durationVals(&l.Stats), hist: l.Histogram})
	}
	for _, r := range rep.IRQs {
		out[IRQs] = append(out[IRQs], Line{Name: r.Kind + " " + r.Label(), Vals: durationVals(&r.Stats), hist: r.Histogram})
	}
	for _, r := range rep.SoftRaise {
		out[IRQs] = append(out[IRQs], Line{Name: "soft raise " + r.Label(), Vals: durationVals(&r.Stats), hist: r.Histogram})
	}
	families := []struct {
		kind string
		occ  []querystats.Occurrence
	}{{"syscall", rep.Slowest.Syscalls}, {"wake-up", rep.Slowest.SchedLatency}, {"irq", rep.Slowest.IRQs},
		{"soft raise", rep.Slowest.SoftRaise}}
	comm := map[int32]string{} // every tid named with its command
	for _, t := range rep.CPUUsage.Threads {
		comm[t.TID] = t.Comm
	}
	for _, l := range rep.SchedLatency {
		if comm[l.TID] == "" {
			comm[l.TID] = l.Comm
		}
	}
	for _, f := range families {
		for i, o := range f.occ {
			name := f.kind + " " + o.Name
			unnamed := o.TID >= 0 && comm[o.TID] == ""
			if own, ok := strings.CutSuffix(o.Name, fmt.Sprintf(" (%d)", o.TID)); ok && o.TID >= 0 {
				name, unnamed = f.kind+" of "+threadName(own, o.TID), false // a wake-up names its thread
			} else if o.TID >= 0 && !unnamed {
				name += ", " + threadName(comm[o.TID], o.TID)
			}
			if o.CPU >= 0 {
				name += fmt.Sprintf(" cpu %d", o.CPU)
			}
			out[Slowest] = append(out[Slowest], Line{Name: name, Occ: &f.occ[i], unnamed: unnamed,
				Vals: []float64{0, float64(o.DurationNS), float64(o.StartNS - rep.FromNS)}})
		}
	}
}

// nameThreads names the threads of the slowest lines the analyses could
// not name, from Control Flow's rows ("tid N" when it has none either).
func (s *Screen) nameThreads(lines []Line) {
	for i := range lines {
		l := &lines[i]
		if !l.unnamed {
			continue
		}
		l.unnamed = false
		if n, ok := s.threads.ByTID(core.ThreadName(int64(l.Occ.TID), l.Occ.CPU)); ok && s.threads != nil {
			l.Name += ", " + s.threads.Node(n).Label
		} else {
			l.Name += fmt.Sprintf(", tid %d", l.Occ.TID)
		}
	}
}

// threadName labels a thread of an analysis table.
func threadName(comm string, tid int32) string { return fmt.Sprintf("%s [%d]", comm, tid) }

// durationVals are the count, mean, max and total columns of a Stats.
func durationVals(s *querystats.Stats) []float64 {
	return []float64{0, float64(s.Count), s.MeanNS, float64(s.MaxNS), float64(s.TotalNS)}
}

// showOccurrence closes the screen and shows the occurrence of the
// selected line of the focused table in Control Flow: its thread's row
// selected, the occurrence selected whole (entry to exit) and framed,
// the cursor at its start.
func (s *Screen) showOccurrence() ui.Step {
	t := &s.Tables[s.Focus]
	if t.Cur >= len(t.Lines) || t.Lines[t.Cur].Occ == nil {
		return ui.Step{Note: "no occurrence to show on this line (N-slowest, system call, thread and wake-up latency lines have one)"}
	}
	o := t.Lines[t.Cur].Occ
	z := ui.ZoomMsg{Pane: frame.PaneControlFlow, Node: -1, T0: core.Time(o.StartNS), T1: core.Time(o.StartNS + max(o.DurationNS, 1) - 1),
		What: t.Lines[t.Cur].Name}
	// One occurrence (a call, a wake-up, a handler) is selected whole;
	// a thread over the whole range is only shown.
	z.Select = z.T0 > s.From || z.T1 < s.To
	if n, ok := s.threads.ByTID(core.ThreadName(int64(o.TID), o.CPU)); ok && o.TID >= 0 {
		z.Node = n
	}
	return ui.Step{Done: true, Cmd: func() tea.Msg { return z }}
}

// HistogramLine draws a log2 histogram in one line: a block per bucket
// ([2^(i-1), 2^i) ns), its height the bucket's count against the
// largest, then the range of the buckets drawn.
func HistogramLine(name string, hist []int64, ascii bool, w int) string {
	levels := []rune(" ▁▂▃▄▅▆▇█")
	if ascii {
		levels = []rune(" .:-=+*#@")
	}
	first := slices.IndexFunc(hist, func(n int64) bool { return n > 0 })
	if first < 0 {
		return ui.Fit(name+": no durations", w)
	}
	hist = hist[first:]
	top := slices.Max(hist)
	var b strings.Builder
	for _, n := range hist {
		i := 0
		if n > 0 {
			i = 1 + int(n*int64(len(levels)-2)/top)
		}
		b.WriteRune(levels[i])
	}
	lo := core.Time(0)
	if first > 0 {
		lo = core.Time(1) << (first - 1)
	}
	hi := core.Time(1) << (first + len(hist) - 1)
	return ui.Fit(fmt.Sprintf("%s, log2 histogram %s–%s: %s", name, core.FormatDuration(lo), core.FormatDuration(hi), b.String()), w)
}
