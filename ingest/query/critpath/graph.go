package critpath

import (
	"context"
	"math"
	"slices"

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
func (w Worker) attrName() string { return core.ThreadName(int64(w.TID), w.CPU) }

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
	lo, hi core.Time // the instants loaded: edges are exact over [lo, hi]
	edges  []edge
	forks  map[core.Time]Worker // child's first instant -> parent
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

// graph loads workers' timelines from a history, over the parts of time
// the path needs.
type graph struct {
	ctx     context.Context
	h       core.History
	threads core.Key
	loaded  map[Worker]*timeline
}

// timeline returns w's edges, loaded at least over [from, to].
func (g *graph) timeline(w Worker, from, to core.Time) (*timeline, error) {
	tl, ok := g.loaded[w]
	if ok && tl.lo <= from && to <= tl.hi {
		return tl, nil
	}
	if ok {
		from, to = min(from, tl.lo), max(to, tl.hi)
	}
	if err := g.load([]Worker{w}, from, to); err != nil {
		return nil, err
	}
	return g.loaded[w], nil
}

// window is a part of a worker's history the path needs: [from, to).
type window struct {
	w        Worker
	from, to core.Time
}

// maxPrefetchLevels bounds the levels of wakers [graph.prefetch] loads
// ahead; deeper ones load on demand.
const maxPrefetchLevels = 8

// prefetch loads, one 2D query per level, the workers the path will read:
// the wakers of the linked sleeps inside wins, then theirs inside those
// sleeps, and so on, each level over the hull of its windows. A query
// per worker would read the same tree nodes once per worker.
func (g *graph) prefetch(wins []window) error {
	for range maxPrefetchLevels {
		var next []window
		var missing []Worker
		lo, hi := core.Time(math.MaxInt64), core.Time(math.MinInt64)
		for _, win := range wins {
			tl := g.loaded[win.w]
			if tl == nil {
				continue
			}
			i, _ := slices.BinarySearchFunc(tl.edges, win.from, func(e edge, t core.Time) int {
				if e.end <= t {
					return -1
				}
				return 1
			})
			for ; i < len(tl.edges) && tl.edges[i].start < win.to; i++ {
				e := &tl.edges[i]
				if !e.link {
					continue
				}
				nw := window{e.waker, max(win.from, e.start), e.end}
				next = append(next, nw)
				if l, ok := g.loaded[e.waker]; ok && l.lo <= nw.from && nw.to <= l.hi {
					continue
				} else if ok {
					lo, hi = min(lo, l.lo), max(hi, l.hi) // reload it over both
				}
				if !slices.Contains(missing, e.waker) {
					missing = append(missing, e.waker)
				}
				lo, hi = min(lo, nw.from), max(hi, nw.to)
			}
		}
		if len(missing) == 0 {
			return nil
		}
		if err := g.load(missing, lo, hi); err != nil {
			return err
		}
		wins = next
	}
	return nil
}

// load reads the timelines of ws over [lo, hi] with one 2D query.
func (g *graph) load(ws []Worker, lo, hi core.Time) error {
	tree := g.h.Attributes()
	var keys []core.Key
	type rows struct {
		status, wakers []core.Interval
	}
	byKey := map[core.Key]*rows{}
	wakerOf := map[core.Key]*rows{}
	perWorker := make([]*rows, len(ws))
	for i, w := range ws {
		r := &rows{}
		perWorker[i] = r
		key, ok := tree.Child(g.threads, w.attrName())
		if !ok {
			continue
		}
		keys = append(keys, key)
		byKey[key] = r
		if wk, ok := tree.Child(key, core.AttrWaker); ok {
			keys = append(keys, wk)
			wakerOf[wk] = r
		}
	}
	if len(keys) > 0 {
		_, err := g.h.Query2D(g.ctx, keys, lo, hi, func(iv core.Interval) bool {
			if r, ok := byKey[iv.Key]; ok {
				r.status = append(r.status, iv)
			} else if !iv.Value.IsNull() {
				r := wakerOf[iv.Key]
				r.wakers = append(r.wakers, iv)
			}
			return true
		})
		if err != nil {
			return err
		}
	}
	for i, w := range ws {
		tl := newTimeline(w, perWorker[i].status, perWorker[i].wakers)
		tl.lo, tl.hi = lo, hi
		g.loaded[w] = tl
	}
	return nil
}

// newTimeline types w's status intervals into edges, the sleeps by the
// Waker intervals that start where they end.
func newTimeline(w Worker, status, wakers []core.Interval) *timeline {
	tl := &timeline{edges: make([]edge, 0, len(status))}
	core.SortByStart(status) // one key's each
	core.SortByStart(wakers)
	j := 0
	for _, iv := range status {
		st, ok := statusState(iv.Value)
		if !ok {
			continue
		}
		e := edge{start: iv.Start, end: iv.End + 1, state: st}
		if st == Blocked {
			for j < len(wakers) && wakers[j].Start < e.end {
				j++
			}
			var wk core.Waker
			ok := j < len(wakers) && wakers[j].Start == e.end
			if ok {
				wk, ok = core.DecodeWaker(wakers[j].Value)
			}
			e.state, e.reason, e.link = wokenState(wk, ok)
			if e.link {
				e.waker = workerOf(wk)
				e.link = e.waker != w // a thread never explains its own sleep
			}
		}
		tl.edges = append(tl.edges, e)
	}
	for _, iv := range wakers {
		if wk, ok := core.DecodeWaker(iv.Value); ok && wk.Kind == core.WakerFork {
			if tl.forks == nil {
				tl.forks = map[core.Time]Worker{}
			}
			tl.forks[iv.Start] = workerOf(wk)
		}
	}
	return tl
}
