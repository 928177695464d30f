package trace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/index/eventindex"
)

// ErrEmptyFilter is returned by Filter when no column is filtered (every
// event matches: the caller shows the unfiltered table instead).
var ErrEmptyFilter = errors.New("empty filter")

// filterBlocks is the number of checkpoints per scan block: blocks are the
// unit of parallel work and of progress reports.
const filterBlocks = 16

// Filter scans the whole trace in the background for events matching f,
// calling fn in rank order with each block's matches as they are found.
// It uses up to GOMAXPROCS readers in parallel, all closed and their
// goroutines ended when Filter returns. fn returning false, or ctx being
// cancelled, stops the scan (the latter returns ctx.Err()).
func (t *Table) Filter(ctx context.Context, f core.EventFilter, fn func(core.FilterProgress) bool) error {
	if f.Empty() {
		return ErrEmptyFilter
	}
	total := t.Len()
	block := t.index.Every() * filterBlocks
	blocks := (total + block - 1) / block
	if blocks == 0 {
		fn(core.FilterProgress{Total: 0})
		return nil
	}
	workers := int(min(int64(runtime.GOMAXPROCS(0)), blocks, 8))

	ctx, cancel := context.WithCancel(ctx)
	type result struct {
		block   int64
		matches []int64
		err     error
	}
	results := make(chan result, workers)
	tokens := make(chan struct{}, 2*workers) // bounds blocks done ahead of delivery
	for range cap(tokens) {
		tokens <- struct{}{}
	}
	var nextBlock atomic.Int64
	var openErr error // the first worker that could not open a reader
	var openOnce sync.Once
	var wg sync.WaitGroup
	// Every return stops the workers and waits for them: none outlives
	// Filter, and their readers are closed when it returns.
	defer func() { cancel(); wg.Wait() }()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc, err := t.newScanner(f)
			if err != nil {
				openOnce.Do(func() { openErr = err })
				cancel()
				return
			}
			defer sc.src.Close()
			for {
				select {
				case <-ctx.Done():
					return
				case <-tokens:
				}
				b := nextBlock.Add(1) - 1
				if b >= blocks {
					return
				}
				first := b * block
				m, err := sc.scan(ctx, first, min(block, total-first))
				select {
				case results <- result{block: b, matches: m, err: err}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	pending := map[int64]result{}
	next := int64(0)
	for r := range results {
		pending[r.block] = r
		for {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			if r.err != nil {
				cancel()
				return r.err
			}
			next++
			tokens <- struct{}{}
			if !fn(core.FilterProgress{Matches: r.matches, Done: min(next*block, total), Total: total}) {
				cancel()
				return nil
			}
		}
		if next == blocks {
			return nil
		}
	}
	if openErr != nil {
		return openErr
	}
	return ctx.Err()
}

// scanner is one filter worker's reader.
type scanner struct {
	t        *Table
	f        core.EventFilter
	src      core.Source
	seek     *eventindex.Seeker
	classes  classFields
	contents bool // the Contents column is filtered
	threads  bool // TID or Process is filtered: resolve from the history
	row      scanRow
	col      []byte
	rows     []scanRow
}

func (t *Table) newScanner(f core.EventFilter) (*scanner, error) {
	src, err := t.open()
	if err != nil {
		return nil, fmt.Errorf("event filter: %w", err)
	}
	return &scanner{
		t: t, f: f, src: src, seek: eventindex.NewSeeker(t.index, src),
		contents: f[core.ColContents] != nil,
		threads:  t.threads != nil && (f[core.ColTID] != nil || f[core.ColProcess] != nil),
	}, nil
}

// scan returns the ranks in [first, first+n) that match.
func (s *scanner) scan(ctx context.Context, first, n int64) ([]int64, error) {
	if err := s.seek.SeekRank(first); err != nil {
		return nil, err
	}
	var matches []int64
	s.rows = s.rows[:0]
	for i := int64(0); i < n; i++ {
		if i%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		ev, err := s.src.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = fmt.Errorf("%w: the trace ends before event %d", eventindex.ErrCorrupt, first+i)
			}
			return nil, err
		}
		if s.threads { // matched after thread resolution
			s.rows = grow(s.rows)
			s.rows[len(s.rows)-1].fill(first+i, ev, s.src, &s.classes, s.contents)
			continue
		}
		s.row.fill(first+i, ev, s.src, &s.classes, s.contents)
		s.row.useComm()
		if s.match(&s.row) {
			matches = append(matches, s.row.rank)
		}
	}
	if s.threads {
		if err := s.t.threads.resolve(ctx, s.rows); err != nil {
			return nil, err
		}
		for i := range s.rows {
			s.rows[i].useComm()
			if s.match(&s.rows[i]) {
				matches = append(matches, s.rows[i].rank)
			}
		}
	}
	return matches, nil
}

func (s *scanner) match(r *scanRow) bool {
	for c, re := range s.f {
		if re == nil {
			continue
		}
		s.col = r.appendText(s.col[:0], core.EventColumn(c))
		if !re.Match(s.col) {
			return false
		}
	}
	return true
}

// grow extends rows by one, reusing a previous row's buffers when the
// capacity allows (a scan block of rows is refilled block after block).
func grow(rows []scanRow) []scanRow {
	if len(rows) < cap(rows) {
		return rows[:len(rows)+1]
	}
	return append(rows, scanRow{})
}
