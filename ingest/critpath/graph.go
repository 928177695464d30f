package critpath

import (
	"context"
	"slices"
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// Worker identifies a row of the path: a thread, or (TID 0) the idle
// thread of one CPU.
type Worker struct {
	TID int32
	CPU int32 // the CPU of an idle thread; -1 for other threads
}

// attrName is the worker's attribute name under Threads ("0_<cpu>" for
// an idle thread).
func (w Worker) attrName() string {
	if w.TID == 0 {
		return "0_" + strconv.Itoa(int(w.CPU))
	}
	return strconv.Itoa(int(w.TID))
}

// workerOf returns the worker a thread waker names.
func workerOf(w core.Waker) Worker {
	if w.ID == 0 {
		return Worker{TID: 0, CPU: w.CPU}
	}
	return Worker{TID: w.ID, CPU: -1}
}

// edge is one state of a worker, [start, end).
type edge struct {
	start, end core.Time
	state      State
	reason     string
	link       bool   // a blocked edge ended by a thread: waker is set
	waker      Worker // the thread that ended it (link), or the forking parent (fork)
}

// timeline is a worker's edges over the loaded window, in time order,
// and its fork links by time.
type timeline struct {
	edges []edge
	forks map[core.Time]Worker // child's first instant -> parent
}

// before returns the edge that contains the instant just before v
// (start < v <= end), or nil where the worker has no state.
func (tl *timeline) before(v core.Time) *edge {
	i, _ := slices.BinarySearchFunc(tl.edges, v, func(e edge, v core.Time) int {
		if e.end < v {
			return -1
		}
		return 1
	})
	if i < len(tl.edges) && tl.edges[i].start < v {
		return &tl.edges[i]
	}
	return nil
}

// graph loads workers' timelines lazily from a history, over [lo, hi].
type graph struct {
	ctx     context.Context
	h       core.History
	threads core.Key
	lo, hi  core.Time
	loaded  map[Worker]*timeline
}

// timeline returns w's edges, loading them with one 2D query the first time.
func (g *graph) timeline(w Worker) (*timeline, error) {
	if tl, ok := g.loaded[w]; ok {
		return tl, nil
	}
	tl := &timeline{}
	g.loaded[w] = tl
	tree := g.h.Attributes()
	key, ok := tree.Child(g.threads, w.attrName())
	if !ok {
		return tl, nil
	}
	keys := []core.Key{key}
	wakerKey, hasWaker := tree.Child(key, core.AttrWaker)
	if hasWaker {
		keys = append(keys, wakerKey)
	}
	var status []core.Interval
	wakers := map[core.Time]core.Waker{}
	_, err := g.h.Query2D(g.ctx, keys, g.lo, g.hi, func(iv core.Interval) bool {
		if iv.Key == key {
			status = append(status, iv)
		} else if wk, ok := core.DecodeWaker(iv.Value); ok {
			wakers[iv.Start] = wk
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	core.SortIntervals(status)
	for _, iv := range status {
		st, ok := statusState(iv.Value)
		if !ok {
			continue
		}
		e := edge{start: iv.Start, end: iv.End + 1, state: st}
		if st == Blocked {
			wk, ok := wakers[e.end]
			e.state, e.reason, e.link = wokenState(wk, ok)
			if e.link {
				e.waker = workerOf(wk)
				e.link = e.waker != w // a thread never explains its own sleep
			}
		}
		tl.edges = append(tl.edges, e)
	}
	for t, wk := range wakers {
		if wk.Kind == core.WakerFork {
			if tl.forks == nil {
				tl.forks = map[core.Time]Worker{}
			}
			tl.forks[t] = workerOf(wk)
		}
	}
	return tl, nil
}
