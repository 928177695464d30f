package critpath

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/tracetui/tracetui/core"
)

// Segment is one piece of the path: Worker was in State over [Start, End)
// on the target's behalf.
type Segment struct {
	Start, End core.Time
	Worker     Worker
	State      State
	Reason     string // what ended a wait, or why a piece is unknown; may be empty
}

// Path is the critical path of a thread over [From, To).
type Path struct {
	Target   Worker
	From, To core.Time
	// Segments tile [From, To) in time order, except where the target has
	// no state (before it appears, after it is freed).
	Segments []Segment
	// Names holds each worker's Exec_name (its last in the range).
	Names map[Worker]string
	// Work is the number of edges visited; Truncated is set when
	// [Options.MaxWork] or the depth limit was reached, so some sleeps are
	// "unknown" instead of explained.
	Work      int
	Truncated bool
}

// Options bound the computation.
type Options struct {
	MaxWork int // edges visited at most; 0 means [DefaultMaxWork]
}

// DefaultMaxWork bounds the edges one path visits: far above a whole
// real trace's path (tens of thousands), low enough to answer in about a
// second on a pathological one.
const DefaultMaxWork = 1 << 21

// maxDepth bounds the nesting of waits explained inside a sleep (a chain
// of threads each waiting on the next); real chains are a few levels.
const maxDepth = 64

// ErrNoThread: the target thread is not in the index, or has no state in
// the range.
var ErrNoThread = errors.New("thread not in the index")

// reasonBound marks the part of a sleep left unexplained by the bounds.
const reasonBound = "work bound reached"

// Compute returns the critical path of target over [from, to), reading
// the kernel state history h (Threads/<tid> statuses and their Waker links).
func Compute(ctx context.Context, h core.History, target Worker, from, to core.Time, opt Options) (*Path, error) {
	if to <= from {
		return nil, fmt.Errorf("critical path: empty range [%d, %d)", from, to)
	}
	if opt.MaxWork <= 0 {
		opt.MaxWork = DefaultMaxWork
	}
	threads, ok := h.Attributes().Child(core.Root, core.AttrThreads)
	if !ok {
		return nil, fmt.Errorf("critical path of %s: %w (no Threads attribute: not a kernel trace)", target.attrName(), ErrNoThread)
	}
	c := &computer{opt: opt, g: &graph{ctx: ctx, h: h, threads: threads, loaded: map[Worker]*timeline{}}}
	c.path = &Path{Target: target, From: from, To: to}
	// The target's edges that overlap the range fix the window every
	// sleep is explained in; load the others over that window.
	tl, err := c.g.timeline(target, from, to-1)
	if err != nil {
		return nil, err
	}
	if len(tl.edges) == 0 {
		return nil, fmt.Errorf("critical path of %s: %w", target.attrName(), ErrNoThread)
	}
	// The last edge's end, where a Waker interval may start.
	if tl, err = c.g.timeline(target, from, max(to, tl.edges[len(tl.edges)-1].end)); err != nil {
		return nil, err
	}
	if err := c.g.prefetch([]window{{target, from, to}}); err != nil {
		return nil, err
	}
	for _, e := range tl.edges {
		s, en := max(e.start, from), min(e.end, to)
		if s >= en {
			continue
		}
		if e.state == Blocked && e.link {
			if err := c.sleep(e, s, en); err != nil {
				return nil, err
			}
			continue
		}
		c.emit(Segment{Start: s, End: en, Worker: target, State: e.state, Reason: e.reason})
	}
	c.path.Work = c.work
	if err := c.names(ctx, h, threads); err != nil {
		return nil, err
	}
	return c.path, nil
}

// computer holds one computation's state.
type computer struct {
	opt  Options
	g    *graph
	path *Path
	work int
	err  error
}

// sleep replaces the target's sleep e, seen over [s, en), by its waker's
// path from the sleep's start to the wake-up (guide §4.2-4.4), clipped.
func (c *computer) sleep(e edge, s, en core.Time) error {
	segs := c.resolve(e.waker, e.end, s, 0) // newest first
	if c.err != nil {
		return c.err
	}
	slices.Reverse(segs)
	if len(segs) == 0 || segs[0].Start > s {
		fill := Segment{Start: s, End: e.end, Worker: e.waker, State: Unknown, Reason: "waker's history unknown"}
		if len(segs) > 0 {
			fill.End, fill.Worker = segs[0].Start, segs[0].Worker
		}
		segs = append([]Segment{fill}, segs...)
	}
	for _, sg := range segs {
		if sg.End > en {
			sg.End = en
		}
		if sg.Start < sg.End {
			c.emit(sg)
		}
	}
	return nil
}

