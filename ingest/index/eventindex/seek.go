package eventindex

import (
	"errors"
	"fmt"
	"io"

	"github.com/tracetui/tracetui/core"
)

// Seeker positions a source of the indexed trace on any event. It holds a
// reusable checkpoint buffer, so it is meant for one goroutine.
type Seeker struct {
	x   *Index
	src core.Source
	cp  []byte
}

// NewSeeker returns a seeker moving src (a source of the same trace the
// index was built from).
func NewSeeker(x *Index, src core.Source) *Seeker { return &Seeker{x: x, src: src} }

// SeekRank positions the source so that its next event is rank r.
func (s *Seeker) SeekRank(r int64) error {
	entry, skip, err := s.x.ForRank(r)
	if err != nil {
		return err
	}
	if err := s.seekEntry(entry); err != nil {
		return err
	}
	for i := int64(0); i < skip; i++ {
		if _, err := s.src.Next(); err != nil {
			return s.lost(entry*s.x.Every()+i, err)
		}
	}
	return nil
}

// RankAt returns the rank of the first event at or after t (Events() when
// every event is before t). It leaves the source anywhere.
func (s *Seeker) RankAt(t core.Time) (int64, error) {
	if s.x.Events() == 0 {
		return 0, nil
	}
	entry, err := s.x.ForTime(t)
	if err != nil {
		return 0, err
	}
	if err := s.seekEntry(entry); err != nil {
		return 0, err
	}
	rank := entry * s.x.Every()
	for ; rank < s.x.Events(); rank++ {
		ev, err := s.src.Next()
		if err != nil {
			return 0, s.lost(rank, err)
		}
		if ev.Time >= t {
			return rank, nil
		}
	}
	return rank, nil
}

func (s *Seeker) seekEntry(entry int64) error {
	var err error
	if _, s.cp, err = s.x.Checkpoint(entry, s.cp[:0]); err != nil {
		return err
	}
	if err := s.src.Seek(s.cp); err != nil {
		return fmt.Errorf("event index: seeking to checkpoint %d: %w", entry, err)
	}
	return nil
}

// lost explains a source that ends or fails before an event the index
// says exists: the trace changed since it was indexed, or the index is bad.
func (s *Seeker) lost(rank int64, err error) error {
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: the trace ends before event %d it indexed (the trace changed?)", ErrCorrupt, rank)
	}
	return fmt.Errorf("event index: decoding event %d: %w", rank, err)
}
