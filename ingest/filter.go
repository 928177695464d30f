package ingest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/eventindex"
)

// Filter holds one regular expression per column; a nil entry matches
// anything. An event matches when every non-nil expression matches its
// column's text.
type Filter [NumColumns]*regexp.Regexp

// Empty reports whether no column is filtered.
func (f *Filter) Empty() bool {
	for _, re := range f {
		if re != nil {
			return false
		}
	}
	return true
}

// FilterProgress reports a running filter: the matches found since the
// last report (ascending ranks, all after the previous report's), and how
// many events have been scanned.
type FilterProgress struct {
	Matches     []int64
	Done, Total int64
}

// ErrEmptyFilter is returned by Filter when no column is filtered (every
// event matches: the caller shows the unfiltered table instead).
var ErrEmptyFilter = errors.New("empty filter")

// filterBlocks is the number of checkpoints per scan block: blocks are the
// unit of parallel work and of progress reports.
const filterBlocks = 64

// Filter scans the whole trace in the background for events matching f,
// calling fn in rank order with each block's matches as they are found.
// It uses up to GOMAXPROCS readers in parallel. fn returning false, or ctx
// being cancelled, stops the scan (the latter returns ctx.Err()).
func (t *Table) Filter(ctx context.Context, f Filter, fn func(FilterProgress) bool) error {
	if f.Empty() {
		return ErrEmptyFilter
	}
	total := t.Len()
	block := t.index.Every() * filterBlocks
	blocks := (total + block - 1) / block
	if blocks == 0 {
		fn(FilterProgress{Total: 0})
		return nil
	}
	workers := int(min(int64(runtime.GOMAXPROCS(0)), blocks, 8))

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
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
			if !fn(FilterProgress{Matches: r.matches, Done: min(next*block, total), Total: total}) {
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
	f        Filter
	src      core.Source
	seek     *eventindex.Seeker
	classes  classFields
	contents bool // the Contents column is filtered
	threads  bool // TID or Process is filtered: resolve from the history
	buf, col []byte
	rows     []Row
}

func (t *Table) newScanner(f Filter) (*scanner, error) {
	src, err := t.open()
	if err != nil {
		return nil, fmt.Errorf("event filter: %w", err)
	}
	return &scanner{
		t: t, f: f, src: src, seek: eventindex.NewSeeker(t.index, src),
		contents: f[ColContents] != nil,
		threads:  t.threads != nil && (f[ColTID] != nil || f[ColProcess] != nil),
	}, nil
}

// scan returns the ranks in [first, first+n) that match.
func (s *scanner) scan(ctx context.Context, first, n int64) ([]int64, error) {
	if err := s.seek.SeekRank(first); err != nil {
		return nil, err
	}
	var matches []int64
	var row Row
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
		s.buf = fillRow(&row, first+i, ev, s.src, &s.classes, s.buf, s.contents)
		if s.threads {
			s.rows = append(s.rows, row) // matched after thread resolution
			continue
		}
		if s.match(&row) {
			matches = append(matches, row.Rank)
		}
	}
	if s.threads {
		if err := s.t.threads.resolve(ctx, s.rows); err != nil {
			return nil, err
		}
		for i := range s.rows {
			if s.match(&s.rows[i]) {
				matches = append(matches, s.rows[i].Rank)
			}
		}
	}
	return matches, nil
}

func (s *scanner) match(r *Row) bool {
	for c, re := range s.f {
		if re == nil {
			continue
		}
		s.col = r.appendText(s.col[:0], Column(c))
		if !re.Match(s.col) {
			return false
		}
	}
	return true
}
