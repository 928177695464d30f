package record

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// Ring-buffer page flags in the commit word (kernel/trace/ring_buffer.c).
const (
	commitMask   = 1<<27 - 1 // the bytes of events in the page
	missedEvents = 1 << 31   // events were lost before this page
	missedStored = 1 << 30   // and their count follows the page's data
)

// drainInterval is how often a drainer moves the full pages out of the
// kernel's buffer (as trace-cmd record's -s): at the default buffer size,
// events would have to come at 80 MB/s per CPU to fill it in between.
const drainInterval = 100 * time.Millisecond

// spliceBytes is the most one splice(2) moves: the pipe's size, which
// unprivileged users may set up to 1 MB (pipe-max-size).
const spliceBytes = 1 << 20

// drainer copies one CPU's ring-buffer pages from trace_pipe_raw to a
// file as the kernel fills them: one goroutine each, so memory stays one
// page and a write buffer per CPU whatever the event rate.
type drainer struct {
	cpu        int
	fd         int // trace_pipe_raw, non-blocking
	out        *os.File
	pageSize   int
	commitSize int // 8 (or 4 on a 32-bit kernel)
	spliceMax  int // the pipe's size

	size      int64 // bytes written (whole pages)
	pages     int64
	lost      int64 // events lost, as the pages' stored counts say
	lostPages int64 // pages after lost events whose count is unknown
	err       error
}

// openDrainer opens the CPU's trace_pipe_raw and its pages' file.
func openDrainer(in *instance, cpu int, out *os.File, pageSize, commitSize int) (*drainer, error) {
	path := in.path(fmt.Sprintf("per_cpu/cpu%d/trace_pipe_raw", cpu))
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("opening tracefs CPU %d buffer: %w", cpu, err)
	}
	return &drainer{cpu: cpu, fd: fd, out: out, pageSize: pageSize, commitSize: commitSize}, nil
}

// close closes trace_pipe_raw (the instance cannot be removed while it
// is open).
func (d *drainer) close() {
	if d.fd >= 0 {
		unix.Close(d.fd)
		d.fd = -1
	}
}

// run copies pages until stopped is set: while tracing, whole pages only
// (splice(2) to a pipe gives only full pages, so the drainer's own
// system calls, which are events, do not make it read page after
// page with one event each); once stopped (tracing is off), read(2)
// gives the last, partial, pages.
func (d *drainer) run(stopped *atomic.Bool) {
	w := bufio.NewWriterSize(d.out, 256<<10)
	page := make([]byte, d.pageSize)
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		d.err = fmt.Errorf("CPU %d: pipe: %w", d.cpu, err)
		return
	}
	defer unix.Close(p[0])
	defer unix.Close(p[1])
	// A larger pipe moves more pages per splice; the default (64 KB) if
	// refused.
	if _, err := unix.FcntlInt(uintptr(p[1]), unix.F_SETPIPE_SZ, spliceBytes); err != nil {
		d.spliceMax = 64 << 10
	} else {
		d.spliceMax = spliceBytes
	}
	for !stopped.Load() {
		if err := d.splice(p); err != nil {
			d.err = err
			return
		}
		time.Sleep(drainInterval)
	}
	if err := d.splice(p); err != nil {
		d.err = err
		return
	}
	if err := d.drain(w, page); err != nil {
		d.err = err
		return
	}
	if err := w.Flush(); err != nil {
		d.err = fmt.Errorf("writing CPU %d pages: %w", d.cpu, err)
	}
}

// splice moves the full pages of the buffer through the pipe p to the
// file, without copying them to user space. Their lost-event marks are
// not looked at: the CPU's stats count the lost events.
func (d *drainer) splice(p [2]int) error {
	out := int(d.out.Fd())
	for {
		n, err := unix.Splice(d.fd, nil, p[1], nil, max(d.spliceMax/d.pageSize, 1)*d.pageSize, unix.SPLICE_F_MOVE|unix.SPLICE_F_NONBLOCK)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EAGAIN), err == nil && n <= 0:
			return nil
		case err != nil:
			return fmt.Errorf("reading CPU %d buffer (splice): %w", d.cpu, err)
		}
		for left := n; left > 0; {
			m, err := unix.Splice(p[0], nil, out, nil, int(left), unix.SPLICE_F_MOVE)
			if errors.Is(err, unix.EINTR) {
				continue
			}
			if err == nil && m <= 0 {
				err = io.ErrShortWrite
			}
			if err != nil {
				return fmt.Errorf("writing CPU %d pages: %w", d.cpu, err)
			}
			left -= m
		}
		d.size += n
		d.pages += n / int64(d.pageSize)
	}
}

// drain reads pages, partial ones included, until the buffer is empty.
func (d *drainer) drain(w *bufio.Writer, page []byte) error {
	for {
		n, err := unix.Read(d.fd, page)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case errors.Is(err, unix.EAGAIN), err == nil && n <= 0:
			return nil
		case err != nil:
			return fmt.Errorf("reading CPU %d buffer: %w", d.cpu, err)
		}
		clear(page[n:]) // a short read: the rest of the page is unused
		if err := d.keep(w, page); err != nil {
			return err
		}
	}
}

// keep writes a page that holds something.
func (d *drainer) keep(w *bufio.Writer, page []byte) error {
	if !d.count(page) {
		return nil
	}
	if _, err := w.Write(page); err != nil {
		return fmt.Errorf("writing CPU %d pages: %w", d.cpu, err)
	}
	d.size += int64(len(page))
	d.pages++
	return nil
}

// count notes the page's lost events; false for a page with nothing in
// it (nothing to keep).
func (d *drainer) count(page []byte) bool {
	hdr := 8 + d.commitSize
	if len(page) < hdr {
		return false
	}
	var commit uint64
	if d.commitSize == 8 {
		commit = binary.LittleEndian.Uint64(page[8:])
	} else {
		commit = uint64(binary.LittleEndian.Uint32(page[8:]))
	}
	size := int(commit & commitMask)
	if size == 0 && commit&missedEvents == 0 {
		return false
	}
	if commit&missedEvents != 0 {
		switch at := hdr + size; {
		case commit&missedStored != 0 && at+d.commitSize <= len(page):
			if d.commitSize == 8 {
				d.lost += int64(binary.LittleEndian.Uint64(page[at:]))
			} else {
				d.lost += int64(binary.LittleEndian.Uint32(page[at:]))
			}
		default:
			d.lostPages++
		}
	}
	return true
}
