package frametest

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"sync/atomic"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/tui/frame"
)

// The demo fixture: a tiny deterministic kernel-like trace (2 CPUs, a dozen
// threads, 10 ms) following core/model.go, with the event table that
// produced it. Golden screens use it until the real demo trace (tracetui
// gen output) is integrated.

const (
	DemoStart = core.Time(1_412_670_961_000_000_000)
	DemoEnd   = DemoStart + 10_000_000 - 1 // 10 ms
	demoStep  = core.Time(5_000)           // simulation step: 5 us
)

// demoThread is a thread of the demo workload.
type demoThread struct {
	tid, pid, ppid int32
	name           string
	busy           bool // makes a system call at almost every step (dense row)
}

func demoThreads() []demoThread {
	return []demoThread{
		{1, 1, 0, "systemd", false},
		{15, 15, 2, "kworker/0:1", false},
		{1200, 1200, 1, "bash", false},
		{2000, 2000, 1, "firefox", false},
		{2001, 2000, 1, "Web Content", true},
		{2002, 2000, 1, "Compositor", false},
		{3000, 3000, 1200, "日本語の名前", false},
		{3100, 3100, 1, "a-process-with-a-really-long-name-indeed", false},
		{4000, 4000, 1, "postgres", false},
		{4001, 4000, 1, "postgres: wal", false},
	}
}

// MemTrace is an in-memory Trace for tests and benchmarks.
type MemTrace struct {
	TraceName string
	Meta      frame.TraceInfo
	Hist      core.History
	Table     frame.EventTable
	Closed    atomic.Int32 // Close calls
}

// Close counts the calls: the browser must close the trace once.
func (t *MemTrace) Close() error { t.Closed.Add(1); return nil }

func (t *MemTrace) Name() string             { return t.TraceName }
func (t *MemTrace) Info() frame.TraceInfo    { return t.Meta }
func (t *MemTrace) History() core.History    { return t.Hist }
func (t *MemTrace) Events() frame.EventTable { return t.Table }

// demoSim is the state of the demo simulation.
type demoSim struct {
	m      *core.MemHistory
	at     *core.AttributeTree
	rng    *rand.Rand
	events []frame.EventRow
	th     []demoThread
	status []core.Key // Threads/<tid>
	sysc   []core.Key // Threads/<tid>/System_call
	name   []core.Key
	cpu    []demoCPU
	state  []core.ThreadStatus
	waker  []core.Key // Threads/<tid>/Waker
	alt    []bool     // each thread's last Waker.Alt
}

type demoCPU struct {
	key, cur, irq, soft    core.Key
	running                int // thread index, -1 idle
	quantum, sys, irqSteps int
	soft2                  int // 1: soft IRQ raised, 2: running
}

// NewDemoTrace builds the demo trace (deterministic).
func NewDemoTrace() *MemTrace {
	s := &demoSim{m: core.NewMemHistory(DemoStart), rng: rand.New(rand.NewPCG(42, 7)), th: demoThreads()}
	s.at = s.m.Attributes()
	s.run()
	if err := s.m.Close(DemoEnd); err != nil {
		panic(err)
	}
	return &MemTrace{
		TraceName: "demo",
		Meta:      frame.TraceInfo{Format: "ctf", Start: DemoStart, End: DemoEnd, Events: int64(len(s.events)), Discarded: 3},
		Hist:      s.m, Table: &MemEvents{All: s.events},
	}
}

func (s *demoSim) set(k core.Key, t core.Time, v core.Value) {
	if err := s.m.Modify(k, t, v); err != nil {
		panic(err)
	}
}

func (s *demoSim) event(t core.Time, cpu int, name string, th int, contents string) {
	r := frame.EventRow{Rank: int64(len(s.events)), Time: t, CPU: int32(cpu), Event: name, Contents: contents}
	if th >= 0 {
		r.TID = strconv.Itoa(int(s.th[th].tid))
		r.Process = s.th[th].name
	}
	s.events = append(s.events, r)
}

func (s *demoSim) setThread(i int, t core.Time, st core.ThreadStatus) {
	s.state[i] = st
	s.set(s.status[i], t, core.Int32(int32(st)))
}

