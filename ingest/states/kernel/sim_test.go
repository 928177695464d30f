package kernel

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/core/coretest"
)

// The reference for the property test is a tiny simulated kernel: it
// schedules threads on CPUs, runs system calls, IRQs and soft IRQs, forks,
// execs and exits, knows at every instant the true state of everything,
// and traces what it does as events of a given layout. The analysis,
// reading only the events, must reconstruct that truth after every event.

type simState uint8

const (
	simBlocked simState = iota
	simQueued
	simRunning
	simDead
	simFreed
)

type simThread struct {
	tid   int
	comm  string
	state simState
	sys   string // current system call, "" none
	rq    int    // run queue, -1 none
	known bool   // an event has mentioned it (the analysis can know it)
	named bool   // an event has given its name
}

type simCPU struct {
	started bool // a sched_switch happened on it
	cur     int  // running tid (0: idle)
	irqs    []int
	softs   map[int]byte // vector -> 'r' running, 'p' raised, 'b' running and raised again
}

type sim struct {
	rng     *rand.Rand
	layout  *Layout
	s       *stream
	now     core.Time
	cpus    []*simCPU
	threads map[int]*simThread
	nextTID int
	checks  []simCheck
}

// simCheck is the expected value of one attribute at one time.
type simCheck struct {
	t    core.Time
	path string
	want core.Value
}

func (m *sim) thread(tid int) *simThread {
	if tid == 0 {
		panic("idle thread has no record")
	}
	return m.threads[tid]
}

// emit writes one abstract event in the layout's names and fields.
func (m *sim) emit(cpu int, kind string, args ...any) {
	m.now += core.Time(1 + m.rng.IntN(5))
	l := m.layout
	pre := ""
	if l == LayoutPerf {
		pre = "sched:"
	}
	tidF, prevF, nextF := "tid", "prev_tid", "next_tid"
	if l == LayoutPerf || l == LayoutFtrace {
		tidF, prevF, nextF = "pid", "prev_pid", "next_pid"
	}
	running := m.cpus[cpu].cur
	if kind == "switch" {
		running = args[1].(int) // recorded before the switch: the previous thread
	}
	var ctx []any
	switch l {
	case LayoutPerf:
		ctx = []any{"perf_tid", running, "perf_pid", running}
	case LayoutFtrace:
		ctx = []any{"context.tid", running}
	}
	add := func(name string, kv ...any) {
		m.s.add(m.now, int32(cpu), name, append(append([]any{}, ctx...), kv...)...)
	}
	softName := map[*Layout]string{LayoutLTTng27: "irq_softirq_", LayoutLTTng20: "softirq_", LayoutPerf: "irq:softirq_", LayoutFtrace: "softirq_"}[l]
	irqName := map[bool]string{true: "irq:irq_handler_", false: "irq_handler_"}[l == LayoutPerf]
	switch kind {
	case "switch":
		state := args[2].(int)
		var st any = state
		if l == LayoutFtrace {
			st = map[int]string{0: "R+", 1: "S", 64: "x"}[state]
		}
		add(pre+"sched_switch", "prev_comm", args[0], prevF, args[1], "prev_prio", 20, "prev_state", st,
			"next_comm", args[3], nextF, args[4], "next_prio", 20)
	case "wakeup":
		add(pre+"sched_wakeup", "comm", args[0], tidF, args[1], "prio", 20, "target_cpu", args[2])
	case "fork":
		if l == LayoutPerf || l == LayoutFtrace {
			add(pre+"sched_process_fork", "parent_comm", args[0], "parent_pid", args[1], "child_comm", args[0], "child_pid", args[2])
		} else {
			add(pre+"sched_process_fork", "parent_comm", args[0], "parent_tid", args[1], "parent_pid", args[1],
				"child_comm", args[0], "child_tid", args[2], "child_pid", args[2])
		}
	case "exec":
		add(pre+"sched_process_exec", "filename", args[0], tidF, args[1])
	case "exit":
		add(pre+"sched_process_exit", "comm", args[0], tidF, args[1], "prio", 20)
	case "free":
		add(pre+"sched_process_free", "comm", args[0], tidF, args[1], "prio", 20)
	case "sys_entry":
		name := args[0].(string)
		switch l {
		case LayoutLTTng27:
			add("syscall_entry_"+name, "fd", 0)
		case LayoutLTTng20:
			add("sys_"+name, "fd", 0)
		case LayoutPerf:
			add("syscalls:sys_enter_"+name, "fd", 0)
		case LayoutFtrace:
			add("sys_enter_"+name, "fd", 0)
		}
	case "sys_exit":
		name := args[0].(string)
		switch l {
		case LayoutLTTng27:
			add("syscall_exit_"+name, "ret", 0)
		case LayoutLTTng20:
			add("exit_syscall", "ret", 0)
		case LayoutPerf:
			add("syscalls:sys_exit_"+name, "ret", 0)
		case LayoutFtrace:
			add("sys_exit_"+name, "ret", 0)
		}
	case "irq_entry":
		add(irqName+"entry", "irq", args[0], "name", "dev")
	case "irq_exit":
		add(irqName+"exit", "irq", args[0], "ret", 1)
	case "soft_raise", "soft_entry", "soft_exit":
		add(softName+kind[len("soft_"):], "vec", args[0])
	default:
		panic(kind)
	}
}

