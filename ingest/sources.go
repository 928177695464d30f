package ingest

import (
	"sync"

	"github.com/tracetui/tracetui/core"
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
	env          OpenEnv

	mu     sync.Mutex
	origin cloner
	closer core.Source
}

// open returns a new reader, to be closed by the caller.
func (p *sourcePool) open() (core.Source, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.origin != nil {
		return p.origin.Clone()
	}
	src, err := OpenSource(p.path, p.format, p.env)
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
