package gen

import (
	"math/rand/v2"
)

// The workload is a discrete-event simulation of a small Linux system
// running the R-SHT article's "burn" program: bash forks a child that
// execs burn; burn clones N threads, one every few microseconds; each
// thread runs in user mode, makes system calls (read, write, futex),
// blocks (nanosleep, or a futex wait with timeout that another thread may
// end), is woken (by a timer interrupt and softirq, or by the waking
// thread), and exits; burn joins them and exits, which wakes bash. Kernel
// threads (kworker/N:1, rcu_sched) and daemons (sshd woken by network
// interrupts, lttng-consumerd) run beside it, and CPUs idle (swapper/N)
// when nothing runs. A per-CPU FIFO run queue with time slices schedules
// the threads.
//
// Only live threads have state, so memory is bounded by the threads
// alive at once, not by the number forked.

type tkind uint8

const (
	kindWorker tkind = iota
	kindParent
	kindShell
	kindKworker
	kindRCU
	kindSSHD
	kindConsumerd
)

type tstate uint8

const (
	stRunnable tstate = iota
	stRunning
	stBlocked
	stDead
)

// Linux values written in the events.
const (
	taskRunning       = 0
	taskInterruptible = 1
	taskDead          = 64
	prioNormal        = 20 // LTTng prints prio - MAX_RT_PRIO
	softirqTimer      = 1
	softirqNetRX      = 3
	irqTimer          = 0
	irqNet            = 24
	errTimedOut       = -110
	futexWait         = 0
	futexWake         = 1
	cloneThreadFlags  = 0x3d0f00
	cloneForkFlags    = 0x1200011
)

// Simulated durations, in nanoseconds.
const (
	us        = int64(1000)
	ms        = 1000 * us
	timeSlice = 3 * ms
)

type thread struct {
	tid, pid, ppid int32
	comm           string
	kind           tkind
	state          tstate
	kernel         bool
	cpu            int
	pc             int
	token          uint64 // changes at every switch: stale steps are ignored
	wake           uint64 // changes at every block: stale timers are ignored
	nextAt         int64  // time of the pending step while running
	remaining      int64  // time left to the pending step when preempted
	pending        bool
	sys            uint16 // exit event of the system call it blocks in
	sysRet         int64
	inWaitQueue    bool
}

type cpuState struct {
	cur   *thread // nil: idle (swapper/N)
	rq    []*thread
	token uint64 // changes at every switch
	last  int64  // last timestamp written on this CPU
	idle  string // "swapper/N"
	arm   bool   // a resched action is pending
}

type actKind uint8

const (
	aStep actKind = iota
	aTimer
	aPreempt
	aResched
	aFree
	aNetIRQ
)

type action struct {
	t    int64
	seq  uint64
	kind actKind
	th   *thread
	cpu  int
	tok  uint64
}

type sim struct {
	cfg      *Config
	rng      *rand.Rand
	q        []action
	seq      uint64
	cpus     []*cpuState
	out      []*streamWriter
	nextTID  int32
	spawned  int
	live     int
	rr       int
	parent   *thread
	shell    *thread
	sshd     *thread
	waiters  []*thread // futex waiters, FIFO
	joining  bool      // the parent waits for its threads
	shellWts bool      // bash waits for burn
	netQueue int       // network packets sshd has not read
	endAt    int64
}

// between returns a random duration in [lo, hi].
func (s *sim) between(lo, hi int64) int64 { return lo + s.rng.Int64N(hi-lo+1) }

// push schedules an action.
func (s *sim) push(a action) {
	s.seq++
	a.seq = s.seq
	s.q = append(s.q, a)
	j := len(s.q) - 1
	for j > 0 {
		p := (j - 1) / 2
		if !actionLess(&s.q[j], &s.q[p]) {
			break
		}
		s.q[j], s.q[p] = s.q[p], s.q[j]
		j = p
	}
}

func actionLess(a, b *action) bool { return a.t < b.t || (a.t == b.t && a.seq < b.seq) }

func (s *sim) pop() action {
	a := s.q[0]
	n := len(s.q) - 1
	s.q[0] = s.q[n]
	s.q = s.q[:n]
	for j := 0; ; {
		l := 2*j + 1
		if l >= n {
			break
		}
		m := l
		if l+1 < n && actionLess(&s.q[l+1], &s.q[l]) {
			m = l + 1
		}
		if !actionLess(&s.q[m], &s.q[j]) {
			break
		}
		s.q[j], s.q[m] = s.q[m], s.q[j]
		j = m
	}
	return a
}

