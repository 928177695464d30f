package trace

import (
	"context"
	"github.com/tracetui/tracetui/ingest/states/kernel/sysnames"
	"slices"
	"strconv"
	"sync"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/history"
)

// contextFields are the event fields, by preference, that give an event's
// thread and process directly (LTTng-UST contexts, ftrace and Chrome
// readers). Kernel events don't carry them: their thread is the CPU's
// current thread in the kernel state.
var (
	tidFields     = []string{core.FieldVTID, core.FieldTID}
	processFields = []string{core.FieldProcname, core.FieldComm}
)

// classFields caches, per event class ID, where the context fields are.
// One per source instance: classes are the source's own.
type classFields struct {
	byID     []classFieldIdx
	sys      *sysnames.Table // names raw system calls (sysTable)
	sysKnown bool
}

type classFieldIdx struct {
	known      bool
	tid, procN int
	comm       int // the task name, when procN is another field (-1: none)
	sysNR      int // a raw system call's number (-1: not one)
}

func (c *classFields) of(cl *core.EventClass) classFieldIdx {
	for len(c.byID) <= cl.ID {
		c.byID = append(c.byID, classFieldIdx{})
	}
	x := &c.byID[cl.ID]
	if !x.known {
		x.known, x.tid, x.procN = true, firstField(cl, tidFields), firstField(cl, processFields)
		x.comm, x.sysNR = cl.FieldIndex(core.FieldComm), sysNumberField(cl)
		if x.comm == x.procN {
			x.comm = -1
		}
	}
	return *x
}

func firstField(cl *core.EventClass, names []string) int {
	for _, n := range names {
		if i := cl.FieldIndex(n); i >= 0 {
			return i
		}
	}
	return -1
}

// threadResolver fills the TID and Process of rows whose events did not
// carry them, from the state history: the CPU's Current_thread at the
// event's time, then that thread's Exec_name. It answers a whole page (or
// scan block) with two 2D queries, not two queries per row.
type threadResolver struct {
	h    core.History
	once sync.Once // the attribute tree is read on first use, not when the table opens
	tree *core.AttributeTree
	cpus map[int32]core.Key // CPUs/<n>/Current_thread
}

func newThreadResolver(h core.History) *threadResolver { return &threadResolver{h: h} }

func (r *threadResolver) init() {
	r.tree, r.cpus = r.h.Attributes(), map[int32]core.Key{}
	if cpus, ok := r.tree.Child(core.Root, core.AttrCPUs); ok {
		for _, c := range r.tree.Children(cpus) {
			n, err := strconv.Atoi(r.tree.Name(c))
			if k, ok := r.tree.Child(c, core.AttrCurrentThread); ok && err == nil {
				r.cpus[int32(n)] = k
			}
		}
	}
}

// resolve fills rows[i].tid (when < 0) and rows[i].proc (when empty).
func (r *threadResolver) resolve(ctx context.Context, rows []scanRow) error {
	if len(rows) == 0 {
		return nil
	}
	r.once.Do(r.init)
	t0, t1 := rows[0].time, rows[len(rows)-1].time
	var keys []core.Key
	for i := range rows {
		if rows[i].tid < 0 {
			if k, ok := r.cpus[rows[i].cpu]; ok {
				keys = append(keys, k)
			}
		}
	}
	if len(keys) > 0 {
		// The thread that emitted an event is the one running just before
		// it: at a sched_switch's own instant the CPU already runs the
		// next thread.
		states, err := r.query(ctx, keys, t0-1, t1)
		if err != nil {
			return err
		}
		for i := range rows {
			if rows[i].tid >= 0 {
				continue
			}
			if v, ok := valueAt(states[r.cpus[rows[i].cpu]], rows[i].time-1); ok && !v.IsNull() {
				rows[i].tid = v.Int()
			}
		}
	}
	keys = keys[:0]
	names := make(map[int]core.Key) // row index -> Exec_name key
	for i := range rows {
		if len(rows[i].proc) > 0 || rows[i].tid < 0 {
			continue
		}
		if k, ok := r.execNameKey(rows[i].tid, rows[i].cpu); ok {
			names[i] = k
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	states, err := r.query(ctx, keys, t0, t1)
	if err != nil {
		return err
	}
	for i, k := range names {
		if v, ok := valueAt(states[k], rows[i].time); ok {
			rows[i].proc = append(rows[i].proc[:0], v.Str()...)
		}
	}
	return nil
}

// execNameKey returns Threads/<tid>/Exec_name, with the thread named as
// the kernel analysis names it ([core.ThreadName]: the idle thread per CPU).
func (r *threadResolver) execNameKey(tid int64, cpu int32) (core.Key, bool) {
	threads, ok := r.tree.Child(core.Root, core.AttrThreads)
	if !ok {
		return 0, false
	}
	th, ok := r.tree.Child(threads, core.ThreadName(tid, cpu))
	if !ok {
		return 0, false
	}
	return r.tree.Child(th, core.AttrExecName)
}

// query runs one 2D query and returns each key's intervals in time order.
func (r *threadResolver) query(ctx context.Context, keys []core.Key, t0, t1 core.Time) (map[core.Key][]core.Interval, error) {
	rows, _, err := history.Rows(ctx, r.h, keys, t0, t1)
	if err != nil {
		return nil, err
	}
	out := make(map[core.Key][]core.Interval, len(keys))
	for i, k := range keys {
		out[k] = rows[i]
	}
	return out, nil
}

// valueAt finds the value at t in intervals sorted by time.
func valueAt(ivs []core.Interval, t core.Time) (core.Value, bool) {
	i, _ := slices.BinarySearchFunc(ivs, t, func(iv core.Interval, t core.Time) int {
		switch {
		case iv.End < t:
			return -1
		case iv.Start > t:
			return 1
		}
		return 0
	})
	if i < len(ivs) && ivs[i].Contains(t) {
		return ivs[i].Value, true
	}
	return core.Value{}, false
}