func (s *demoSim) run() {
	t := DemoStart
	for i, th := range s.th {
		tid := strconv.Itoa(int(th.tid))
		s.status = append(s.status, s.at.AddPath(core.AttrThreads, tid))
		s.name = append(s.name, s.at.AddPath(core.AttrThreads, tid, core.AttrExecName))
		s.set(s.name[i], t, core.String(th.name))
		s.set(s.at.AddPath(core.AttrThreads, tid, core.AttrPID), t, core.Int32(th.pid))
		s.set(s.at.AddPath(core.AttrThreads, tid, core.AttrPPID), t, core.Int32(th.ppid))
		s.sysc = append(s.sysc, s.at.AddPath(core.AttrThreads, tid, core.AttrSystemCall))
		s.state = append(s.state, core.ThreadWaitBlocked)
		s.set(s.status[i], t, core.Int32(int32(core.ThreadWaitBlocked)))
		s.event(t, 0, "lttng_statedump_process_state", i, fmt.Sprintf("tid = %d, pid = %d, ppid = %d, name = \"%s\"", th.tid, th.pid, th.ppid, th.name))
	}
	for c := range 2 {
		n := strconv.Itoa(c)
		idle := s.at.AddPath(core.AttrThreads, "0_"+n)
		s.set(s.at.AddPath(core.AttrThreads, "0_"+n, core.AttrExecName), t, core.String("swapper/"+n))
		s.set(idle, t, core.Int32(int32(core.ThreadRunUser)))
		cpu := demoCPU{key: s.at.AddPath(core.AttrCPUs, n), cur: s.at.AddPath(core.AttrCPUs, n, core.AttrCurrentThread),
			irq: s.at.AddPath(core.AttrCPUs, n, core.AttrIRQs, strconv.Itoa(18+c)), soft: s.at.AddPath(core.AttrCPUs, n, core.AttrSoftIRQs, "1"), running: -1}
		s.set(cpu.key, t, core.Int32(int32(core.CPUIdle)))
		s.set(cpu.cur, t, core.Int32(0))
		s.cpu = append(s.cpu, cpu)
	}
	execDone := false
	for t = DemoStart + demoStep; t+demoStep <= DemoEnd; t += demoStep {
		for c := range s.cpu {
			s.stepCPU(c, t+core.Time(c)) // CPUs 1 ns apart: distinct timestamps
		}
		for i := range s.th { // wake-ups
			if s.state[i] == core.ThreadWaitBlocked && s.rng.IntN(40) == 0 {
				s.setThread(i, t+2, core.ThreadWaitCPU)
				s.wakeLink(i, t+2)
				s.event(t+2, 0, "sched_wakeup", i, fmt.Sprintf("comm = \"%s\", tid = %d, prio = 20, target_cpu = 0", s.th[i].name, s.th[i].tid))
			}
		}
		if !execDone && t >= DemoStart+5_000_000 { // bash execs ls at 5 ms
			execDone = true
			s.th[2].name = "ls"
			s.set(s.name[2], t+3, core.String("ls"))
			s.event(t+3, 0, "sched_process_exec", 2, "filename = \"/bin/ls\", tid = 1200, old_tid = 1200")
		}
	}
}

// wakeLink records who woke thread i: the thread running on CPU 0.
func (s *demoSim) wakeLink(i int, t core.Time) {
	for len(s.waker) <= i {
		s.waker, s.alt = append(s.waker, -1), append(s.alt, false)
	}
	if s.waker[i] < 0 {
		s.waker[i] = s.at.AddPath(core.AttrThreads, strconv.Itoa(int(s.th[i].tid)), core.AttrWaker)
	}
	w := core.Waker{Kind: core.WakerThread, CPU: 0}
	if r := s.cpu[0].running; r >= 0 {
		w.ID = s.th[r].tid
	}
	s.alt[i] = !s.alt[i]
	w.Alt = s.alt[i]
	s.set(s.waker[i], t, w.Value())
}

var demoSyscalls = []string{"read", "write", "openat", "futex", "poll", "mmap"}

