package stats

import (
	"cmp"
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// change is one state change of a synthetic history.
type change struct {
	path string
	t    core.Time
	v    core.Value
}

// build writes changes (any order) into a MemHistory over [0, end].
func build(t *testing.T, end core.Time, changes []change) *core.MemHistory {
	t.Helper()
	slices.SortStableFunc(changes, func(a, b change) int { return cmp.Compare(a.t, b.t) })
	h := core.NewMemHistory(0)
	for _, c := range changes {
		if err := h.Modify(h.Attributes().AddPath(splitPath(c.path)...), c.t, c.v); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Close(end); err != nil {
		t.Fatal(err)
	}
	return h
}

func splitPath(p string) []string {
	var out []string
	start := 0
	for i := range len(p) {
		if p[i] == '/' {
			out = append(out, p[start:i])
			start = i + 1
		}
	}
	return append(out, p[start:])
}

// call is one generated system call of the property test's reference.
type call struct {
	tid         int32
	name        string
	entry, exit core.Time // exit -1: never returns in the trace
}

// System call statistics over random histories and ranges equal a
// brute-force count of the generated calls: forked children's inherited
// clone, exit_group and calls still open at the end are not counted.
func TestSyscallsProperty(t *testing.T) {
	rng := coretest.Rand(t)
	names := []string{"read", "write", "openat", "exit_group"}
	var changes []change
	var calls []call
	const end = 100000
	for tid := int32(1); tid <= 6; tid++ {
		base := "Threads/" + itoa(tid)
		now := core.Time(rng.IntN(1000))
		if tid > 1 && rng.IntN(2) == 0 { // forked: inherits its parent's clone
			changes = append(changes, change{base + "/PPID", now, core.Int32(1)},
				change{base + "/System_call", now, core.String("clone")})
			now += core.Time(1 + rng.IntN(50))
			changes = append(changes, change{base + "/System_call", now, core.Null()})
		}
		for now < end {
			now += core.Time(1 + rng.IntN(3000))
			if now >= end {
				break
			}
			name := names[rng.IntN(len(names))]
			c := call{tid: tid, name: name, entry: now, exit: -1}
			changes = append(changes, change{base + "/System_call", now, core.String(name)})
			if name == "exit_group" {
				calls = append(calls, c)
				break
			}
			now += core.Time(1 + rng.IntN(5000))
			if now <= end {
				c.exit = now
				changes = append(changes, change{base + "/System_call", now, core.Null()})
			}
			calls = append(calls, c)
		}
	}
	h := build(t, end, changes)
	for range 50 {
		from := core.Time(rng.IntN(end))
		to := from + core.Time(1+rng.IntN(end))
		top := 1 + rng.IntN(5)
		rep, err := Compute(context.Background(), h, Options{From: from, To: to, Top: top, Parts: []Part{0, PartSyscalls}[rng.IntN(2)]})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]*Stats{}
		var durations []int64
		for _, c := range calls {
			if c.name == "exit_group" || c.exit < 0 || c.entry < from || c.exit >= min(to, end+1) || c.exit > end {
				continue
			}
			k := itoa(c.tid) + " " + c.name
			if want[k] == nil {
				want[k] = &Stats{}
			}
			want[k].Add(c.exit - c.entry)
			durations = append(durations, int64(c.exit-c.entry))
		}
		got := map[string]Stats{}
		for _, ts := range rep.ThreadSyscalls {
			for _, r := range ts.Syscalls {
				got[itoa(ts.TID)+" "+r.Name] = r.Stats
			}
		}
		if len(got) != len(want) {
			t.Fatalf("[%d, %d): rows %v, want %v", from, to, keysOf(got), keysOfPtr(want))
		}
		for k, w := range want {
			g := got[k]
			if g.Count != w.Count || g.MinNS != w.MinNS || g.MaxNS != w.MaxNS || g.TotalNS != w.TotalNS || !slices.Equal(g.Histogram, w.Histogram) {
				t.Fatalf("[%d, %d) %s: %+v, want %+v", from, to, k, g, *w)
			}
		}
		slices.Sort(durations)
		slices.Reverse(durations)
		if len(durations) > top {
			durations = durations[:top]
		}
		var slow []int64
		for _, o := range rep.Slowest.Syscalls {
			slow = append(slow, o.DurationNS)
		}
		if !slices.Equal(slow, durations) {
			t.Fatalf("[%d, %d) top %d: %v, want %v", from, to, top, slow, durations)
		}
	}
}

func itoa(v int32) string { return strconv.Itoa(int(v)) }

func keysOf(m map[string]Stats) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func keysOfPtr(m map[string]*Stats) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Stats agree with the two-pass formulas, merged or not.
func TestStatsMerge(t *testing.T) {
	rng := coretest.Rand(t)
	var all, a, b Stats
	var xs []float64
	for i := range 200 {
		d := core.Time(rng.IntN(1 << 20))
		xs = append(xs, float64(d))
		all.Add(d)
		if i%3 == 0 {
			a.Add(d)
		} else {
			b.Add(d)
		}
	}
	a.Merge(&b)
	var mean, ss float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / float64(len(xs)-1))
	for _, s := range []Stats{all, a} {
		if s.Count != 200 || math.Abs(s.MeanNS-mean) > 1e-6*mean || math.Abs(s.StdevNS-sd) > 1e-6*sd || s.MinNS != all.MinNS || s.MaxNS != all.MaxNS {
			t.Fatalf("%+v: mean %f stdev %f", s, mean, sd)
		}
	}
	if !slices.Equal(all.Histogram, a.Histogram) {
		t.Fatalf("merged histogram %v, want %v", a.Histogram, all.Histogram)
	}
}

