package index

import (
	"fmt"
	"io"
	"sync"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/history"
	"github.com/tracetui/tracetui/ingest"
	"github.com/tracetui/tracetui/ingest/chrome"
	"github.com/tracetui/tracetui/ingest/ftrace"
)

// cloner is a source that gives independent readers of its trace cheaply
// (Chrome: over its sorted runs, without parsing and sorting again).
type cloner interface {
	Clone() (core.Source, error)
}

// sourcePool opens the readers of an indexed trace that the event table
// and its filters need. A source that can clone is opened once and kept
// as the origin of the others.
type sourcePool struct {
	path, format string
	env          ingest.OpenEnv
	// order, when the index holds a Chrome trace's persisted order, is
	// read instead of sorting the trace again; a mismatch goes through
	// damage (the index is rebuilt).
	order  *io.SectionReader
	damage *damage
	// state, when the index keeps one for the reader, is read into
	// env.State by the first open.
	state *io.SectionReader

	mu     sync.Mutex
	origin cloner
	closer core.Source
}

// maxStateBytes bounds the reader state read from an index (a trace.dat's
// is tens of kilobytes; one past the bound is cut, and does not decode).
const maxStateBytes = 256 << 20

// open returns a new reader, to be closed by the caller.
func (p *sourcePool) open() (core.Source, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.origin != nil {
		return p.origin.Clone()
	}
	if p.state != nil {
		state, err := io.ReadAll(io.LimitReader(p.state, maxStateBytes))
		if err != nil {
			return nil, fmt.Errorf("reading the index's reader state: %w", err)
		}
		p.env.State, p.state = state, nil
	}
	var src core.Source
	var err error
	if p.order != nil {
		var ordered *chrome.Source
		ordered, err = chrome.OpenOrdered(p.path, p.order, p.order.Size(), chrome.OrderedOptions{Damaged: p.damaged})
		if err == nil {
			src = ordered
		}
	} else {
		src, err = ingest.OpenSource(p.path, p.format, p.env)
	}
	if err != nil {
		return nil, err
	}
	c, ok := src.(cloner)
	if !ok {
		return src, nil
	}
	p.origin, p.closer = c, src
	return c.Clone()
}

// damaged turns a persisted order that does not match the trace into the
// index's damage error (a cache index is removed and rebuilt).
func (p *sourcePool) damaged(err error) error {
	return p.damage.check(fmt.Errorf("%w: %w", history.ErrCorrupt, err))
}

// close releases the origin, if any (clones keep what they share alive
// until they are closed).
func (p *sourcePool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closer != nil {
		p.closer.Close()
		p.origin, p.closer = nil, nil
	}
}

// seekOnly reports whether the readers of the index's trace may skip their
// first pass: the build's warnings are all known (none summed up past a
// limit) and none is a "time-jump", the damaged lines only a first pass
// finds (ftrace delivers them at the next line's time).
func seekOnly(info IndexInfo) bool {
	if info.IndexSummary.Warnings > int64(len(info.Warnings)) {
		return false
	}
	for _, w := range info.Warnings {
		if w.Kind == ftrace.WarnTimeJump || w.Kind == core.WarningMore {
			return false
		}
	}
	return true
}
