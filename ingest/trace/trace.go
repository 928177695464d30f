package trace

import (
	"context"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest/index"
	"github.com/tracetui/tracetui/ingest/index/pstree"
)

// Trace is an opened trace with its index: the history for state queries
// and the event table. The CLI and the browser both read a trace through
// it. Safe for concurrent use.
type Trace struct {
	index   *index.Index
	table   *Table
	profile profileCache
}

// New reads the index that the lifecycle ([index.Open]) opened or built.
// The Trace owns it: Close closes it.
func New(ix *index.Index) *Trace {
	return &Trace{index: ix, table: NewTable(ix.EventIndex(), ix.OpenSource, ix.History())}
}

// Open opens the trace at path with its index, building the index first
// when needed (see [index.Open]).
func Open(ctx context.Context, path string, opts index.Options) (*Trace, error) {
	ix, err := index.Open(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	return New(ix), nil
}

// Info describes the trace and its index.
func (t *Trace) Info() index.IndexInfo { return t.index.Info() }

// Built reports whether the index was built when the trace was opened
// (rather than reused).
func (t *Trace) Built() bool { return t.index.Built() }

// History returns the state history.
func (t *Trace) History() core.History { return t.index.History() }

// Tree returns the history file, for its Info and Check.
func (t *Trace) Tree() *history.Tree { return t.index.Tree() }

// Events returns the event table.
func (t *Trace) Events() *Table { return t.table }

// Query runs [Query] on the trace's history.
func (t *Trace) Query(ctx context.Context, req QueryRequest) (QueryResult, error) {
	return Query(ctx, t.History(), req)
}

// PaperBench runs [PaperBench] on the trace's history, naming its layout.
func (t *Trace) PaperBench(ctx context.Context) (PaperResult, error) {
	res, err := PaperBench(ctx, t.History())
	res.Layout = t.Info().Layout
	return res, err
}

// Close closes the event table's reader, then the index.
func (t *Trace) Close() error {
	t.table.Close()
	return t.index.Close()
}

// ControlFlowRows returns the Control Flow rows stored with the index (nil
// when there are none: see [index.Index.ControlFlowRows]).
func (t *Trace) ControlFlowRows() *pstree.Rows { return t.index.ControlFlowRows() }
