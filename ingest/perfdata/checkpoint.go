package perfdata

import (
	"fmt"
	"io"

	"github.com/tracetui/tracetui/core"
)

var _ core.Source = (*Source)(nil)

// checkpointVersion starts every checkpoint.
const checkpointVersion = 1

// Checkpoint implements core.Source: the queue's state (see orderState):
// where to read again the records still queued, the last record read and
// the key of the last one delivered from the queue.
func (s *Source) Checkpoint(dst []byte) []byte {
	dst = append(dst, checkpointVersion)
	return s.q.checkpoint(dst)
}

// Seek implements core.Source: it reads again the records from the
// earliest one still queued at the checkpoint to the last one read then,
// queueing those not delivered yet (a compressed file's records are
// decompressed again from the data's start, unless the checkpoint is
// ahead of the reader: the event table pages forward).
func (s *Source) Seek(cp []byte) error {
	if len(cp) < 1 || cp[0] != checkpointVersion {
		return fmt.Errorf("%w: version", ErrBadCheckpoint)
	}
	st, err := decodeCheckpoint(cp[1:])
	if err != nil {
		return err
	}
	if s.curQ != nil {
		s.q.release(s.curQ)
		s.curQ = nil
	}
	s.q.reset()
	if !st.started {
		s.st.reset(s.f.start)
		s.streamRead = false
		return nil
	}
	if st.replay.off < s.f.start || st.replay.off >= s.f.end || st.lastRead.off < s.f.start || st.lastRead.off >= s.f.end || st.lastRead.less(st.replay) {
		return fmt.Errorf("%w: positions outside the data", ErrBadCheckpoint)
	}
	switch {
	case st.replay.inner < 0 && !s.f.meta.Compressed:
		s.st.reset(st.replay.off)
	case s.streamRead && s.streamAt.less(st.replay):
		// Inside zstd data, whose one stream decodes from its start
		// only: forward, read on from where the stream is.
	default:
		s.st.reset(s.f.start)
	}
	s.streamRead = false
	for {
		rec, err := s.st.next()
		if err == io.EOF {
			return fmt.Errorf("%w: the data ends before the checkpoint's position", ErrBadCheckpoint)
		}
		if err != nil {
			return err
		}
		s.streamAt, s.streamRead = rec.at, true
		if rec.at.less(st.replay) {
			continue
		}
		if rec.typ != recFinishedRound {
			t, ok, err := s.timeOf(rec)
			if err != nil {
				return err
			}
			if ok && t != 0 && t != ^uint64(0) && (!st.hasLast || st.lastT < t || st.lastT == t && st.lastAt.less(rec.at)) {
				s.q.pushReplay(rec, t)
			}
		}
		if rec.at == st.lastRead {
			break
		}
		if st.lastRead.less(rec.at) {
			return fmt.Errorf("%w: no record at the checkpoint's position", ErrBadCheckpoint)
		}
	}
	s.q.restore(st)
	return nil
}