func (m *sim) comm(tid, cpu int) string {
	if tid == 0 {
		return "swapper/" + strconv.Itoa(cpu)
	}
	return m.thread(tid).comm
}

// step performs one random action on a random CPU.
func (m *sim) step() {
	ci := m.rng.IntN(len(m.cpus))
	c := m.cpus[ci]
	if !c.started {
		m.schedule(ci)
		return
	}
	inIRQ := len(c.irqs) > 0
	inSoft := false
	for v := range 3 {
		if s := c.softs[v]; s == 'r' || s == 'b' {
			inSoft = true
		}
	}
	var cur *simThread
	if c.cur != 0 {
		cur = m.thread(c.cur)
	}
	switch r := m.rng.IntN(100); {
	case inIRQ:
		if r < 15 {
			m.wakeRandom(ci)
			return
		}
		n := c.irqs[len(c.irqs)-1]
		c.irqs = c.irqs[:len(c.irqs)-1]
		m.emit(ci, "irq_exit", n)
	case inSoft:
		switch {
		case r < 20:
			m.irqEntry(ci)
		case r < 30:
			m.softRaise(ci)
		case r < 40:
			m.wakeRandom(ci)
		default:
			for v := range 3 { // in order: replayable from the seed
				if s := c.softs[v]; s == 'r' || s == 'b' {
					m.emit(ci, "soft_exit", v)
					if s == 'b' {
						c.softs[v] = 'p'
					} else {
						delete(c.softs, v)
					}
					break
				}
			}
		}
	case r < 10:
		m.irqEntry(ci)
	case r < 15:
		m.softRaise(ci)
	case r < 22:
		for v := range 3 {
			if c.softs[v] == 'p' {
				c.softs[v] = 'r'
				m.emit(ci, "soft_entry", v)
				return
			}
		}
		v := m.rng.IntN(3)
		c.softs[v] = 'r'
		m.emit(ci, "soft_entry", v)
	case r < 35:
		m.wakeRandom(ci)
	case r < 55 && cur != nil:
		m.syscall(ci, cur)
	case r < 60 && cur != nil && cur.sys == "":
		cur.sys = "clone"
		m.emit(ci, "sys_entry", "clone")
		child := &simThread{tid: m.nextTID, comm: cur.comm, state: simQueued, sys: "clone", rq: -1, known: true, named: true}
		m.nextTID++
		m.threads[child.tid] = child
		m.emit(ci, "fork", cur.comm, cur.tid, child.tid)
	case r < 63 && cur != nil && cur.sys == "":
		cur.sys = "execve"
		m.emit(ci, "sys_entry", "execve")
		cur.comm = fmt.Sprintf("p%d", m.rng.IntN(1000))
		m.emit(ci, "exec", "/usr/bin/"+cur.comm, cur.tid)
	case r < 65 && cur != nil && cur.sys == "":
		cur.sys = "exit_group"
		m.emit(ci, "sys_entry", "exit_group")
		m.emit(ci, "exit", cur.comm, cur.tid)
		cur.state = simDead
		m.switchTo(ci, 64)
	case r < 68:
		for _, th := range m.sortedThreads() {
			if th.state == simDead {
				th.state, th.sys, th.rq, th.named = simFreed, "", -1, false
				m.emit(ci, "free", th.comm, th.tid)
				break
			}
		}
	default:
		m.schedule(ci)
	}
}

func (m *sim) sortedThreads() []*simThread {
	out := make([]*simThread, 0, len(m.threads))
	for _, th := range m.threads {
		out = append(out, th)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].tid < out[j].tid })
	return out
}

