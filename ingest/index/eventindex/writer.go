package eventindex

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/tracetui/tracetui/core"
)

// DefaultEvery is the default number of events per checkpoint: reaching
// any event decodes at most this many events after one seek (~0.1 ms with
// the CTF decoder), and checkpoints cost a few bytes per event.
const DefaultEvery = 1024

// Writer records checkpoints during the indexing pass. Wrap the pass's
// calls to the source's Next with [Writer.Next].
type Writer struct {
	every   uint32
	entries *spool
	blobs   *spool
	hdr     header
	cp      []byte
	entry   [entrySize]byte
}

// spool is a temporary file written through a buffer.
type spool struct {
	f *os.File
	w *bufio.Writer
	n int64
}

func newSpool(dir, pattern string) (*spool, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, fmt.Errorf("event index: %w", err)
	}
	return &spool{f: f, w: bufio.NewWriterSize(f, 256<<10)}, nil
}

func (s *spool) write(b []byte) {
	n, _ := s.w.Write(b) // a write error sticks in the bufio.Writer; Flush reports it
	s.n += int64(n)
}

func (s *spool) close() {
	if s != nil {
		s.f.Close()
		os.Remove(s.f.Name())
	}
}

// TempPrefix starts the names of the writer's temporary files, after the
// caller's prefix, so a caller holding the build lock can remove the ones
// a killed build left.
const TempPrefix = ".evidx-"

// NewWriter returns a writer keeping its temporary files in dir (the index
// directory, never the trace's), named prefix + TempPrefix + random.
// every <= 0 means [DefaultEvery].
func NewWriter(dir, prefix string, every int) (*Writer, error) {
	if every <= 0 {
		every = DefaultEvery
	}
	entries, err := newSpool(dir, prefix+TempPrefix+"entries-*")
	if err != nil {
		return nil, err
	}
	blobs, err := newSpool(dir, prefix+TempPrefix+"blobs-*")
	if err != nil {
		entries.close()
		return nil, err
	}
	return &Writer{every: uint32(every), entries: entries, blobs: blobs, hdr: header{every: uint32(every)}}, nil
}

// Next reads the next event from src, recording a checkpoint first when
// the event's rank is a multiple of K. It returns src.Next's results.
func (w *Writer) Next(src core.Source) (*core.Event, error) {
	due := w.hdr.events%uint64(w.every) == 0
	if due {
		w.cp = src.Checkpoint(w.cp[:0])
	}
	ev, err := src.Next()
	if err != nil {
		return ev, err
	}
	if due {
		binary.LittleEndian.PutUint64(w.entry[0:], uint64(ev.Time))
		binary.LittleEndian.PutUint64(w.entry[8:], uint64(w.blobs.n))
		w.entries.write(w.entry[:])
		w.blobs.write(w.cp)
		w.hdr.entries++
	}
	if w.hdr.events == 0 {
		w.hdr.first = ev.Time
	}
	w.hdr.last = ev.Time
	w.hdr.events++
	return ev, nil
}

// Events returns the number of events seen so far.
func (w *Writer) Events() int64 { return int64(w.hdr.events) }

// Finish completes the index and returns its size and a reader of its
// bytes, valid until Close.
func (w *Writer) Finish() (int64, io.Reader, error) {
	for _, s := range []*spool{w.entries, w.blobs} {
		if err := s.w.Flush(); err != nil {
			return 0, nil, fmt.Errorf("event index: %w", err)
		}
		if _, err := s.f.Seek(0, io.SeekStart); err != nil {
			return 0, nil, fmt.Errorf("event index: %w", err)
		}
	}
	w.hdr.blobBytes = uint64(w.blobs.n)
	hdr := w.hdr.encode()
	size := int64(len(hdr)) + w.entries.n + w.blobs.n
	return size, io.MultiReader(bytes.NewReader(hdr), io.LimitReader(w.entries.f, w.entries.n), io.LimitReader(w.blobs.f, w.blobs.n)), nil
}

// Close removes the temporary files.
func (w *Writer) Close() error {
	w.entries.close()
	w.blobs.close()
	return nil
}