// stepCPU advances one CPU by one step at time t.
func (s *demoSim) stepCPU(c int, t core.Time) {
	cpu := &s.cpu[c]
	cur := cpu.running
	cpuStatus := func() core.CPUStatus {
		switch {
		case cur < 0:
			return core.CPUIdle
		case cpu.sys > 0:
			return core.CPURunSyscall
		}
		return core.CPURunUser
	}
	threadStatus := func() core.ThreadStatus {
		if cpu.sys > 0 {
			return core.ThreadRunSyscall
		}
		return core.ThreadRunUser
	}
	if cpu.irqSteps > 0 { // in an interrupt handler
		cpu.irqSteps--
		if cpu.irqSteps == 0 {
			s.set(cpu.irq, t, core.Null())
			s.set(cpu.key, t, core.Int32(int32(cpuStatus())))
			if cur >= 0 {
				s.setThread(cur, t, threadStatus())
			}
			s.event(t, c, "irq_handler_exit", cur, fmt.Sprintf("irq = %d, ret = 1", 18+c))
			s.set(cpu.soft, t, core.Int32(int32(core.CPUStatusSoftIRQRaised)))
			s.event(t, c, "softirq_raise", cur, "vec = 1 [TIMER]")
			cpu.soft2 = 1
		}
		return
	}
	switch cpu.soft2 {
	case 1: // raised at the previous step: run it
		cpu.soft2 = 2
		s.set(cpu.soft, t, core.Int32(int32(core.CPUStatusSoftIRQ)))
		s.set(cpu.key, t, core.Int32(int32(core.CPUStatusSoftIRQ)))
		s.event(t, c, "softirq_entry", cur, "vec = 1 [TIMER]")
		return
	case 2:
		cpu.soft2 = 0
		s.set(cpu.soft, t, core.Null())
		s.set(cpu.key, t, core.Int32(int32(cpuStatus())))
		s.event(t, c, "softirq_exit", cur, "vec = 1 [TIMER]")
		return
	}
	if s.rng.IntN(60) == 0 { // an interrupt
		cpu.irqSteps = 1 + s.rng.IntN(3)
		s.set(cpu.irq, t, core.Int32(int32(core.CPUStatusIRQ)))
		s.set(cpu.key, t, core.Int32(int32(core.CPUStatusIRQ)))
		if cur >= 0 {
			s.setThread(cur, t, core.ThreadInterrupted)
		}
		s.event(t, c, "irq_handler_entry", cur, fmt.Sprintf("irq = %d, name = \"eth0\"", 18+c))
		return
	}
	if cur >= 0 {
		switch {
		case cpu.sys > 0:
			cpu.sys--
			if cpu.sys == 0 {
				s.set(s.sysc[cur], t, core.Null())
				s.setThread(cur, t, core.ThreadRunUser)
				s.set(cpu.key, t, core.Int32(int32(core.CPURunUser)))
				s.event(t, c, "syscall_exit_"+demoSyscalls[int(t/demoStep)%len(demoSyscalls)], cur, "ret = 0")
			}
		case s.th[cur].busy && s.rng.IntN(2) == 0 || s.rng.IntN(8) == 0:
			cpu.sys = 1 + s.rng.IntN(4)
			if s.th[cur].busy {
				cpu.sys = 1
			}
			name := demoSyscalls[s.rng.IntN(len(demoSyscalls))]
			s.set(s.sysc[cur], t, core.String(name))
			s.setThread(cur, t, core.ThreadRunSyscall)
			s.set(cpu.key, t, core.Int32(int32(core.CPURunSyscall)))
			s.event(t, c, "syscall_entry_"+name, cur, "fd = 3, count = 4096")
		}
		cpu.quantum--
		if cpu.quantum > 0 || cpu.sys > 0 {
			return
		}
	}
	// Schedule: the longest-waiting runnable thread not on another CPU.
	next := -1
	for i := range s.th {
		if s.state[i] == core.ThreadWaitCPU && next < 0 {
			next = i
		}
	}
	if next < 0 && cur >= 0 && s.rng.IntN(3) > 0 {
		cpu.quantum = 5 + s.rng.IntN(20) // nothing else to run: keep running
		return
	}
	if cur < 0 && next < 0 {
		return // stay idle
	}
	if cur >= 0 {
		st := core.ThreadWaitBlocked
		if s.rng.IntN(3) == 0 {
			st = core.ThreadWaitCPU
		}
		s.setThread(cur, t, st)
	}
	prev, nextTID := "swapper/"+strconv.Itoa(c), int32(0)
	if cur >= 0 {
		prev = s.th[cur].name
	}
	if next >= 0 {
		nextTID = s.th[next].tid
		s.setThread(next, t, core.ThreadRunUser)
		s.set(cpu.key, t, core.Int32(int32(core.CPURunUser)))
		cpu.quantum = 5 + s.rng.IntN(40)
	} else {
		s.set(cpu.key, t, core.Int32(int32(core.CPUIdle)))
	}
	s.set(cpu.cur, t, core.Int32(nextTID))
	cpu.running = next
	s.event(t, c, "sched_switch", cur, fmt.Sprintf("prev_comm = \"%s\", next_tid = %d", prev, nextTID))
}

