package stats

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest/states/kernel/kstats"
)

// Options selects the range and the length of the N-worst lists.
type Options struct {
	// From and To bound the range [From, To); To <= From means the whole
	// history.
	From, To core.Time
	// Top is N of the N-worst lists: 0 means DefaultTop, at most MaxTop.
	Top int
	// Parts selects the analyses to run (and the attributes to read); 0
	// means all.
	Parts Part
	// BatchThreads is how many threads' states are read at once: the
	// memory of a Compute is that of two batches (one read ahead),
	// whatever the trace's length. 0 batches the threads by their
	// intervals instead (BatchIntervals); tests set it.
	BatchThreads int
	// BatchIntervals, when BatchThreads is 0, is the most intervals a
	// batch holds (the threads weighed first, whatever the history's
	// size); 0 chooses it (batchIntervals, and no weighing of a history
	// of fewer). Tests set it.
	BatchIntervals int
	// TimeWindows is how many windows of time the CPUs' Current_thread
	// rows are read in, one after the other. 0 chooses it from the
	// history's size; tests set it.
	TimeWindows int
	// Scan reads the history even for the whole trace, whose report the
	// index stores (stored.go): tests compare the two.
	Scan bool
}

// Part is a set of analyses.
type Part uint8

// The analyses [Compute] can run.
const (
	PartCPU Part = 1 << iota
	PartSyscalls
	PartSched
	PartIRQs
	AllParts = PartCPU | PartSyscalls | PartSched | PartIRQs
)

// DefaultTop and MaxTop bound the N-worst lists.
const (
	DefaultTop = 10
	MaxTop     = 10000
)

// ErrTop is returned for a Top outside [0, MaxTop].
var ErrTop = errors.New("analyses: top N out of range")

// threadKeys are the attributes of one Threads/<tid>, -1 when absent.
type threadKeys struct {
	tid                                        int32
	status, name, pid, ppid, sys, sysErr, prio core.Key
}

// cpuKeys are the attributes of one CPUs/<n>.
type cpuKeys struct {
	num   int32
	cur   core.Key
	irqs  []numKey
	softs []numKey
}

type numKey struct {
	n   int64
	key core.Key
}

// query is one Compute run: the range, the rows of every attribute read.
type query struct {
	from, to core.Time // [from, to)
	end      core.Time // the history's last instant: intervals reaching it are still open
	top      int
	rows     [][]core.Interval // by key (the attribute tree's keys are dense)
	threads  []threadKeys
	byTID    map[int32]*threadKeys
	cpus     []cpuKeys
	irqNames map[int64]core.Key // IRQ_names/<irq>
	// early holds the threads' states up to the last CPU's first switch
	// (readFirstStates), for unseenRun: the batches' rows come later.
	early map[core.Key][]core.Interval
	// ctx is Compute's: the analyses of a batch look at it every
	// checkThreads threads and checkIntervals intervals of a row (a
	// batch, or one thread's row, can be seconds of a busy capture).
	ctx context.Context
}

// accumulators are what the analyses sum over the batches of threads.
type accumulators struct {
	usageAt   map[int32]int // tid -> its row in CPUUsage.Threads
	calls     map[string]*kstats.CallStats
	slowCalls kstats.Worst
	slowSched kstats.Worst
	procs     map[int32]*LatencyRow
	firstSw   map[core.Time]bool
}

func newAccumulators(top int) *accumulators {
	return &accumulators{usageAt: map[int32]int{}, calls: map[string]*kstats.CallStats{}, slowCalls: kstats.Worst{N: top},
		slowSched: kstats.Worst{N: top}, procs: map[int32]*LatencyRow{}}
}

