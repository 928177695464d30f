package eventindex

import (
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/tracetui/tracetui/core"
)

// Index reads an event index in place (nothing but the header is held in
// memory). It is safe for concurrent use.
type Index struct {
	r   io.ReaderAt
	hdr header
}

// Open checks the header of the index held in r (size bytes).
func Open(r io.ReaderAt, size int64) (*Index, error) {
	b := make([]byte, headerSize)
	if size < headerSize {
		return nil, fmt.Errorf("%w: %d bytes, shorter than the header", ErrCorrupt, size)
	}
	if _, err := r.ReadAt(b, 0); err != nil {
		return nil, fmt.Errorf("event index: reading header: %w", err)
	}
	h, err := decodeHeader(b, size)
	if err != nil {
		return nil, err
	}
	return &Index{r: r, hdr: h}, nil
}

// Events returns the number of events in the trace.
func (x *Index) Events() int64 { return int64(x.hdr.events) }

// Every returns K, the number of events per checkpoint.
func (x *Index) Every() int64 { return int64(x.hdr.every) }

// Bounds returns the times of the first and last events.
func (x *Index) Bounds() (core.Time, core.Time) { return x.hdr.first, x.hdr.last }

// Entries returns the number of checkpoints.
func (x *Index) Entries() int64 { return int64(x.hdr.entries) }

// entry reads the time and blob offset of checkpoint i.
func (x *Index) entry(i int64) (core.Time, uint64, error) {
	var b [entrySize]byte
	if _, err := x.r.ReadAt(b[:], headerSize+i*entrySize); err != nil {
		return 0, 0, fmt.Errorf("event index: reading entry %d: %w", i, err)
	}
	return core.Time(binary.LittleEndian.Uint64(b[:])), binary.LittleEndian.Uint64(b[8:]), nil
}

// Checkpoint returns checkpoint i (for event rank i*K): the time of that
// event and the source checkpoint to seek to, appended to dst.
func (x *Index) Checkpoint(i int64, dst []byte) (core.Time, []byte, error) {
	if i < 0 || i >= int64(x.hdr.entries) {
		return 0, dst, fmt.Errorf("%w: checkpoint %d of %d", ErrRange, i, x.hdr.entries)
	}
	t, off, err := x.entry(i)
	if err != nil {
		return 0, dst, err
	}
	end := x.hdr.blobBytes
	if i+1 < int64(x.hdr.entries) {
		if _, end, err = x.entry(i + 1); err != nil {
			return 0, dst, err
		}
	}
	if off > end || end > x.hdr.blobBytes {
		return 0, dst, fmt.Errorf("%w: checkpoint %d spans [%d, %d) of %d blob bytes", ErrCorrupt, i, off, end, x.hdr.blobBytes)
	}
	n := int(end - off)
	start := len(dst)
	dst = slices.Grow(dst, n)[:start+n]
	blobs := int64(headerSize + x.hdr.entries*entrySize)
	if _, err := x.r.ReadAt(dst[start:], blobs+int64(off)); err != nil {
		return 0, dst[:start], fmt.Errorf("event index: reading checkpoint %d: %w", i, err)
	}
	return t, dst, nil
}

// ForRank returns the checkpoint to start from to reach event rank r, and
// how many events to skip after seeking there.
func (x *Index) ForRank(r int64) (entry, skip int64, err error) {
	if r < 0 || r >= int64(x.hdr.events) {
		return 0, 0, fmt.Errorf("%w: rank %d of %d events", ErrRange, r, x.hdr.events)
	}
	k := int64(x.hdr.every)
	return r / k, r % k, nil
}

// ForTime returns the checkpoint to start from to find the first event at
// or after t: decoding forward from it, the event is met within K events
// (or is the first event of the next checkpoint). Events before t in that
// stretch must be skipped by the caller. It costs O(log n) entry reads.
func (x *Index) ForTime(t core.Time) (int64, error) {
	j, err := x.firstEntryAtOrAfter(t)
	if err != nil {
		return 0, err
	}
	// Events equal to or after t may sit at the end of checkpoint j-1's
	// stretch, so start there.
	return max(j-1, 0), nil
}

// firstEntryAtOrAfter returns the first checkpoint whose event time is
// >= t (Entries() if none), by binary search over the entries.
func (x *Index) firstEntryAtOrAfter(t core.Time) (int64, error) {
	var ioErr error
	j := sort.Search(int(x.hdr.entries), func(i int) bool {
		et, _, err := x.entry(int64(i))
		if err != nil && ioErr == nil {
			ioErr = err
		}
		return et >= t
	})
	return int64(j), ioErr
}

// ApproxRank returns an estimate of the number of events before t,
// exact to within K: K times the number of checkpoints whose event is
// before t. It reads O(log n) entries and decodes nothing.
func (x *Index) ApproxRank(t core.Time) (int64, error) {
	if x.hdr.events == 0 || t <= x.hdr.first {
		return 0, nil
	}
	if t > x.hdr.last {
		return int64(x.hdr.events), nil
	}
	j, err := x.firstEntryAtOrAfter(t)
	return min(j*int64(x.hdr.every), int64(x.hdr.events)), err
}
