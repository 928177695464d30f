package frame

import (
	"bytes"
	"context"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index/pstree"
)

// rowKind is what a row of the tree stands for (see [pstree.Kind]).
type rowKind uint8

const (
	KindProcess   = rowKind(pstree.KindProcess)
	KindThread    = rowKind(pstree.KindThread)
	KindCallStack = rowKind(pstree.KindCallStack)
	KindCPU       = rowKind(pstree.KindCPU)
	kindIRQ       = rowKind(pstree.KindIRQ)
	kindSoftIRQ   = rowKind(pstree.KindSoftIRQ)
	kindAsync     = rowKind(pstree.KindAsync)
	kindCounter   = rowKind(pstree.KindCounter)
	KindSamples   = rowKind(pstree.KindSamples)
)

// Domain returns how the row's integer values are read.
func (k rowKind) Domain() ValueDomain {
	switch k {
	case KindProcess, KindThread:
		return DomainThread
	case KindCPU, kindIRQ, kindSoftIRQ:
		return DomainCPU
	case kindCounter:
		return domainCounter
	case KindCallStack:
		return DomainFrame
	case KindSamples:
		return DomainSamples
	}
	return domainOther
}

// Node is one row of a tree (expanded or not), as read when needed.
type Node struct {
	Label    string   // "name tid", "CPU 3", "IRQ 18"
	Tid      string   // the Threads/<tid> attribute name, "" for other rows
	Kind     rowKind  //
	Key      core.Key // the attribute drawn; -1 for a process without a leader thread
	Thread   core.Key // Threads/<tid>, for the details line; -1 otherwise
	Depth    int
	Parent   int32 // -1 for a root
	End      int32 // the row after its subtree: its descendants are (row, end)
	Leaf     bool  // no children
	Expanded bool
}

// IsStatusRow reports whether a row draws a status of its own: a thread,
// a process with its leader thread, a CPU.
func IsStatusRow(r pstree.RowInfo) bool {
	return r.Key >= 0 && (r.Kind == pstree.KindThread || r.Kind == pstree.KindProcess || r.Kind == pstree.KindCPU)
}

// processTabler is implemented by traces whose index stores the Control
// Flow rows (ingest's), so that opening needs no query of the history.
type processTabler interface {
	ControlFlowRows() *pstree.Rows
}

// StoredRows returns the trace's stored Control Flow rows, or nil.
func StoredRows(tr Trace) *pstree.Rows {
	if p, ok := tr.(processTabler); ok {
		return p.ControlFlowRows()
	}
	return nil
}

// BuildControlFlow returns the Control Flow rows: stored, read on demand,
// when they describe h's attribute tree, else arranged from the process
// tree read from h with one 2D query, as the R-SHT article's PsTree query
// does (see package pstree for the rule and the arrangement).
func BuildControlFlow(ctx context.Context, h core.History, stored *pstree.Rows) (*RowTree, error) {
	at := h.Attributes()
	if stored != nil && stored.Attributes() == at.Len() {
		return NewRowTree(stored, at), nil
	}
	ps, err := pstree.Query(ctx, h)
	if err != nil {
		return nil, err
	}
	return NewRowTree(InMemoryRows(pstree.ControlFlow(at, ps).Bytes()), at), nil
}

// BuildResources lists CPUs/* with their IRQs/* and Soft_IRQs/* children
// (collapsed), named: a hard IRQ by its handler (IRQ_names/<irq> at the
// trace's end, one point query per IRQ number), a soft IRQ by its vector.
func BuildResources(h core.History) *RowTree {
	at := h.Attributes()
	names := map[string]string{}
	if g, ok := at.Lookup(core.AttrIRQNames); ok {
		_, end := h.Bounds()
		for _, k := range at.Children(g) {
			if iv, _, err := h.Single(context.Background(), k, end); err == nil && iv.Value.Kind() == core.KindString {
				names[at.Name(k)] = iv.Value.Str()
			}
		}
	}
	return NewRowTree(InMemoryRows(pstree.Resources(at, func(irq string) string { return names[irq] }).Bytes()), at)
}

// InMemoryRows reads rows just encoded.
func InMemoryRows(enc []byte) *pstree.Rows {
	rows, err := pstree.OpenRows(bytes.NewReader(enc), int64(len(enc)), nil)
	if err != nil {
		panic("tui: rows just encoded do not read back: " + err.Error())
	}
	return rows
}