// Compute runs every analysis over h in o's range. It reads the history
// with one 2D query; ctx cancels it.
func Compute(ctx context.Context, h core.History, o Options) (*Report, error) {
	if o.Top < 0 || o.Top > MaxTop {
		return nil, fmt.Errorf("%w: %d (use 1 to %d)", ErrTop, o.Top, MaxTop)
	}
	if o.Top == 0 {
		o.Top = DefaultTop
	}
	start, end := h.Bounds()
	q := &query{from: max(o.From, start), to: min(o.To, end+1), end: end, top: o.Top, byTID: map[int32]*threadKeys{}}
	if o.To <= o.From {
		q.from, q.to = start, end+1
	}
	rep := &Report{FromNS: int64(q.from), ToNS: int64(q.to)}
	if q.to <= q.from {
		return rep, nil
	}
	if o.Parts == 0 {
		o.Parts = AllParts
	}
	if q.from == start && q.to == end+1 && !o.Scan {
		if rep := stored(h, o.Top); rep != nil {
			return onlyParts(rep, o.Parts), nil
		}
	}
	// The threads' states (status, system calls, errors, priorities) are
	// most of a trace's intervals: they are read a batch of threads at a
	// time; the rest (names, CPUs, interrupts) at once.
	keys := q.findKeys(h.Attributes(), o.Parts)
	perThread := map[core.Key]bool{}
	for _, th := range q.threads {
		for _, k := range th.stateKeys() {
			perThread[k] = true
		}
	}
	for _, c := range q.cpus {
		perThread[c.cur] = true // read a window at a time (current.go)
	}
	var shared []core.Key
	for _, k := range keys {
		if !perThread[k] {
			shared = append(shared, k)
		}
	}
	// The threads are weighed and their batches read ahead, the first
	// while the shared rows and the CPUs' are read and summed.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops the reading ahead on an early return
	q.ctx = ctx
	ahead := q.readAhead(ctx, h, o.BatchThreads, o.BatchIntervals)
	q.rows = make([][]core.Interval, h.Attributes().Len())
	if err := q.read(ctx, h, shared, q.from, q.to-1); err != nil {
		return nil, err
	}
	if err := q.readHeads(ctx, h); err != nil {
		return nil, err
	}
	a := newAccumulators(q.top)
	if o.Parts&PartCPU != 0 {
		if err := q.readFirstStates(ctx, h); err != nil {
			return nil, err
		}
	}
	if o.Parts&(PartCPU|PartSched) != 0 {
		ct, err := q.cpuTime(ctx, h, a, q.windows(h, o.TimeWindows), o.Parts&PartCPU != 0)
		if err != nil {
			return nil, err
		}
		if o.Parts&PartCPU != 0 {
			q.cpuUsage(rep, a, ct)
		}
	}
	var run *threadRun // of the thread read a window of time at a time
	for r := range ahead {
		if r.err != nil {
			return nil, r.err
		}
		batch, ks := r.batch, r.keys
		for i, k := range ks {
			q.rows[k] = r.rows[i]
		}
		if r.win != nil {
			if r.win.i == 0 {
				run = &threadRun{}
			}
			q.windowAnalyses(rep, a, o.Parts, &batch[0], r.win, run)
		} else {
			q.batchAnalyses(rep, a, o.Parts, batch)
		}
		for _, k := range ks { // the batch's rows are garbage now
			q.rows[k] = nil
		}
	}
	if o.Parts&PartSyscalls != 0 {
		q.syscallFinish(rep, a)
	}
	if o.Parts&PartSched != 0 {
		q.schedFinish(rep, a)
	}
	if o.Parts&PartIRQs != 0 {
		q.interrupts(rep)
	}
	return rep, ctx.Err()
}

// batchAnalyses runs the analyses of parts over the rows of a batch of
// threads.
func (q *query) batchAnalyses(rep *Report, a *accumulators, parts Part, batch []threadKeys) {
	if parts&PartCPU != 0 {
		q.prioBatch(rep, a, batch)
	}
	if parts&PartSyscalls != 0 {
		q.syscallBatch(rep, a, batch)
	}
	if parts&PartSched != 0 {
		q.schedBatch(rep, a, batch)
	}
}

// stateKeys are a thread's attributes that change all through the trace.
func (th *threadKeys) stateKeys() []core.Key {
	var out []core.Key
	for _, k := range []core.Key{th.status, th.sys, th.sysErr, th.prio} {
		if k >= 0 {
			out = append(out, k)
		}
	}
	return out
}

// read adds the rows of keys over [t0, t1] to q.rows.
func (q *query) read(ctx context.Context, h core.History, keys []core.Key, t0, t1 core.Time) error {
	if len(keys) == 0 {
		return nil
	}
	rows, _, err := history.Rows(ctx, h, keys, t0, t1)
	if err != nil {
		return fmt.Errorf("analyses: reading the state history: %w", err)
	}
	for i, k := range keys {
		q.rows[k] = rows[i]
	}
	return nil
}

