package kernel

import (
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// irqNames records each hard IRQ's handler name (irq_handler_entry's
// "name" field) in IRQ_names/<irq>. A value is written only when the
// name of an IRQ is first seen or changes, so the attribute costs a
// handful of intervals however many interrupts the trace holds.
type irqNames struct {
	key   core.Key // IRQ_names, -1 until a name is seen
	idx   idMap    // IRQ number -> index in names
	names []irqName
}

type irqName struct {
	key core.Key
	raw string // the trace's bytes of the last name written, compared as is
}

// setIRQName records that IRQ n's handler is named raw (nothing when the
// event has no name field).
func (a *Analysis) setIRQName(n int64, raw []byte) {
	if raw == nil {
		return
	}
	r := &a.irqNames
	if i := r.idx.get(n); i >= 0 {
		if r.names[i].raw == string(cutNUL(raw)) {
			return // the common case: same handler, no allocation
		}
	} else {
		if r.key < 0 {
			r.key = a.tree.Add(core.Root, core.AttrIRQNames)
		}
		r.names = append(r.names, irqName{key: a.tree.Add(r.key, strconv.FormatInt(n, 10))})
		r.idx.set(n, int32(len(r.names)-1))
	}
	q := &r.names[r.idx.get(n)]
	q.raw = string(cutNUL(raw))
	a.modify(q.key, core.String(cleanText(raw)))
}
