package kstats

import (
	"slices"
	"strconv"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/states/kernel/sysnames"
)

// The attributes the recorder follows (a key's role).
const (
	roleStatus uint8 = iota // Threads/<tid>
	roleName                // Threads/<tid>/Exec_name
	rolePID
	rolePPID
	roleSys
	roleSysErr
	rolePrio
	roleCurrent // CPUs/<n>/Current_thread
	roleIRQ     // CPUs/<n>/IRQs/<irq>
	roleSoft    // CPUs/<n>/Soft_IRQs/<vec>
	roleIRQName // IRQ_names/<irq>
)

// track is one followed attribute: its current interval, as the history
// builder holds it (history.Builder.Modify: a change to the same value is
// none; two at one instant leave the last).
type track struct {
	n     int64 // the IRQ or vector number
	since core.Time
	value core.Value
	th    *thread
	c     *cpu
	role  uint8
	// the interval before the current one: its value was null; the
	// thread ran (RanNextTo: running, or a wait for a CPU)
	prevNull, prevRunning bool
	later                 bool // the current interval is not the key's first
	touched               bool // changed at the pending instant (Recorder.now)
}

// thread is what the recorder sums for one Threads/<tid>.
type thread struct {
	tid             int32
	sysErr          *track
	name, pid       core.Value // last non-null
	forkAt          core.Time  // first non-null PPID, -1 before
	prios           []int32
	calls           Calls
	sched           Stats
	hasPrio, hasSys bool
}

// cpu is what the recorder sums for one CPUs/<n>.
type cpu struct {
	num        int32
	ns         int64 // busy time
	prevNull   bool  // the Current_thread state machine of stats.currentThreads
	seen       bool
	ended      int // Current_thread intervals ended by a change
	hard, soft map[int64]*Stats
	raise      map[int64]*Stats
	seed       *seedRun
}

// seedRun is the stretch before a CPU's first switch, charged to the
// thread that switch takes off it (as lttng-cputop does).
type seedRun struct {
	tid int32
	ns  int64
}

// usage is one thread's CPU time and moves between CPUs.
type usage struct {
	ns                int64
	firstCPU, lastCPU int32
	migrations        int64
	ran               bool
}

// pendingEnd is an interval whose outcome depends on the next state of
// its own or another attribute at its end + 1: decided at the flush of
// that instant.
type pendingEnd struct {
	tr       *track
	iv       core.Interval
	prevNull bool
}

// Recorder is a [core.StateSink] that passes every change to the sink it
// wraps and sums, as the changes come, what stats.Compute derives over the
// whole trace (package doc). [Recorder.Report] gives the result once the
// analyses have finished.
type Recorder struct {
	core.StateSink
	start, now core.Time
	top        int
	tracks     []*track // by key: nil not followed
	free       []track  // the page tracks are taken from
	touched    []*track
	pending    []pendingEnd
	threads    map[core.Key]*thread // by Threads/<tid> key
	byTID      map[int32]*thread
	cpus       map[core.Key]*cpu // by CPUs/<n> key
	irqNames   map[int64]*core.Value
	use        map[int32]*usage
	firstSw    map[core.Time]bool
	slowCalls  Worst
	slowSched  Worst
	slowIRQ    Worst
	slowRaise  Worst
	unseen     []int32  // threads whose status became known, not running, at now
	runs       []*track // flush's, kept: a flush a change would allocate it
	// MaxThreads bounds the threads followed: past it the recorder stops
	// (about 3.5 KB a thread: its tables, the report and its encoding) and
	// Report returns nil; Compute then scans. 0: no bound.
	MaxThreads int
	// Batch is how many changes are queued before a goroutine sums them
	// (follow.go); tests lower it.
	Batch  int
	off    bool
	follow // the caller's side (follow.go): the fields above are the worker's
}

// DefaultMaxThreads is NewRecorder's MaxThreads. Following a thread
// costs the build about 3.5 KB and 7 µs, which matters only where a
// trace holds few events a thread: at 50 000 threads and 1.1 M events
// (the article's many-threads scale) the index takes 0.53 -> 0.92 s and
// 114 -> 310 MB, for a whole-trace `stats` of 65 ms instead of a 0.5 s
// scan; at 200 000 threads the recorder stops at the bound, having cost
// 2.1 -> 2.35 s. By that cost a capture of a kernel build (tens of
// thousands of processes among tens of millions of events) would pay
// about 1 % (an estimate), and its statistics no longer scan it whole.
const DefaultMaxThreads = 65_536

// NewRecorder returns a recorder over sink for a history starting at
// start, keeping the top longest occurrences of each family.
func NewRecorder(sink core.StateSink, start core.Time, top int) *Recorder {
	return &Recorder{StateSink: sink, start: start, now: start, top: top,
		threads: map[core.Key]*thread{}, byTID: map[int32]*thread{}, cpus: map[core.Key]*cpu{},
		irqNames: map[int64]*core.Value{}, use: map[int32]*usage{}, firstSw: map[core.Time]bool{},
		slowCalls: Worst{N: top}, slowSched: Worst{N: top}, slowIRQ: Worst{N: top}, slowRaise: Worst{N: top},
		MaxThreads: DefaultMaxThreads, Batch: DefaultBatch, follow: follow{roots: [3]core.Key{-1, -1, -1}}}
}