// findKeys lists the attributes the parts read.
func (q *query) findKeys(at *core.AttributeTree, parts Part) []core.Key {
	var keys []core.Key
	child := func(parent core.Key, name string, need Part) core.Key {
		if k, ok := at.Child(parent, name); ok && parts&need != 0 {
			keys = append(keys, k)
			return k
		}
		return -1
	}
	if threads, ok := at.Lookup(core.AttrThreads); ok {
		at.EachChild(threads, func(th core.Key) {
			tid, err := strconv.ParseInt(at.Name(th), 10, 32)
			if err != nil || tid <= 0 {
				return // "0_<cpu>": idle threads
			}
			status := core.Key(-1)
			if parts&(PartCPU|PartSched) != 0 {
				status = th
				keys = append(keys, th)
			}
			q.threads = append(q.threads, threadKeys{
				tid: int32(tid), status: status,
				name: child(th, core.AttrExecName, AllParts), pid: child(th, core.AttrPID, AllParts),
				ppid: child(th, core.AttrPPID, PartSyscalls|PartSched),
				sys:  child(th, core.AttrSystemCall, PartSyscalls), sysErr: child(th, core.AttrSyscallError, PartSyscalls),
				prio: child(th, core.AttrPrio, PartCPU),
			})
		})
	}
	for i := range q.threads {
		q.byTID[q.threads[i].tid] = &q.threads[i]
	}
	numbered := func(parent core.Key, name string) []numKey {
		var out []numKey
		if p, ok := at.Child(parent, name); ok && parts&PartIRQs != 0 {
			at.EachChild(p, func(k core.Key) {
				if n, err := strconv.ParseInt(at.Name(k), 10, 64); err == nil {
					out = append(out, numKey{n, k})
					keys = append(keys, k)
				}
			})
		}
		return out
	}
	if names, ok := at.Lookup(core.AttrIRQNames); ok && parts&PartIRQs != 0 {
		q.irqNames = map[int64]core.Key{}
		at.EachChild(names, func(k core.Key) {
			if n, err := strconv.ParseInt(at.Name(k), 10, 64); err == nil {
				q.irqNames[n] = k
				keys = append(keys, k)
			}
		})
	}
	if cpus, ok := at.Lookup(core.AttrCPUs); ok {
		at.EachChild(cpus, func(c core.Key) {
			n, err := strconv.ParseInt(at.Name(c), 10, 32)
			if err != nil {
				return
			}
			q.cpus = append(q.cpus, cpuKeys{num: int32(n), cur: child(c, core.AttrCurrentThread, PartCPU|PartSched),
				irqs: numbered(c, core.AttrIRQs), softs: numbered(c, core.AttrSoftIRQs)})
		})
	}
	return keys
}

// clip returns the part of iv inside the range, in ns (0 if none).
func (q *query) clip(iv core.Interval) int64 {
	s, e := max(iv.Start, q.from), min(iv.End, q.to-1)
	if e < s {
		return 0
	}
	return int64(e - s + 1)
}

// closed reports whether iv lies inside the range and was ended by a
// change (not by the end of the history): a complete occurrence.
func (q *query) closed(iv core.Interval) bool {
	return iv.Start >= q.from && iv.End+1 < q.to && iv.End < q.end
}

// row returns the intervals read of k (none for -1, an attribute the
// trace lacks).
func (q *query) row(k core.Key) []core.Interval {
	if k < 0 || int(k) >= len(q.rows) {
		return nil
	}
	return q.rows[k]
}

// last returns the last non-null value of key in the range (null if none).
func (q *query) last(k core.Key) core.Value {
	if k < 0 {
		return core.Null()
	}
	r := q.row(k)
	for i := len(r) - 1; i >= 0; i-- {
		if !r[i].Value.IsNull() {
			return r[i].Value
		}
	}
	return core.Null()
}

// comm returns a thread's name in the range ("" unknown).
func (q *query) comm(tid int32) string {
	if th := q.byTID[tid]; th != nil {
		return q.last(th.name).Str()
	}
	return ""
}

// pid returns a thread's process id, and false (with the tid, which
// the reports' thread rows show as their PID) when the trace does not say.
func (q *query) pid(tid int32) (int32, bool) {
	if th := q.byTID[tid]; th != nil {
		if v := q.last(th.pid); v.Kind() == core.KindInt32 || v.Kind() == core.KindInt64 {
			return int32(v.Int()), true
		}
	}
	return tid, false
}

// threadName formats "comm (tid)" for occurrence names.
func (q *query) threadName(tid int32) string {
	var b strings.Builder
	b.WriteString(q.comm(tid))
	b.WriteString(" (")
	b.WriteString(strconv.Itoa(int(tid)))
	b.WriteString(")")
	return b.String()
}
