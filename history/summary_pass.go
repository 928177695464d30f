package history

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"github.com/tracetui/tracetui/core"
)

// The summaries' own goroutine. The caller's side (emit) hands it the
// entries of the summarised intervals in batches, through a bounded queue;
// it appends them to the change log as they come, and once the states end
// (the queue is closed) it runs the pass: reads the log back and computes
// every level, writing the section to a temporary file that Close appends
// last (as the pass on the caller's goroutine did: the file has the same
// bytes). The pass took half a second of the Close of `gen --threads
// 200000`, after everything else, on one core; it now runs while the tree
// side places the last states, the caller arranges the rows and Close
// encodes the attribute tree. Writing the log took a quarter of a second
// of the caller's goroutine, the build's busiest, and then of the tree
// side's, the slower one at the end of the states.

const (
	sumQueueLen   = 4096 // entries per batch (64 KiB)
	sumQueueDepth = 16   // batches queued or being logged
	// sumSectionSuffix ends the name of the pass's temporary file, and
	// sumRunSuffix those of its runs past the first (summary_workers.go).
	sumSectionSuffix = ".lods"
	sumRunSuffix     = ".lodr"
)

// summaryPass is the summaries' goroutine: it logs, then computes the
// section.
type summaryPass struct {
	in     chan []sumEntry // batches to log; closed when the states end
	free   chan []sumEntry // batches logged, for the caller to fill again
	made   int             // batches allocated
	cur    []sumEntry      // the batch being filled
	closed bool            // in is closed
	end    core.Time       // the history's end, written before in is closed
	cancel context.CancelFunc
	done   chan struct{} // closed when the goroutine returns
	// Written by the goroutine, read after done.
	out  *os.File // the section's bytes
	size int64
	crc  uint32
	err  error
}

// log queues an entry for the change log (the caller's side).
func (s *summaryBuild) log(e sumEntry) {
	p := s.pass
	if p == nil {
		p = s.startPass()
	}
	if p.closed {
		return
	}
	p.cur = append(p.cur, e)
	if len(p.cur) < sumQueueLen {
		return
	}
	p.in <- p.cur
	select {
	case p.cur = <-p.free:
	default:
		if p.made < sumQueueDepth {
			p.made++
			p.cur = make([]sumEntry, 0, sumQueueLen)
		} else {
			p.cur = <-p.free
		}
	}
}

// startPass starts the summaries' goroutine.
func (s *summaryBuild) startPass() *summaryPass {
	ctx := s.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	p := &summaryPass{in: make(chan []sumEntry, sumQueueDepth), free: make(chan []sumEntry, sumQueueDepth), made: 1,
		cur: make([]sumEntry, 0, sumQueueLen), cancel: cancel, done: make(chan struct{})}
	s.pass = p
	go func() {
		defer close(p.done)
		// A CPU profile of a build splits by stage (pprof -tagfocus).
		pprof.SetGoroutineLabels(pprof.WithLabels(ctx, pprof.Labels("stage", "summary")))
		for batch := range p.in {
			if ctx.Err() == nil {
				for _, e := range batch {
					s.record(e)
				}
			}
			p.free <- batch[:0]
		}
		if err := ctx.Err(); err != nil {
			p.err = fmt.Errorf("history: summary section: %w", err)
			return
		}
		p.err = p.run(ctx, s, p.end)
	}()
	return p
}

// startSummary ends the log of a history ending at end: the goroutine then
// computes the section. The caller's side must not change the summaries'
// state afterwards.
func (b *Builder) startSummary(end core.Time) {
	s := b.sum
	if s == nil || (s.pass != nil && s.pass.closed) {
		return
	}
	s.scan(b.tree) // keys that no interval has named yet
	p := s.pass
	if p == nil {
		p = s.startPass()
	}
	if len(p.cur) > 0 {
		p.in <- p.cur
	}
	p.cur, p.end = nil, end
	s.closeLog()
}

// closeLog closes the queue: the goroutine logs what is queued, then runs
// the pass (or stops, when cancelled).
func (s *summaryBuild) closeLog() {
	if p := s.pass; p != nil && !p.closed {
		p.closed = true
		close(p.in)
	}
}

// run computes the section into a temporary file beside the index.
func (p *summaryPass) run(ctx context.Context, s *summaryBuild, end core.Time) error {
	f, err := createTemp(s.path, sumSectionSuffix)
	if err != nil {
		return fmt.Errorf("history: summary section: %w", err)
	}
	p.out = f
	h := core.NewCRC32C()
	p.size, err = s.writeSection(ctx, io.MultiWriter(f, h), end)
	p.crc = h.Sum32()
	return err
}

// appendSummary waits for the summary pass and copies its section into
// the index at off; it returns the section (nil when the build has no
// summaries).
func (b *Builder) appendSummary(off uint64) (*section, error) {
	s := b.sum
	if s == nil {
		return nil, nil
	}
	p := s.pass
	if p == nil || !p.closed {
		return nil, fmt.Errorf("history: summary section: the pass was not started")
	}
	<-p.done
	if p.err != nil {
		return nil, p.err
	}
	if _, err := p.out.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("history: summary section: %w", err)
	}
	if _, err := b.f.Seek(int64(off), io.SeekStart); err != nil {
		return nil, fmt.Errorf("history: summary section: %w", err)
	}
	n, err := io.Copy(b.f, p.out)
	if err != nil {
		return nil, fmt.Errorf("history: copy the summary section: %w", err)
	}
	if n != p.size {
		return nil, fmt.Errorf("history: copy the summary section: %d bytes of %d", n, p.size)
	}
	return &section{name: SectionSummary, off: off, size: uint64(n), crc: p.crc}, nil
}

// busy reports whether the pass is still computing the section.
func (s *summaryBuild) busy() bool {
	if s == nil || s.pass == nil {
		return false
	}
	select {
	case <-s.pass.done:
		return false
	default:
		return true
	}
}

// stop tells the goroutine, if started, to stop (drop waits for it).
func (s *summaryBuild) stop() {
	if s != nil && s.pass != nil {
		s.pass.cancel()
	}
}

// drop stops the goroutine, waits for it and removes the temporary files
// (after Close, or when the build is aborted).
func (s *summaryBuild) drop() {
	if s == nil {
		return
	}
	s.stop()
	s.closeLog()
	if p := s.pass; p != nil {
		<-p.done
		if p.out != nil {
			removeTemp(p.out)
			p.out = nil
		}
	}
	s.removeParts()
}