func (m *sim) irqEntry(ci int) {
	n := m.rng.IntN(4)
	for _, x := range m.cpus[ci].irqs {
		if x == n {
			return
		}
	}
	m.cpus[ci].irqs = append(m.cpus[ci].irqs, n)
	m.emit(ci, "irq_entry", n)
}

func (m *sim) softRaise(ci int) {
	v := m.rng.IntN(3)
	c := m.cpus[ci]
	switch c.softs[v] {
	case 'r', 'b':
		c.softs[v] = 'b'
	default:
		c.softs[v] = 'p'
	}
	m.emit(ci, "soft_raise", v)
}

func (m *sim) syscall(ci int, cur *simThread) {
	if cur.sys != "" {
		m.emit(ci, "sys_exit", cur.sys)
		cur.sys = ""
		return
	}
	cur.sys = []string{"read", "write", "ioctl"}[m.rng.IntN(3)]
	m.emit(ci, "sys_entry", cur.sys)
}

func (m *sim) wakeRandom(ci int) {
	var blocked []*simThread
	for _, th := range m.sortedThreads() {
		if th.state == simBlocked {
			blocked = append(blocked, th)
		}
	}
	if len(blocked) == 0 {
		return
	}
	th := blocked[m.rng.IntN(len(blocked))]
	target := m.rng.IntN(len(m.cpus))
	th.state, th.rq, th.known = simQueued, target, true
	m.emit(ci, "wakeup", th.comm, th.tid, target)
	th.named = true
}

// schedule switches the CPU to a queued thread or the idle thread; the
// previous thread is preempted or blocks.
func (m *sim) schedule(ci int) {
	state := 0
	if c := m.cpus[ci]; c.started && c.cur != 0 && m.rng.IntN(2) == 0 {
		state = 1
	}
	m.switchTo(ci, state)
}

func (m *sim) switchTo(ci, prevState int) {
	c := m.cpus[ci]
	prev := c.cur
	if !c.started {
		prev, prevState = 0, 0
		c.started = true
	}
	var queued []*simThread
	for _, th := range m.sortedThreads() {
		if th.state == simQueued {
			queued = append(queued, th)
		}
	}
	next := 0
	if len(queued) > 0 && m.rng.IntN(4) != 0 {
		next = queued[m.rng.IntN(len(queued))].tid
	}
	if prev != 0 {
		p := m.thread(prev)
		switch prevState {
		case 0:
			p.state = simQueued
		case 1:
			p.state, p.rq = simBlocked, -1
		case 64:
			p.state, p.rq = simDead, -1
		}
	}
	prevComm := m.comm(prev, ci)
	c.cur = next
	if next != 0 {
		n := m.thread(next)
		n.state, n.rq, n.known = simRunning, ci, true
	}
	m.emit(ci, "switch", prevComm, prev, prevState, m.comm(next, ci), next)
	if prev != 0 {
		m.thread(prev).known, m.thread(prev).named = true, true
	}
	if next != 0 {
		m.thread(next).named = true
	}
}

