package samples

import (
	"fmt"

	"github.com/tracetui/tracetui/core"
)

// Analysis counts each thread's samples into Threads/<tid>/Samples.
type Analysis struct {
	sink     core.StateSink
	tree     *core.AttributeTree
	threads  core.Key
	samples  uint32 // the name "Samples", interned
	isSample func(*core.EventClass) bool
	plans    []int8           // by class ID: 0 unresolved, 1 not a sample, 2 a sample
	tidAt    []int            // by class ID: its FieldTID index
	counts   map[int64]*count // by tid; the idle thread by -1-cpu
}

// count is one thread's running count.
type count struct {
	key core.Key
	n   int64
}

// New returns the analysis writing to sink; isSample tells the classes
// whose events are samples (perfdata.IsSampleClass).
func New(sink core.StateSink, isSample func(*core.EventClass) bool) *Analysis {
	tree := sink.Attributes()
	return &Analysis{sink: sink, tree: tree, threads: tree.Add(core.Root, core.AttrThreads),
		samples: tree.Intern(core.AttrSamples), isSample: isSample, counts: map[int64]*count{}}
}

// Detect reports whether classes hold samples (isSample); nil classes
// (not listed) may.
func Detect(classes []*core.EventClass, isSample func(*core.EventClass) bool) bool {
	if classes == nil {
		return true
	}
	for _, cl := range classes {
		if isSample(cl) {
			return true
		}
	}
	return false
}

// Handle counts ev when it is a sample of a known thread.
func (a *Analysis) Handle(ev *core.Event) error {
	id := ev.Class.ID
	if id < 0 {
		return nil
	}
	if id >= len(a.plans) {
		a.plans = append(a.plans, make([]int8, id+1-len(a.plans))...)
		a.tidAt = append(a.tidAt, make([]int, id+1-len(a.tidAt))...)
	}
	if a.plans[id] == 0 {
		a.plans[id], a.tidAt[id] = 1, -1
		if fi := ev.Class.FieldIndex(core.FieldTID); fi >= 0 && a.isSample(ev.Class) {
			a.plans[id], a.tidAt[id] = 2, fi
		}
	}
	if a.plans[id] != 2 {
		return nil
	}
	tid, ok := ev.Field(a.tidAt[id]).AsInt()
	if !ok || tid < 0 || tid > 1<<31-1 {
		return nil // perf's -1: no thread
	}
	idx := tid
	if tid == 0 {
		if ev.CPU < 0 {
			return nil
		}
		idx = -1 - int64(ev.CPU)
	}
	c := a.counts[idx]
	if c == nil {
		th := a.tree.Add(a.threads, core.ThreadName(tid, ev.CPU))
		c = &count{key: a.tree.AddID(th, a.samples)}
		a.counts[idx] = c
	}
	c.n++
	if err := a.sink.Modify(c.key, ev.Time, core.Int64(c.n)); err != nil {
		return fmt.Errorf("samples of thread %d: %w", tid, err)
	}
	return nil
}

// Finish does nothing: the counts hold to the end.
func (a *Analysis) Finish(core.Time) error { return nil }
