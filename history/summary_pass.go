package history

import (
	"context"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"runtime/pprof"

	"github.com/tracetui/tracetui/core"
)

// The summary pass (reading the change log back, computing every level)
// took half a second of the Close of `gen --threads 200000`, after
// everything else, on one core. It now starts as soon as the states end,
// on a goroutine of its own, and writes the section to a temporary file:
// it runs while the caller arranges the rows and Close encodes the
// attribute tree, and Close appends the section last, as the pass on the
// caller's goroutine did, so the file has the same bytes.

// sumSectionSuffix ends the name of the pass's temporary file.
const sumSectionSuffix = ".lods"

// summaryPass is the summary section being computed on its own goroutine.
type summaryPass struct {
	cancel context.CancelFunc
	done   chan struct{} // closed when the goroutine returns
	// Written by the goroutine, read after done.
	out  *os.File // the section's bytes
	size int64
	crc  uint32
	err  error
}

// startSummary starts the summary pass for a history ending at end, once
// logged is closed (the log's side has recorded the last interval). The
// caller's side must not change the summaries' state afterwards.
func (b *Builder) startSummary(end core.Time, logged <-chan struct{}) {
	s := b.sum
	if s == nil || s.pass != nil {
		return
	}
	s.scan(b.tree) // keys that no interval has named yet
	ctx := b.opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	p := &summaryPass{cancel: cancel, done: make(chan struct{})}
	s.pass = p
	go func() {
		defer close(p.done)
		// A CPU profile of a build splits by stage (pprof -tagfocus).
		pprof.SetGoroutineLabels(pprof.WithLabels(ctx, pprof.Labels("stage", "summary")))
		select {
		case <-logged:
		case <-ctx.Done():
			p.err = fmt.Errorf("history: summary section: %w", ctx.Err())
			return
		}
		p.err = p.run(ctx, s, end)
	}()
}

// run computes the section into a temporary file beside the index.
func (p *summaryPass) run(ctx context.Context, s *summaryBuild, end core.Time) error {
	f, err := createTemp(s.path, sumSectionSuffix)
	if err != nil {
		return fmt.Errorf("history: summary section: %w", err)
	}
	p.out = f
	h := crc32.New(castagnoli)
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
	if p == nil {
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

// stop tells the pass, if started, to stop (drop waits for it).
func (s *summaryBuild) stop() {
	if s != nil && s.pass != nil {
		s.pass.cancel()
	}
}

// drop stops the pass, waits for it and removes the temporary files (after
// Close, or when the build is aborted).
func (s *summaryBuild) drop() {
	if s == nil {
		return
	}
	s.stop()
	if p := s.pass; p != nil {
		<-p.done
		if p.out != nil {
			name := p.out.Name()
			p.out.Close()
			os.Remove(name)
			p.out = nil
		}
	}
	s.removeParts()
}