// record notes the true value of every attribute the analysis can know.
func (m *sim) record() {
	add := func(path string, v core.Value) { m.checks = append(m.checks, simCheck{m.now, path, v}) }
	for ci, c := range m.cpus {
		if !c.started {
			continue
		}
		cpu := "CPUs/" + strconv.Itoa(ci)
		add(cpu+"/Current_thread", core.Int32(int32(c.cur)))
		interrupted := len(c.irqs) > 0
		var soft bool
		for v := range 3 { // every vector the simulation uses
			want := core.Null()
			switch c.softs[v] {
			case 'r', 'b':
				soft = true
				want = core.Int32(int32(core.CPUStatusSoftIRQ))
			case 'p':
				want = core.Int32(int32(core.CPUStatusSoftIRQRaised))
			}
			add(cpu+"/Soft_IRQs/"+strconv.Itoa(v), want)
		}
		for n := range 4 { // every IRQ the simulation uses
			want := core.Null()
			for _, x := range c.irqs {
				if x == n {
					want = core.Int32(int32(core.CPUStatusIRQ))
				}
			}
			add(cpu+"/IRQs/"+strconv.Itoa(n), want)
		}
		var status core.CPUStatus
		var cur *simThread
		if c.cur != 0 {
			cur = m.thread(c.cur)
		}
		switch {
		case interrupted:
			status = core.CPUStatusIRQ
		case soft:
			status = core.CPUStatusSoftIRQ
		case cur == nil:
			status = core.CPUIdle
		case cur.sys != "":
			status = core.CPURunSyscall
		default:
			status = core.CPURunUser
		}
		add(cpu, core.Int32(int32(status)))
		idle := "Threads/0_" + strconv.Itoa(ci)
		if cur == nil {
			add(idle, core.Int32(int32(map[bool]core.ThreadStatus{true: core.ThreadInterrupted, false: core.ThreadRunUser}[interrupted || soft])))
		} else {
			add(idle, core.Int32(int32(core.ThreadWaitCPU)))
		}
	}
	for _, th := range m.sortedThreads() {
		if !th.known {
			continue
		}
		p := "Threads/" + strconv.Itoa(th.tid)
		var status core.Value
		switch th.state {
		case simBlocked:
			status = core.Int32(int32(core.ThreadWaitBlocked))
		case simQueued:
			status = core.Int32(int32(core.ThreadWaitCPU))
		case simRunning:
			c := m.cpus[th.rq]
			s := core.ThreadRunUser
			if th.sys != "" {
				s = core.ThreadRunSyscall
			}
			if len(c.irqs) > 0 {
				s = core.ThreadInterrupted
			}
			for v := range 3 {
				if x := c.softs[v]; x == 'r' || x == 'b' {
					s = core.ThreadInterrupted
				}
			}
			status = core.Int32(int32(s))
		}
		add(p, status)
		sys := core.Null()
		if th.sys != "" {
			sys = core.String(th.sys)
		}
		add(p+"/System_call", sys)
		rq := core.Null()
		if th.rq >= 0 {
			rq = core.Int32(int32(th.rq))
		}
		add(p+"/Current_cpu_rq", rq)
		name := core.Null()
		if th.named {
			name = core.String(th.comm)
		}
		add(p+"/Exec_name", name)
	}
}

// TestSimulatedKernel checks the analysis against the simulated truth,
// after every event, in every layout.
func TestSimulatedKernel(t *testing.T) {
	rng := coretest.Rand(t)
	for _, layout := range []*Layout{LayoutLTTng27, LayoutLTTng20, LayoutPerf, LayoutFtrace} {
		for run := range 20 {
			m := &sim{rng: rng, layout: layout, s: newStream(), threads: map[int]*simThread{}, nextTID: 100}
			for range 1 + rng.IntN(4) {
				m.cpus = append(m.cpus, &simCPU{softs: map[int]byte{}})
			}
			for range 2 + rng.IntN(6) {
				m.threads[m.nextTID] = &simThread{tid: m.nextTID, comm: "t" + strconv.Itoa(m.nextTID), rq: -1}
				m.nextTID++
			}
			for range 300 {
				m.step()
				m.record()
			}
			h := m.s.run(t, layout, m.now+10)
			idx := indexIntervals(h)
			for _, c := range m.checks {
				got := idx.at(h, c.path, c.t)
				if got != c.want {
					t.Fatalf("%s run %d: %s at %d = %v, want %v\nevents up to then:\n%s",
						layout, run, c.path, c.t, got, c.want, dumpEvents(m.s, c.t))
				}
			}
		}
	}
}

// intervalIndex finds the interval of a key at a time by binary search.
type intervalIndex map[core.Key][]core.Interval

func indexIntervals(h *core.MemHistory) intervalIndex {
	idx := intervalIndex{}
	for _, iv := range h.Intervals() { // sorted by key, then time
		idx[iv.Key] = append(idx[iv.Key], iv)
	}
	return idx
}

func (idx intervalIndex) at(h *core.MemHistory, path string, t core.Time) core.Value {
	k, ok := h.Attributes().Lookup(path)
	if !ok {
		return core.Null()
	}
	ivs := idx[k]
	i := sort.Search(len(ivs), func(i int) bool { return ivs[i].End >= t })
	if i == len(ivs) || !ivs[i].Contains(t) {
		return core.Null()
	}
	return ivs[i].Value
}

func dumpEvents(s *stream, until core.Time) string {
	var out string
	for _, ev := range s.events {
		if ev.Time > until {
			break
		}
		out += fmt.Sprintf("%d cpu%d %s", ev.Time, ev.CPU, ev.Class.Name)
		for i, f := range ev.Fields {
			out += " " + ev.Class.Fields[i] + "=" + string(f.AppendText(nil))
		}
		out += "\n"
	}
	if len(out) > 6000 {
		out = "...\n" + out[len(out)-6000:]
	}
	return out
}