// Wake-up latency counts a wait for a CPU entered from a sleep and ended
// by running, not one entered by preemption; IRQ and soft IRQ durations
// and raise latency come from the CPU's interrupt attributes.
func TestLatencyAndIRQs(t *testing.T) {
	st := func(s core.ThreadStatus) core.Value { return core.Int32(int32(s)) }
	cs := func(s core.CPUStatus) core.Value { return core.Int32(int32(s)) }
	h := build(t, 1000, []change{
		{"Threads/5", 10, st(core.ThreadWaitBlocked)},
		{"Threads/5", 100, st(core.ThreadWaitCPU)}, // woken
		{"Threads/5", 130, st(core.ThreadRunUser)}, // 30 ns
		{"Threads/5", 200, st(core.ThreadWaitCPU)}, // preempted: not a wake-up
		{"Threads/5", 300, st(core.ThreadRunUser)},
		{"Threads/5", 400, st(core.ThreadWaitBlocked)},
		{"Threads/5", 500, st(core.ThreadWaitCPU)},
		{"Threads/5", 550, st(core.ThreadRunSyscall)}, // 50 ns
		{"Threads/5/PID", 10, core.Int32(5)},
		{"Threads/5/Exec_name", 10, core.String("w")},
		{"CPUs/0/Current_thread", 0, core.Int32(0)},
		{"CPUs/0/Current_thread", 130, core.Int32(5)},
		{"CPUs/0/Current_thread", 200, core.Int32(0)},
		{"CPUs/0/IRQs/7", 600, cs(core.CPUStatusIRQ)},
		{"CPUs/0/IRQs/7", 620, core.Null()},
		{"IRQ_names/7", 20, core.String("old")},
		{"IRQ_names/7", 600, core.String("eth0")}, // the last name in the range wins
		{"CPUs/0/Soft_IRQs/1", 620, cs(core.CPUStatusSoftIRQRaised)},
		{"CPUs/0/Soft_IRQs/1", 625, cs(core.CPUStatusSoftIRQ)},
		{"CPUs/0/Soft_IRQs/1", 645, core.Null()},
	})
	rep, err := Compute(context.Background(), h, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.SchedLatency) != 1 || rep.SchedLatency[0].Count != 2 || rep.SchedLatency[0].MinNS != 30 || rep.SchedLatency[0].MaxNS != 50 {
		t.Fatalf("sched latency %+v", rep.SchedLatency)
	}
	if len(rep.Slowest.SchedLatency) != 2 || rep.Slowest.SchedLatency[0].StartNS != 500 || rep.Slowest.SchedLatency[0].Name != "w (5)" {
		t.Fatalf("slowest wake-ups %+v", rep.Slowest.SchedLatency)
	}
	if len(rep.IRQs) != 2 || rep.IRQs[0].Kind != "hard" || rep.IRQs[0].MaxNS != 20 || rep.IRQs[1].Name != "TIMER" || rep.IRQs[1].MaxNS != 20 {
		t.Fatalf("IRQs %+v", rep.IRQs)
	}
	if r := rep.IRQs[0]; r.Name != "eth0" || r.Label() != "7 eth0" || rep.IRQs[1].Label() != "1 TIMER" {
		t.Fatalf("IRQ names %q %q, labels %q %q", r.Name, rep.IRQs[1].Name, r.Label(), rep.IRQs[1].Label())
	}
	if names := []string{rep.Slowest.IRQs[0].Name, rep.Slowest.IRQs[1].Name}; !slices.Contains(names, "irq 7 eth0") {
		t.Fatalf("slowest IRQs %q lack \"irq 7 eth0\"", names)
	}
	if len(rep.SoftRaise) != 1 || rep.SoftRaise[0].MaxNS != 5 {
		t.Fatalf("raise latency %+v", rep.SoftRaise)
	}
	u := rep.CPUUsage
	if len(u.Threads) != 1 || u.Threads[0].NS != 70 || u.Threads[0].Comm != "w" || len(u.CPUs) != 1 || u.CPUs[0].NS != 70 {
		t.Fatalf("CPU usage %+v", u)
	}
	// A range cutting the first wake-up off counts only the second.
	rep, err = Compute(context.Background(), h, Options{From: 120, To: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.SchedLatency) != 1 || rep.SchedLatency[0].Count != 1 || rep.CPUUsage.Threads[0].NS != 70 {
		t.Fatalf("[120, 1000): %+v %+v", rep.SchedLatency, rep.CPUUsage.Threads)
	}
}

// N is bounded, and a cancelled context stops the computation.
func TestOptionsBounds(t *testing.T) {
	h := build(t, 10, []change{{"Threads/1/System_call", 1, core.String("read")}, {"Threads/1/System_call", 2, core.Null()}})
	for _, top := range []int{-1, MaxTop + 1} {
		if _, err := Compute(context.Background(), h, Options{Top: top}); !errors.Is(err, ErrTop) {
			t.Errorf("Top %d: %v, want ErrTop", top, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Compute(ctx, h, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// The text report holds every table, with the rows' numbers in µs.
func TestWriteText(t *testing.T) {
	h := build(t, 10000, []change{
		{"Threads/3/Exec_name", 0, core.String("cat")},
		{"Threads/3/System_call", 1000, core.String("read")},
		{"Threads/3/System_call", 3500, core.Null()},
		{"CPUs/1/Current_thread", 0, core.Int32(3)},
	})
	rep, err := Compute(context.Background(), h, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"Timerange: [0, 10001) ns", "System calls of cat (TID: 3)", " - read", "2.500", "cat (3, TID: 3)",
		"CPU 1 ", "Slowest system calls", "Longest soft IRQ raise latencies"} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
}

// TestNoProcessWithoutPID: a thread whose PID the trace does not say
// (trace.dat before its threads fork or exec) has its thread rows, its
// PID shown as its tid, but no process row of one thread is made up from
// it; threads with a PID sum into their process.
func TestNoProcessWithoutPID(t *testing.T) {
	st := func(s core.ThreadStatus) core.Value { return core.Int32(int32(s)) }
	h := build(t, 1000, []change{
		{"Threads/5", 10, st(core.ThreadWaitCPU)},
		{"Threads/5", 20, st(core.ThreadRunUser)},
		{"Threads/5/Exec_name", 10, core.String("compile")},
		{"Threads/6", 10, st(core.ThreadWaitCPU)},
		{"Threads/6", 30, st(core.ThreadRunUser)},
		{"Threads/6/Exec_name", 10, core.String("go")},
		{"Threads/6/PID", 10, core.Int32(7)},
		{"Threads/7/Exec_name", 10, core.String("go")},
		{"CPUs/0/Current_thread", 20, core.Int32(5)},
		{"CPUs/0/Current_thread", 30, core.Int32(6)},
		{"CPUs/0/Current_thread", 50, core.Int32(0)},
	})
	rep, err := Compute(context.Background(), h, Options{})
	if err != nil {
		t.Fatal(err)
	}
	u := rep.CPUUsage
	if len(u.Threads) != 2 || len(u.Processes) != 1 {
		t.Fatalf("threads %+v processes %+v, want 2 threads and 1 process", u.Threads, u.Processes)
	}
	if p := u.Processes[0]; p.PID != 7 || p.Comm != "go" || p.NS != 20 || !slices.Equal(p.Threads, []int32{6}) {
		t.Errorf("process %+v, want go (7) with thread 6, 20 ns", p)
	}
	if len(rep.SchedLatency) != 2 || len(rep.ProcessLatency) != 1 || rep.ProcessLatency[0].PID != 7 {
		t.Errorf("latency per thread %+v, per process %+v: want one process, 7", rep.SchedLatency, rep.ProcessLatency)
	}
}
