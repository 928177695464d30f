package trace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index/eventindex"
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

// Rows returns the events at the given ranks (ascending, each in
// [0, Len())), in the same order. Consecutive ranks are read in one pass
// from one seek.
func (t *Table) Rows(ctx context.Context, ranks []int64) ([]core.EventRow, error) {
	rows := make([]scanRow, 0, len(ranks))
	t.mu.Lock()
	for i := 0; i < len(ranks); {
		j := i + 1
		for j < len(ranks) && ranks[j] == ranks[j-1]+1 {
			j++
		}
		if ranks[i] < 0 || ranks[j-1] >= t.Len() {
			t.mu.Unlock()
			return nil, fmt.Errorf("%w: rows %d..%d of %d", eventindex.ErrRange, ranks[i], ranks[j-1], t.Len())
		}
		var err error
		if rows, err = t.readRun(ranks[i], j-i, rows); err != nil {
			t.mu.Unlock()
			return nil, err
		}
		i = j
	}
	t.mu.Unlock()
	if t.threads != nil {
		if err := t.threads.resolve(ctx, rows); err != nil && ctx.Err() == nil {
			return nil, fmt.Errorf("event table: threads: %w", err)
		}
	}
	out := make([]core.EventRow, len(rows))
	for i := range rows {
		rows[i].useComm()
		out[i] = rows[i].eventRow()
	}
	return out, ctx.Err()
}

// readRun appends n rows from rank first, with contents. Called with mu
// held.
func (t *Table) readRun(first int64, n int, rows []scanRow) ([]scanRow, error) {
	if err := t.reader(); err != nil {
		return rows, err
	}
	if err := t.seeker.SeekRank(first); err != nil {
		return rows, err
	}
	for i := range n {
		ev, err := t.src.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = fmt.Errorf("%w: the trace ends before event %d", eventindex.ErrCorrupt, first+int64(i))
			}
			return rows, err
		}
		rows = append(rows, scanRow{})
		r := &rows[len(rows)-1]
		r.fill(first+int64(i), ev, t.src, &t.classes, true)
		if !bytes.HasPrefix(r.contents, []byte("{")) { // braces label their fields
			r.labelled = appendLabelled(r.labelled, ev)
		}
	}
	return rows, nil
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