// apply sums one change of a followed key (the worker's side of
// Recorder.Modify); d describes the key on its first change.
func (r *Recorder) apply(key core.Key, t core.Time, v core.Value, d *keyDesc) {
	if d != nil {
		r.addTrack(key, d)
	}
	if t > r.now {
		r.flush()
		r.now = t
	}
	tr := r.tracks[key]
	if tr.value == v {
		return
	}
	if t > tr.since {
		r.ended(tr, core.Interval{Key: key, Start: tr.since, End: t - 1, Value: tr.value}, true)
		tr.prevNull, tr.prevRunning = tr.value.IsNull(), RanNextTo(tr.value)
		tr.since, tr.later = t, true
	}
	tr.value = v
	if !tr.touched {
		tr.touched = true
		r.touched = append(r.touched, tr)
	}
}

// addTrack follows key, as d describes it.
func (r *Recorder) addTrack(key core.Key, d *keyDesc) {
	if int(key) >= len(r.tracks) {
		r.tracks = append(r.tracks, make([]*track, int(key)+1-len(r.tracks)+len(r.tracks))...)
	}
	// tracks are allocated a page at a time (stable pointers, one
	// allocation per 1024 followed keys)
	if len(r.free) == 0 {
		r.free = make([]track, 1024)
	}
	tr := &r.free[0]
	r.free = r.free[1:]
	*tr = track{role: d.role, n: d.n, since: r.start}
	switch d.role {
	case roleStatus, roleName, rolePID, rolePPID, roleSys, roleSysErr, rolePrio:
		th := r.threadOf(d.owner, d.id)
		tr.th = th
		switch d.role {
		case roleSys:
			th.hasSys = true
		case roleSysErr:
			th.sysErr = tr
		case rolePrio:
			th.hasPrio = true
		}
	case roleCurrent, roleIRQ, roleSoft:
		tr.c = r.cpuOf(d.owner, d.id)
	case roleIRQName:
		if r.irqNames[d.n] == nil {
			v := core.Null()
			r.irqNames[d.n] = &v
		}
	}
	r.tracks[key] = tr
}

// thread returns the thread of Threads/<tid> key k, nil for the idle
// threads ("0_<cpu>") and names that are no tid.
func (r *Recorder) thread(k core.Key) *thread {
	if th := r.threads[k]; th != nil {
		return th
	}
	tid, err := strconv.ParseInt(r.Attributes().Name(k), 10, 32)
	if err != nil || tid <= 0 {
		return nil
	}
	if r.MaxThreads > 0 && len(r.threads) >= r.MaxThreads {
		r.stop()
		return nil
	}
	return r.threadOf(k, int32(tid))
}

// threadOf returns the thread of Threads/<tid> key k, made when first
// asked for.
func (r *Recorder) threadOf(k core.Key, tid int32) *thread {
	if th := r.threads[k]; th != nil {
		return th
	}
	th := &thread{tid: tid, forkAt: -1, name: core.Null(), pid: core.Null()}
	r.threads[k] = th
	r.byTID[tid] = th
	return th
}

// cpu returns the CPU of CPUs/<n> key k, nil when n is no number.
func (r *Recorder) cpu(k core.Key) *cpu {
	if c := r.cpus[k]; c != nil {
		return c
	}
	n, err := strconv.ParseInt(r.Attributes().Name(k), 10, 32)
	if err != nil {
		return nil
	}
	return r.cpuOf(k, int32(n))
}

// cpuOf returns the CPU of CPUs/<n> key k, made when first asked for.
func (r *Recorder) cpuOf(k core.Key, n int32) *cpu {
	if c := r.cpus[k]; c != nil {
		return c
	}
	c := &cpu{num: n, prevNull: true, hard: map[int64]*Stats{}, soft: map[int64]*Stats{}, raise: map[int64]*Stats{}}
	r.cpus[k] = c
	return c
}

// ended sums a finished interval of tr: closed when a change ended it,
// not the end of the history.
func (r *Recorder) ended(tr *track, iv core.Interval, closed bool) {
	null := iv.Value.IsNull()
	switch tr.role {
	case roleCurrent:
		if closed {
			tr.c.ended++
		}
		if null || iv.Value.Int() <= 0 {
			return
		}
		ns := int64(iv.End - iv.Start + 1)
		r.usage(int32(iv.Value.Int())).ns += ns
		tr.c.ns += ns
	case roleStatus:
		if closed && tr.later && core.ThreadStatusOf(iv.Value) == core.ThreadWaitCPU && !tr.prevRunning {
			r.pending = append(r.pending, pendingEnd{tr, iv, tr.prevNull})
		}
	case roleSys:
		if closed && !null {
			r.pending = append(r.pending, pendingEnd{tr: tr, iv: iv})
		}
	case roleIRQ:
		if closed && !null {
			AddIRQ(tr.c.hard, &r.slowIRQ, KindHard, tr.n, tr.c.num, iv)
		}
	case roleSoft:
		if !closed || null {
			return
		}
		switch core.CPUStatus(iv.Value.Int()) {
		case core.CPUStatusSoftIRQ:
			AddIRQ(tr.c.soft, &r.slowIRQ, KindSoft, tr.n, tr.c.num, iv)
		case core.CPUStatusSoftIRQRaised:
			r.pending = append(r.pending, pendingEnd{tr: tr, iv: iv})
		}
	}
}