// MemEvents is an in-memory EventTable.
type MemEvents struct {
	All   []frame.EventRow
	batch int // filter batch size (events examined per report); 0: 256
}

func (e *MemEvents) Len() int64 { return int64(len(e.All)) }

func (e *MemEvents) Rows(ctx context.Context, ranks []int64) ([]frame.EventRow, error) {
	out := make([]frame.EventRow, 0, len(ranks))
	for _, r := range ranks {
		if r < 0 || r >= int64(len(e.All)) {
			return nil, fmt.Errorf("rank %d out of [0, %d)", r, len(e.All))
		}
		out = append(out, e.All[r])
	}
	return out, ctx.Err()
}

func (e *MemEvents) RankAt(ctx context.Context, t core.Time) (int64, error) {
	return int64(sort.Search(len(e.All), func(i int) bool { return e.All[i].Time >= t })), ctx.Err()
}

func (e *MemEvents) Filter(ctx context.Context, f frame.Filter, fn func(frame.FilterProgress) bool) error {
	batch := e.batch
	if batch <= 0 {
		batch = 256
	}
	total := int64(len(e.All))
	for i := 0; i < len(e.All); i += batch {
		if err := ctx.Err(); err != nil {
			return err
		}
		var m []int64
		end := min(i+batch, len(e.All))
		for j := i; j < end; j++ {
			if f.Match(&e.All[j]) {
				m = append(m, int64(j))
			}
		}
		if !fn(frame.FilterProgress{Matches: m, Done: int64(end), Total: total}) {
			return nil
		}
	}
	if len(e.All) == 0 {
		fn(frame.FilterProgress{Total: 0})
	}
	return nil
}

// Density counts the events per column exactly.
func (e *MemEvents) Density(ctx context.Context, from, to core.Time, columns int) ([]int64, error) {
	if columns <= 0 || to < from {
		return nil, fmt.Errorf("density: %d columns over [%d, %d]", columns, from, to)
	}
	out := make([]int64, columns)
	span := uint64(to - from + 1)
	i := sort.Search(len(e.All), func(i int) bool { return e.All[i].Time >= from })
	for ; i < len(e.All) && e.All[i].Time <= to; i++ {
		hi, lo := bits.Mul64(uint64(e.All[i].Time-from), uint64(columns))
		c, _ := bits.Div64(hi, lo, span)
		out[c]++
	}
	return out, ctx.Err()
}

// CountByType counts the events of each name in [from, to], reporting
// every countBatch events (0: 256).
func (e *MemEvents) CountByType(ctx context.Context, from, to core.Time, fn func(done, total int64) bool) (map[string]int64, error) {
	batch := e.batch
	if batch <= 0 {
		batch = 256
	}
	r0 := sort.Search(len(e.All), func(i int) bool { return e.All[i].Time >= from })
	r1 := sort.Search(len(e.All), func(i int) bool { return e.All[i].Time > to })
	counts := map[string]int64{}
	total := int64(max(r1-r0, 0))
	for i := r0; i < r1; i++ {
		if done := int64(i - r0); done > 0 && done%int64(batch) == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if fn != nil && !fn(done, total) {
				return counts, nil
			}
		}
		counts[e.All[i].Event]++
	}
	if fn != nil {
		fn(total, total)
	}
	return counts, ctx.Err()
}

// SortedByTime checks the fixture's own invariant.
func SortedByTime(rows []frame.EventRow) bool {
	return slices.IsSortedFunc(rows, func(a, b frame.EventRow) int { return int(a.Time - b.Time) })
}
