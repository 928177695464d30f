package paje

import (
	"fmt"
	"strconv"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/paje"
)

// Links (StartLink/EndLink matched by type and key) are shown like
// Chrome's flows, on the rows of the containers they join:
//
//	Threads/<id>/Flow_out   "<type>/<value>#<key>" while a link leaves the container
//	Threads/<id>/Flow_in    "<type>/<value>#<key> from <row> at <ns>" from the link's end
//	                        until the container's next state change (after that instant)
//
// A link whose end comes before its start (PajeNG accepts either order)
// is reported and not shown: the states are written in time order.

type linkKey struct {
	typ *typeInfo
	key string
}

type linkStart struct {
	c     *contState
	t     core.Time
	label string
}

// maxOpenLinks bounds the links waiting for their end.
const maxOpenLinks = 1 << 16

// link handles StartLink and EndLink.
func (a *Analysis) link(ev *core.Event, r *classRefs) {
	t := ev.Time
	ti := a.typeOf(text(ev, r.typ))
	lk := linkKey{typ: ti, key: text(ev, r.key)}
	if r.kind == paje.EvStartLink {
		c := a.container(text(ev, r.start))
		a.ensureRow(c, t)
		label := core.SafeString(ti.name + "/" + text(ev, r.value) + "#" + lk.key)
		if len(a.links) < maxOpenLinks {
			a.links[lk] = linkStart{c: c, t: t, label: label}
		}
		c.linksOut++
		a.modify(a.tree.Add(c.row, core.AttrFlowOut), t, core.String(label))
		return
	}
	start, ok := a.links[lk]
	if !ok {
		a.warn(core.Warning{Time: t, Kind: "link-end-first", Count: 1,
			Message: fmt.Sprintf("EndLink %s of %s at %s before its StartLink: not shown", lk.key, ti.name, core.FormatTimestamp(t))})
		return
	}
	delete(a.links, lk)
	if start.c.linksOut--; start.c.linksOut == 0 {
		a.modify(a.tree.Add(start.c.row, core.AttrFlowOut), t, core.Null())
	}
	c := a.container(text(ev, r.end))
	a.ensureRow(c, t)
	c.flowIn, c.flowInAt = a.tree.Add(c.row, core.AttrFlowIn), t
	a.modify(c.flowIn, t, core.String(start.label+" from "+a.rowID(start.c)+" at "+strconv.FormatInt(int64(start.t), 10)))
}

// endFlowIn nulls the container's Flow_in when its state changes after
// the link arrived (a change at the same instant is the state the link
// arrives into).
func (a *Analysis) endFlowIn(c *contState, t core.Time) {
	if c.flowIn > 0 && t > c.flowInAt {
		a.modify(c.flowIn, t, core.Null())
		c.flowIn = 0
	}
}