func (r *Recorder) usage(tid int32) *usage {
	u := r.use[tid]
	if u == nil {
		u = &usage{}
		r.use[tid] = u
	}
	return u
}

// flush settles the instant r.now: no change can come at it any more, so
// the states that start there are final.
func (r *Recorder) flush() {
	if len(r.touched) == 0 && len(r.pending) == 0 {
		return
	}
	runs := r.runs[:0] // Current_thread intervals starting now
	r.unseen = r.unseen[:0]
	for _, tr := range r.touched {
		tr.touched = false
		v, null := tr.value, tr.value.IsNull()
		switch tr.role {
		case roleStatus:
			if tr.later && tr.prevNull && !null && !core.ThreadStatusOf(v).Running() {
				r.unseen = append(r.unseen, tr.th.tid)
			}
		case roleName:
			if !null {
				tr.th.name = v
			}
		case rolePID:
			if !null {
				tr.th.pid = v
			}
		case rolePPID:
			if !null && tr.th.forkAt < 0 {
				tr.th.forkAt = r.now
			}
		case rolePrio:
			if p := int32(v.Int()); !null && !slices.Contains(tr.th.prios, p) {
				tr.th.prios = append(tr.th.prios, p)
			}
		case roleIRQName:
			if !null {
				*r.irqNames[tr.n] = v
			}
		case roleCurrent:
			runs = append(runs, tr)
		}
	}
	slices.SortFunc(runs, func(a, b *track) int { return int(a.c.num) - int(b.c.num) })
	for _, tr := range runs {
		r.switched(tr)
	}
	r.runs = runs
	r.touched = r.touched[:0]
	for _, p := range r.pending {
		r.settle(p)
	}
	r.pending = r.pending[:0]
}

// switched follows a CPU's Current_thread interval starting at r.now:
// its first switch, the stretch before it, migrations.
func (r *Recorder) switched(tr *track) {
	c, v := tr.c, tr.value
	null := v.IsNull()
	if !c.seen && c.prevNull && !null && r.now > r.start {
		r.firstSw[r.now], c.seen = true, true
	}
	c.prevNull = null
	if c.ended == 1 && tr.prevNull && !null && len(r.unseen) == 1 && int64(r.unseen[0]) != v.Int() {
		// the CPU's row starts null and this is its second interval
		c.seed = &seedRun{tid: r.unseen[0], ns: int64(r.now - r.start)}
	}
	if null || v.Int() <= 0 {
		return
	}
	u := r.usage(int32(v.Int()))
	if u.ran && u.lastCPU != c.num {
		u.migrations++
	}
	if !u.ran {
		u.firstCPU, u.ran = c.num, true
	}
	u.lastCPU = c.num
}

// settle decides a pending interval from the state at its end + 1.
func (r *Recorder) settle(p pendingEnd) {
	tr, iv := p.tr, p.iv
	next := tr.value
	switch tr.role {
	case roleStatus:
		if !RanNextTo(next) || p.prevNull && r.firstSw[iv.Start] {
			return
		}
		th := tr.th
		th.sched.Add(iv.Duration())
		r.slowSched.Add(Occurrence{TID: th.tid, CPU: -1, StartNS: int64(iv.Start), DurationNS: int64(iv.Duration())}, 0, 0)
	case roleSys:
		th := tr.th
		name := iv.Value.Str()
		if iv.Start == th.forkAt || NeverReturn[name] {
			return
		}
		outcome := "success"
		if th.sysErr != nil && !th.sysErr.value.IsNull() {
			outcome = sysnames.Errno(th.sysErr.value.Int())
		}
		th.calls.Add(name, outcome, iv.Duration())
		r.slowCalls.Add(Occurrence{Name: name, TID: th.tid, CPU: -1, StartNS: int64(iv.Start), DurationNS: int64(iv.Duration())}, 0, 0)
	case roleSoft:
		if !next.IsNull() && core.CPUStatus(next.Int()) == core.CPUStatusSoftIRQ {
			AddIRQ(tr.c.raise, &r.slowRaise, KindSoft, tr.n, tr.c.num, iv)
		}
	}
}

// stop gives up: too many threads to follow.
func (r *Recorder) stop() {
	r.off = true
	r.tracks, r.free, r.threads, r.byTID, r.cpus, r.use, r.touched, r.pending = nil, nil, nil, nil, nil, nil, nil, nil
	r.kinds, r.cur, r.spare = nil, nil, nil
}
