package tui

import (
	"bytes"
	"context"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index/pstree"
)

// rowKind is what a row of the tree stands for (see [pstree.Kind]).
type rowKind uint8

const (
	kindProcess   = rowKind(pstree.KindProcess)
	kindThread    = rowKind(pstree.KindThread)
	kindCallStack = rowKind(pstree.KindCallStack)
	kindCPU       = rowKind(pstree.KindCPU)
	kindIRQ       = rowKind(pstree.KindIRQ)
	kindSoftIRQ   = rowKind(pstree.KindSoftIRQ)
	kindAsync     = rowKind(pstree.KindAsync)
	kindCounter   = rowKind(pstree.KindCounter)
)

// domain returns how the row's integer values are read.
func (k rowKind) domain() valueDomain {
	switch k {
	case kindProcess, kindThread:
		return domainThread
	case kindCPU, kindIRQ, kindSoftIRQ:
		return domainCPU
	case kindCounter:
		return domainCounter
	case kindCallStack:
		return domainFrame
	}
	return domainOther
}

// node is one row of a tree (expanded or not), as read when needed.
type node struct {
	label    string   // "name tid", "CPU 3", "IRQ 18"
	tid      string   // the Threads/<tid> attribute name, "" for other rows
	kind     rowKind  //
	key      core.Key // the attribute drawn; -1 for a process without a leader thread
	thread   core.Key // Threads/<tid>, for the details line; -1 otherwise
	depth    int
	parent   int32 // -1 for a root
	end      int32 // the row after its subtree: its descendants are (row, end)
	leaf     bool  // no children
	expanded bool
}

// isStatusRow reports whether a row draws a status of its own: a thread,
// a process with its leader thread, a CPU.
func isStatusRow(r pstree.RowInfo) bool {
	return r.Key >= 0 && (r.Kind == pstree.KindThread || r.Kind == pstree.KindProcess || r.Kind == pstree.KindCPU)
}

// processTabler is implemented by traces whose index stores the Control
// Flow rows (ingest's), so that opening needs no query of the history.
type processTabler interface {
	ControlFlowRows() *pstree.Rows
}

// storedRows returns the trace's stored Control Flow rows, or nil.
func storedRows(tr Trace) *pstree.Rows {
	if p, ok := tr.(processTabler); ok {
		return p.ControlFlowRows()
	}
	return nil
}

// buildControlFlow returns the Control Flow rows: stored, read on demand,
// when they describe h's attribute tree, else arranged from the process
// tree read from h with one 2D query, as the R-SHT article's PsTree query
// does (see package pstree for the rule and the arrangement).
func buildControlFlow(ctx context.Context, h core.History, stored *pstree.Rows) (*rowTree, error) {
	at := h.Attributes()
	if stored != nil && stored.Attributes() == at.Len() {
		return newRowTree(stored, at), nil
	}
	ps, err := pstree.Query(ctx, h)
	if err != nil {
		return nil, err
	}
	return newRowTree(inMemoryRows(pstree.ControlFlow(at, ps).Bytes()), at), nil
}

// buildResources lists CPUs/* with their IRQs/* and Soft_IRQs/* children
// (collapsed). No query: the rows come from the attribute tree.
func buildResources(h core.History) *rowTree {
	at := h.Attributes()
	return newRowTree(inMemoryRows(pstree.Resources(at).Bytes()), at)
}

// inMemoryRows reads rows just encoded.
func inMemoryRows(enc []byte) *pstree.Rows {
	rows, err := pstree.OpenRows(bytes.NewReader(enc), int64(len(enc)), nil)
	if err != nil {
		panic("tui: rows just encoded do not read back: " + err.Error())
	}
	return rows
}
