package chrome

import (
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// asyncOpen is the open async slices of one (process, cat, id): several
// when they nest.
type asyncOpen struct {
	group *asyncGroup
	lanes []int // a stack: the lane of each open slice
}

type asyncGroupKey struct {
	proc      *procState
	cat, name string
}

// asyncGroup is the async slices of one name in one process: the count
// attribute and one lane attribute per concurrent depth.
type asyncGroup struct {
	key   core.Key   // Processes/<PID>/Async/<cat>/<name>
	lanes []core.Key // its children 1, 2...
	busy  []bool
}

// asyncSlice counts the open async slices (b/e, and the legacy S/F,
// matched by category and id) of each name in
// Processes/<pid>/Async/<cat>/<name>, and lays them out on lanes
// (children 1, 2...: the lowest lane free when the slice begins) holding
// the slice's id.
func (a *Analysis) asyncSlice(ev *core.Event, r *classRefs, ph byte) error {
	if ev.Field(r.pid).Kind == core.FieldNone {
		return nil
	}
	p := a.proc(ev, r)
	cat := string(ev.Field(r.cat).AppendText(nil))
	id := string(ev.Field(r.id).AppendText(nil))
	ak := asyncKey{proc: p, cat: cat, id: id}
	switch ph {
	case 'b':
		open := a.async[ak]
		if open == nil {
			open = &asyncOpen{group: a.asyncGroup(p, cat, ev.Class.Name)}
			a.async[ak] = open
		}
		g := open.group
		a.modify(g.key, ev.Time, core.Int32(int32(a.sink.Value(g.key).Int())+1))
		lane := 0
		for lane < len(g.busy) && g.busy[lane] {
			lane++
		}
		if lane == len(g.busy) {
			if lane >= maxAsyncLanes {
				return nil // counted, not laid out
			}
			g.busy = append(g.busy, false)
			g.lanes = append(g.lanes, a.tree.Add(g.key, strconv.Itoa(lane+1)))
		}
		g.busy[lane] = true
		open.lanes = append(open.lanes, lane)
		label := id
		if label == "" {
			label = ev.Class.Name
		}
		a.modify(g.lanes[lane], ev.Time, core.String(core.SafeString(label)))
	case 'e':
		open, ok := a.async[ak]
		if !ok {
			return nil
		}
		g := open.group
		if n := len(open.lanes); n > 0 {
			lane := open.lanes[n-1]
			open.lanes = open.lanes[:n-1]
			g.busy[lane] = false
			a.modify(g.lanes[lane], ev.Time, core.Null())
		}
		n := int32(a.sink.Value(g.key).Int()) - 1
		if n <= 0 {
			a.modify(g.key, ev.Time, core.Null())
		} else {
			a.modify(g.key, ev.Time, core.Int32(n))
		}
		if len(open.lanes) == 0 {
			delete(a.async, ak)
		}
	}
	return nil
}

// maxAsyncLanes bounds the lanes of one async name: a trace that opens a
// million overlapping slices gets a count, not a million rows.
const maxAsyncLanes = 64

// asyncGroup returns the lanes of one async name in a process.
func (a *Analysis) asyncGroup(p *procState, cat, name string) *asyncGroup {
	gk := asyncGroupKey{proc: p, cat: cat, name: name}
	g, ok := a.groups[gk]
	if !ok {
		g = &asyncGroup{key: a.tree.AddPath(core.AttrProcesses, strconv.Itoa(int(p.pid)), core.AttrAsync, core.SafeName(cat), core.SafeName(name))}
		a.groups[gk] = g
	}
	return g
}