// resolve walks worker w's history back from v to bound b, replacing its
// own linked sleeps by their wakers' paths; it returns the segments
// newest first. They cover [x, v) for some x >= b: what lies before x is
// not known (the waker's history starts later).
func (c *computer) resolve(w Worker, v, b core.Time, depth int) []Segment {
	var segs []Segment
	for v > b && c.err == nil {
		if c.spend() {
			return append(segs, Segment{Start: b, End: v, Worker: w, State: Unknown, Reason: reasonBound})
		}
		tl, err := c.g.timeline(w, b, v)
		if err != nil {
			c.err = err
			return nil
		}
		e := tl.before(v)
		if e == nil {
			parent, ok := tl.forks[v]
			if !ok {
				break
			}
			w = parent // backtrack: a thread forked during the window continues its parent's path
			continue
		}
		s := max(e.start, b)
		switch {
		case e.state == Blocked && e.link && e.end == v:
			if depth >= maxDepth {
				c.path.Truncated = true
				segs = append(segs, Segment{Start: s, End: v, Worker: w, State: Unknown, Reason: reasonBound})
				break
			}
			sub := c.resolve(e.waker, v, s, depth+1)
			segs = append(segs, sub...)
			if x := lowest(sub, v); x > s {
				segs = append(segs, Segment{Start: s, End: x, Worker: e.waker, State: Unknown, Reason: "waker's history unknown"})
			}
		case e.state == Blocked:
			// Trace Compass drops a nested sleep it cannot explain and
			// bridges the hole with an edge drawn as unknown.
			segs = append(segs, Segment{Start: s, End: v, Worker: w, State: Unknown, Reason: "blocked, waker unknown"})
		default:
			segs = append(segs, Segment{Start: s, End: v, Worker: w, State: e.state, Reason: e.reason})
		}
		v = s
	}
	return segs
}

// lowest returns the earliest start of segs (newest first), or v if empty.
func lowest(segs []Segment, v core.Time) core.Time {
	if len(segs) == 0 {
		return v
	}
	return segs[len(segs)-1].Start
}

// spend counts one unit of work; it reports true, and marks the path
// truncated, once the bound is passed. It also checks cancellation.
func (c *computer) spend() bool {
	c.work++
	if c.work&1023 == 0 {
		if err := c.g.ctx.Err(); err != nil {
			c.err = err
			return true
		}
	}
	if c.work > c.opt.MaxWork {
		c.path.Truncated = true
		return true
	}
	return false
}

// emit appends a segment, merging it into the previous one when it
// continues it (same worker, state and reason).
func (c *computer) emit(s Segment) {
	p := c.path
	if n := len(p.Segments); n > 0 {
		last := &p.Segments[n-1]
		if last.End == s.Start && last.Worker == s.Worker && last.State == s.State && last.Reason == s.Reason {
			last.End = s.End
			return
		}
	}
	p.Segments = append(p.Segments, s)
}

// names fills Path.Names with one 2D query over the workers' Exec_name.
func (c *computer) names(ctx context.Context, h core.History, threads core.Key) error {
	tree := h.Attributes()
	byKey := map[core.Key]Worker{}
	c.path.Names = map[Worker]string{}
	for _, s := range c.path.Segments {
		if _, seen := c.path.Names[s.Worker]; seen {
			continue
		}
		c.path.Names[s.Worker] = ""
		if k, ok := tree.Child(threads, s.Worker.attrName()); ok {
			if nk, ok := tree.Child(k, core.AttrExecName); ok {
				byKey[nk] = s.Worker
			}
		}
	}
	keys := make([]core.Key, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	// A name at the path's last instant is the latest of the range: one
	// stabbing query. Only the others (a thread gone before the end)
	// need the range's intervals, which on a long capture cost most of
	// the path's time (a 2D query over the whole trace).
	last := c.path.To - 1
	var rest []core.Key
	_, err := h.Query2DTimes(ctx, keys, []core.Time{last}, func(iv core.Interval) bool {
		if iv.Value.Kind() == core.KindString {
			c.path.Names[byKey[iv.Key]] = iv.Value.Str()
			delete(byKey, iv.Key)
		}
		return true
	})
	if err != nil || len(byKey) == 0 {
		return err
	}
	for k := range byKey {
		rest = append(rest, k)
	}
	latest := map[core.Key]core.Time{}
	_, err = h.Query2D(ctx, rest, c.path.From, last, func(iv core.Interval) bool {
		if t, ok := latest[iv.Key]; iv.Value.Kind() == core.KindString && (!ok || iv.Start > t) {
			latest[iv.Key] = iv.Start
			c.path.Names[byKey[iv.Key]] = iv.Value.Str()
		}
		return true
	})
	return err
}