// stamp returns the time an event happening at t on cpu is written at:
// never before the CPU's previous event.
func (s *sim) stamp(cpu int, t int64) int64 {
	c := s.cpus[cpu]
	if t < c.last {
		t = c.last
	}
	c.last = t
	return t
}

// emit writes the payload built in s.out[cpu].pay as event id at t and
// returns the time written plus a small gap for the next event.
func (s *sim) emit(cpu int, t int64, id uint16) int64 {
	t = s.stamp(cpu, t)
	s.out[cpu].emit(id, uint64(t))
	return t + s.between(100, 600)
}

func (s *sim) pay(cpu int) *enc { return &s.out[cpu].pay }

func (s *sim) commOf(th *thread, cpu int) string {
	if th == nil {
		return s.cpus[cpu].idle
	}
	return th.comm
}

func (s *sim) switchEvent(cpu int, t int64, prev, next *thread, prevState int64) int64 {
	e := s.pay(cpu)
	e.comm(s.commOf(prev, cpu))
	e.i32(tidOf(prev))
	e.i32(prioNormal)
	e.i64(prevState)
	e.comm(s.commOf(next, cpu))
	e.i32(tidOf(next))
	e.i32(prioNormal)
	return s.emit(cpu, t, evSchedSwitch)
}

func tidOf(th *thread) int32 {
	if th == nil {
		return 0
	}
	return th.tid
}

func (s *sim) wakeEvent(cpu int, t int64, id uint16, th *thread) int64 {
	e := s.pay(cpu)
	e.comm(th.comm)
	e.i32(th.tid)
	e.i32(prioNormal)
	e.i32(int32(th.cpu))
	return s.emit(cpu, t, id)
}

func (s *sim) taskEvent(cpu int, t int64, id uint16, th *thread) int64 {
	e := s.pay(cpu)
	e.comm(th.comm)
	e.i32(th.tid)
	e.i32(prioNormal)
	return s.emit(cpu, t, id)
}

func (s *sim) vecEvent(cpu int, t int64, id uint16, vec uint32) int64 {
	s.pay(cpu).u32(vec)
	return s.emit(cpu, t, id)
}

// switchTo makes next (nil: idle) the current thread of cpu.
func (s *sim) switchTo(cpu int, t int64, next *thread, prevState int64) int64 {
	c := s.cpus[cpu]
	t = s.switchEvent(cpu, t, c.cur, next, prevState)
	c.cur = next
	c.token++
	if next != nil {
		next.state, next.cpu = stRunning, cpu
		next.token++
		d := s.between(1*us, 3*us)
		if next.pending {
			d, next.pending = next.remaining, false
		}
		s.after(next, t, d)
		s.push(action{t: t + timeSlice, kind: aPreempt, cpu: cpu, tok: c.token})
	}
	return t
}

// schedule gives cpu to the next runnable thread, or idles it.
func (s *sim) schedule(cpu int, t int64, prevState int64) int64 {
	c := s.cpus[cpu]
	if len(c.rq) > 0 {
		next := c.rq[0]
		c.rq = c.rq[1:]
		return s.switchTo(cpu, t, next, prevState)
	}
	if c.cur != nil {
		return s.switchTo(cpu, t, nil, prevState)
	}
	return t
}

// runnable queues th on its CPU, and wakes the CPU if it idles.
func (s *sim) runnable(th *thread, t int64) {
	th.state = stRunnable
	c := s.cpus[th.cpu]
	c.rq = append(c.rq, th)
	if c.cur == nil && !c.arm {
		c.arm = true
		s.push(action{t: t + s.between(2*us, 6*us), kind: aResched, cpu: th.cpu})
	}
}

// after schedules th's next step d from t.
func (s *sim) after(th *thread, t, d int64) {
	th.nextAt = t + d
	s.push(action{t: t + d, kind: aStep, th: th, tok: th.token})
}

// block takes th off its CPU until something wakes it.
func (s *sim) block(th *thread, t int64, exit uint16, ret int64) int64 {
	th.state = stBlocked
	th.wake++
	th.token++
	th.sys, th.sysRet = exit, ret
	return s.schedule(th.cpu, t, taskInterruptible)
}

