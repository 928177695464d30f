package history

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/tracetui/tracetui/core"
)

// The pass's batches (runs of slots of one log part, each read back and
// computed at once) are independent: they are split into runs of
// consecutive batches, one per goroutine, of about equal work. The first
// run's entries go straight to the section; each other run's go to a
// temporary file that is copied after the runs before it, so the section
// has the same bytes whatever the split. At the end of `gen --threads
// 1600000` the pass on one goroutine ran 2.3 to 2.6 s after everything
// else (Close waited for it); with two the wait is 0.1 to 0.9 s, and the
// build 1.6 to 2.6 s shorter. At 200 000 threads the tail is CPU-bound
// on two cores (Close encodes the attribute tree meanwhile): the same
// time either way.

const (
	// sumWorkersMax is the most goroutines of the pass: each holds a batch
	// of up to batchMax records (9 bytes each) in memory; a key of more
	// records is streamed (streamEncoder).
	sumWorkersMax = 2
	// sumParallelFrom is the work (records read and computed) from which
	// the pass is split: below it, a second goroutine and its file cost
	// more than they save.
	sumParallelFrom = 1 << 20
)

// passBatch is slots lo to hi-1 of log part part, n records in all.
type passBatch struct {
	part   int
	lo, hi int
	n      int64
}

// passBatches lists the pass's batches, in slot order.
func (s *summaryBuild) passBatches() []passBatch {
	var bs []passBatch
	for k := range s.partCount() {
		lo, hi := s.partRange(k)
		bounds, sizes := s.batches(lo, hi, s.batchMax)
		for j := range sizes {
			bs = append(bs, passBatch{part: k, lo: bounds[j], hi: bounds[j+1], n: sizes[j]})
		}
	}
	return bs
}

// logPart returns part k of the log, nil when no record reached it.
func (s *summaryBuild) logPart(k int) *logPart {
	if k < len(s.parts) {
		return s.parts[k]
	}
	return nil
}

// cost estimates the work of a batch: its part read back whole, its
// records computed, a step per slot.
func (s *summaryBuild) cost(b passBatch) int64 {
	c := b.n + int64(b.hi-b.lo)
	if p := s.logPart(b.part); p != nil && b.n > 0 {
		c += p.records
	}
	return c
}

// splitBatches cuts bs into at most n runs of consecutive batches of about
// equal cost: each run ends at the batch that takes its running cost
// nearest to its share.
func (s *summaryBuild) splitBatches(bs []passBatch, n int) [][]passBatch {
	var total int64
	for _, b := range bs {
		total += s.cost(b)
	}
	if n <= 1 || total < s.parallelFrom {
		return [][]passBatch{bs}
	}
	var runs [][]passBatch
	from, sum := 0, int64(0)
	for i, b := range bs {
		share := total * int64(len(runs)+1) / int64(n)
		c := s.cost(b)
		// Cut before b when that lands nearer the share than after it.
		if i > from && sum+c-share > share-sum && len(runs) < n-1 {
			runs, from = append(runs, bs[from:i]), i
		}
		sum += c
	}
	return append(runs, bs[from:])
}

// computeEntries computes every slot's entry, writes the entries to out in
// slot order and returns their lengths.
func (s *summaryBuild) computeEntries(ctx context.Context, out io.Writer, end core.Time, levels []uint8) ([]uint32, error) {
	runs := s.splitBatches(s.passBatches(), s.workers)
	lens := make([]uint32, 0, s.nslots)
	if len(runs) == 1 {
		return s.computeRun(ctx, out, runs[0], end, levels, lens)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		f    *os.File
		lens []uint32
		err  error
	}
	results := make([]chan result, 0, len(runs)-1) // of the runs past the first
	for _, run := range runs[1:] {
		ch := make(chan result, 1)
		results = append(results, ch)
		go func() {
			var r result
			r.f, r.err = createTemp(s.path, sumRunSuffix)
			if r.err == nil {
				w := bufio.NewWriterSize(r.f, 1<<16)
				r.lens, r.err = s.computeRun(ctx, w, run, end, levels, nil)
				if r.err == nil {
					r.err = w.Flush()
				}
			}
			if r.err != nil {
				cancel() // the other runs stop at their next check
			}
			ch <- r
		}()
	}
	lens, err := s.computeRun(ctx, out, runs[0], end, levels, lens)
	errs := []error{err}
	if err != nil {
		cancel()
	}
	for _, ch := range results {
		r := <-ch
		if r.f != nil {
			defer removeTemp(r.f)
		}
		errs = append(errs, r.err)
		if err == nil && r.err == nil {
			lens = append(lens, r.lens...)
			_, err = io.Copy(out, io.NewSectionReader(r.f, 0, math.MaxInt64))
			errs = append(errs, err)
		}
	}
	return lens, firstCause(errs)
}

// firstCause returns the first of errs that is not a cancellation (a run
// that failed cancels the others), else the first error.
func firstCause(errs []error) error {
	var first error
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// computeRun computes the entries of a run of batches, writes them to w and
// appends their lengths to lens.
func (s *summaryBuild) computeRun(ctx context.Context, w io.Writer, run []passBatch, end core.Time, levels []uint8, lens []uint32) ([]uint32, error) {
	rd := &logReader{s: s}
	var enc entryEncoder
	for _, b := range run {
		if b.hi == b.lo+1 && b.n > s.batchMax { // one key, too many changes to hold
			st := newStreamEncoder(levels)
			if err := rd.stream(ctx, s.logPart(b.part), b.lo, st); err != nil {
				return nil, err
			}
			entry := st.entry(&enc, end)
			if _, err := w.Write(entry); err != nil {
				return nil, fmt.Errorf("history: summary section: %w", err)
			}
			lens = append(lens, uint32(len(entry)))
			continue
		}
		chs, err := rd.batch(ctx, s.logPart(b.part), b.lo, b.hi, b.n)
		if err != nil {
			return nil, err
		}
		for i := b.lo; i < b.hi; i++ {
			if (i-b.lo)%summaryCheckEvery == 0 {
				if err := ctx.Err(); err != nil {
					return nil, fmt.Errorf("history: summary section: %w", err)
				}
			}
			var entry []byte
			if ch := chs[i-b.lo]; ch.starts != nil {
				entry = enc.encode(ch, end, levels)
			}
			if _, err := w.Write(entry); err != nil {
				return nil, fmt.Errorf("history: summary section: %w", err)
			}
			lens = append(lens, uint32(len(entry)))
		}
	}
	return lens, nil
}
