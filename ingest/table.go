package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/eventindex"
)

// OpenSourceFunc opens a new, independent reader of the indexed trace.
type OpenSourceFunc func() (core.Source, error)

// Table is the event table over the event index: any page of rows, the
// rank of any time, and background regex filters. Safe for concurrent use:
// page reads share one source under a lock, each filter opens its own.
type Table struct {
	index   *eventindex.Index
	open    OpenSourceFunc
	threads *threadResolver

	mu      sync.Mutex // guards the page reader below
	src     core.Source
	seeker  *eventindex.Seeker
	classes classFields
	buf     []byte
}

// NewTable returns a table over index, reading events through sources
// from open and resolving threads from h (which may be nil: then TID and
// Process come only from event contexts).
func NewTable(index *eventindex.Index, open OpenSourceFunc, h core.History) *Table {
	t := &Table{index: index, open: open}
	if h != nil {
		t.threads = newThreadResolver(h)
	}
	return t
}

// Len returns the number of events.
func (t *Table) Len() int64 { return t.index.Events() }

// Close releases the page reader.
func (t *Table) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.src != nil {
		err := t.src.Close()
		t.src, t.seeker = nil, nil
		return err
	}
	return nil
}

func (t *Table) reader() error {
	if t.src != nil {
		return nil
	}
	src, err := t.open()
	if err != nil {
		return fmt.Errorf("event table: %w", err)
	}
	t.src, t.seeker = src, eventindex.NewSeeker(t.index, src)
	return nil
}

// Rows returns up to n rows starting at rank first (fewer at the end).
func (t *Table) Rows(ctx context.Context, first int64, n int) ([]Row, error) {
	if first < 0 || n <= 0 || first >= t.Len() {
		return nil, nil
	}
	n = int(min(int64(n), t.Len()-first))
	rows := make([]Row, 0, n)
	t.mu.Lock()
	err := t.readRows(first, n, func(r *Row) { rows = append(rows, *r) })
	t.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if t.threads != nil {
		if err := t.threads.resolve(ctx, rows); err != nil && ctx.Err() == nil {
			return nil, fmt.Errorf("event table: threads: %w", err)
		}
	}
	return rows, ctx.Err()
}

// readRows decodes n rows from first, with contents. Called with mu held.
func (t *Table) readRows(first int64, n int, fn func(*Row)) error {
	if err := t.reader(); err != nil {
		return err
	}
	if err := t.seeker.SeekRank(first); err != nil {
		return err
	}
	var row Row
	for i := range n {
		ev, err := t.src.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = fmt.Errorf("%w: the trace ends before event %d", eventindex.ErrCorrupt, first+int64(i))
			}
			return err
		}
		t.buf = fillRow(&row, first+int64(i), ev, t.src, &t.classes, t.buf, true)
		fn(&row)
	}
	return nil
}

// fillRow sets row from ev. Contents are formatted only when asked: it is
// the expensive part.
func fillRow(row *Row, rank int64, ev *core.Event, src core.Source, cf *classFields, buf []byte, contents bool) []byte {
	row.Rank, row.Time, row.CPU, row.Event = rank, ev.Time, ev.CPU, ev.Class.Name
	row.TID, row.Process, row.Contents = -1, "", ""
	idx := cf.of(ev.Class)
	if v, ok := ev.Field(idx.tid).AsInt(); ok {
		row.TID = v
	}
	if f := ev.Field(idx.procN); f.Kind == core.FieldString {
		row.Process = string(f.Bytes)
	}
	if contents {
		buf = src.AppendContents(buf[:0], ev)
		row.Contents = string(buf)
	}
	return buf
}

// RankAt returns the rank of the first event at or after ts (Len() when
// none is).
func (t *Table) RankAt(ctx context.Context, ts core.Time) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.reader(); err != nil {
		return 0, err
	}
	return t.seeker.RankAt(ts)
}