// timerWake wakes th at t, from a timer interrupt on its CPU, if it still
// sleeps in the same block.
func (s *sim) timerWake(th *thread, t int64) {
	s.push(action{t: t, kind: aTimer, th: th, tok: th.wake})
}

// wakeFrom wakes a blocked th from the context of a thread or softirq
// running on cpu.
func (s *sim) wakeFrom(cpu int, t int64, th *thread) int64 {
	t = s.wakeEvent(cpu, t, evSchedWaking, th)
	t = s.wakeEvent(cpu, t, evSchedWakeup, th)
	th.wake++
	s.runnable(th, t)
	return t
}

// leastLoaded picks the CPU for a new thread.
func (s *sim) leastLoaded() int {
	best, load := 0, int(^uint(0)>>1)
	n := len(s.cpus)
	s.rr++
	for i := 0; i < n; i++ {
		c := (s.rr + i) % n
		l := len(s.cpus[c].rq)
		if s.cpus[c].cur != nil {
			l++
		}
		if l < load {
			best, load = c, l
		}
	}
	return best
}

// run processes actions until the end of the workload.
func (s *sim) run() {
	for len(s.q) > 0 {
		a := s.pop()
		if s.endAt > 0 && a.t > s.endAt {
			return
		}
		switch a.kind {
		case aStep:
			if a.th.state == stRunning && a.th.token == a.tok {
				s.step(a.th, a.t)
			}
		case aTimer:
			th := a.th
			if th.state == stBlocked && th.wake == a.tok {
				s.timerInterrupt(th, a.t)
			}
		case aPreempt:
			c := s.cpus[a.cpu]
			if c.token != a.tok || c.cur == nil {
				break
			}
			if len(c.rq) == 0 {
				s.push(action{t: a.t + timeSlice, kind: aPreempt, cpu: a.cpu, tok: a.tok})
				break
			}
			th := c.cur
			th.remaining = max(th.nextAt-a.t, 0)
			th.pending = true
			th.token++
			th.state = stRunnable
			c.rq = append(c.rq, th)
			s.schedule(a.cpu, a.t, taskRunning)
		case aResched:
			c := s.cpus[a.cpu]
			c.arm = false
			if c.cur == nil && len(c.rq) > 0 {
				s.schedule(a.cpu, a.t, taskRunning)
			}
		case aFree:
			s.taskEvent(a.cpu, a.t, evSchedFree, a.th)
		case aNetIRQ:
			s.netInterrupt(a.t)
		}
	}
}

// timerInterrupt: the timer interrupt and softirq that wake a sleeper.
func (s *sim) timerInterrupt(th *thread, t int64) {
	cpu := th.cpu
	e := s.pay(cpu)
	e.i32(irqTimer)
	e.str("timer")
	t = s.emit(cpu, t, evIRQEntry)
	t = s.vecEvent(cpu, t, evSoftIRQRaise, softirqTimer)
	s.pay(cpu).i32(irqTimer)
	s.pay(cpu).i32(1)
	t = s.emit(cpu, t, evIRQExit)
	t = s.vecEvent(cpu, t, evSoftIRQEntry, softirqTimer)
	t = s.wakeFrom(cpu, t, th)
	s.vecEvent(cpu, t, evSoftIRQExit, softirqTimer)
}

// netInterrupt: a network packet for sshd, on CPU 0.
func (s *sim) netInterrupt(t int64) {
	e := s.pay(0)
	e.i32(irqNet)
	e.str("eth0")
	t = s.emit(0, t, evIRQEntry)
	t = s.vecEvent(0, t, evSoftIRQRaise, softirqNetRX)
	s.pay(0).i32(irqNet)
	s.pay(0).i32(1)
	t = s.emit(0, t, evIRQExit)
	t = s.vecEvent(0, t, evSoftIRQEntry, softirqNetRX)
	if s.sshd.state == stBlocked && s.sshd.sys == evSysExitRead {
		t = s.wakeFrom(0, t, s.sshd)
	} else {
		s.netQueue++
	}
	t = s.vecEvent(0, t, evSoftIRQExit, softirqNetRX)
	s.push(action{t: t + s.between(3*ms, 12*ms), kind: aNetIRQ})
}
