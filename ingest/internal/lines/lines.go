// Package lines holds what the line-oriented trace readers (ftrace and
// Pajé) share: a line reader that tracks byte offsets and line numbers and
// can be repositioned, checkpoints bound to a trace by a CRC, a bounded
// warning list, and the babeltrace-style printing of typed fields.
//
// It lives under ingest/ftrace because that is where its owner works; it
// has no ftrace knowledge and belongs in ingest/internal once the layout
// allows it.
package lines

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"strconv"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/internal/tracefile"
)

// Reader reads a file line by line. Lines longer than its buffer are
// skipped and reported through Long.
type Reader struct {
	f      *os.File
	r      *bufio.Reader
	size   int64
	off    int64 // offset of the next line
	lineNo int64 // number of the next line, 1-based
	// Long is called with the line number and offset of each line
	// skipped for its length.
	Long func(lineNo, off int64)
	// Context, if set, cancels reading: Line returns its error (checked
	// every cancelEvery lines, a few hundred microseconds of reading).
	Context context.Context
}

// cancelEvery is how often Line checks the reader's context, in lines.
const cancelEvery = 1024

// textCheckBytes is how much of a file Open inspects for binary content.
const textCheckBytes = 16 << 10

// Open opens path for reading with a buffer of bufSize bytes (the longest
// line accepted). Anything but a regular file is refused before it is
// opened, and a file whose first bytes are binary (a trace.dat, NUL
// bytes) is refused with a message saying what it is (see
// [tracefile.Text]).
func Open(path string, bufSize int) (*Reader, error) {
	f, err := tracefile.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	r := &Reader{f: f, r: bufio.NewReaderSize(f, bufSize), size: st.Size(), lineNo: 1}
	head, err := r.r.Peek(min(bufSize, textCheckBytes))
	if err != nil && err != io.EOF {
		f.Close()
		return nil, err
	}
	if err := tracefile.Text(path, head); err != nil {
		f.Close()
		return nil, err
	}
	return r, nil
}

// Size returns the file's size.
func (r *Reader) Size() int64 { return r.size }

// Offset returns the offset of the next line.
func (r *Reader) Offset() int64 { return r.off }

// LineNo returns the number of the next line (1-based).
func (r *Reader) LineNo() int64 { return r.lineNo }

// Line returns the next line without its line ending, with its number
// and offset; io.EOF after the last. The bytes are valid until the next
// call.
func (r *Reader) Line() (b []byte, lineNo, off int64, err error) {
	if r.Context != nil && r.lineNo%cancelEvery == 1 {
		if err := r.Context.Err(); err != nil {
			return nil, r.lineNo, r.off, err
		}
	}
	for {
		off, lineNo = r.off, r.lineNo
		b, err = r.r.ReadSlice('\n')
		r.off += int64(len(b))
		if err == bufio.ErrBufferFull {
			for err == bufio.ErrBufferFull {
				var more []byte
				more, err = r.r.ReadSlice('\n')
				r.off += int64(len(more))
			}
			r.lineNo++
			if r.Long != nil {
				r.Long(lineNo, off)
			}
			if err != nil && err != io.EOF {
				return nil, lineNo, off, err
			}
			continue
		}
		if err != nil && err != io.EOF {
			return nil, lineNo, off, err
		}
		if len(b) == 0 && err == io.EOF {
			return nil, lineNo, off, io.EOF
		}
		r.lineNo++
		return bytes.TrimRight(b, "\r\n"), lineNo, off, nil
	}
}

// SeekLine repositions the reader at a line start.
func (r *Reader) SeekLine(off, lineNo int64) error {
	if off < 0 || off > r.size || lineNo < 1 {
		return fmt.Errorf("%w: position", ErrBadCheckpoint)
	}
	if _, err := r.f.Seek(off, io.SeekStart); err != nil {
		return err
	}
	r.r.Reset(r.f)
	r.off, r.lineNo = off, lineNo
	return nil
}

// Close closes the file.
func (r *Reader) Close() error { return r.f.Close() }

// ErrBadCheckpoint is wrapped by the errors of Decode.
var ErrBadCheckpoint = errors.New("bad checkpoint")

// Checkpoint is a position in a line-oriented trace: the next line and the
// time of the last event delivered (sources never let time go back).
type Checkpoint struct {
	Off, LineNo, Last int64
}

// Layout returns the CRC that binds checkpoints to one trace: any numbers
// that identify it (size, event count, class count).
func Layout(ids ...int64) uint32 {
	var b []byte
	for _, v := range ids {
		b = binary.AppendVarint(b, v)
	}
	return crc32.ChecksumIEEE(b)
}

const cpVersion = 1

// Append encodes cp: two magic bytes, version 1, offset and line number
// (uvarint), last time (varint), then a CRC-32 over them seeded with the
// trace's layout.
func (cp Checkpoint) Append(dst []byte, magic string, layout uint32) []byte {
	start := len(dst)
	dst = append(dst, magic[0], magic[1], cpVersion)
	dst = binary.AppendUvarint(dst, uint64(cp.Off))
	dst = binary.AppendUvarint(dst, uint64(cp.LineNo))
	dst = binary.AppendVarint(dst, cp.Last)
	return binary.LittleEndian.AppendUint32(dst, crc32.Update(layout, crc32.IEEETable, dst[start:]))
}

// Decode reads a checkpoint written by Append with the same magic and
// layout.
func Decode(b []byte, magic string, layout uint32) (Checkpoint, error) {
	return decode(b, magic, layout, true)
}

// decode reads a checkpoint; withLayout checks its CRC against layout (a
// source that skipped its first pass does not know the layout and
// decodes every field with its bounds checked instead).
func decode(b []byte, magic string, layout uint32, withLayout bool) (Checkpoint, error) {
	var cp Checkpoint
	if len(b) < 7 || b[0] != magic[0] || b[1] != magic[1] || b[2] != cpVersion {
		return cp, fmt.Errorf("%w: not a checkpoint of this format", ErrBadCheckpoint)
	}
	body := b[:len(b)-4]
	if withLayout && crc32.Update(layout, crc32.IEEETable, body) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return cp, fmt.Errorf("%w: checksum mismatch (damaged, or from another trace)", ErrBadCheckpoint)
	}
	p := body[3:]
	off, n := binary.Uvarint(p)
	if n <= 0 || off > 1<<62 {
		return cp, fmt.Errorf("%w: offset", ErrBadCheckpoint)
	}
	p = p[n:]
	lineNo, n := binary.Uvarint(p)
	if n <= 0 || lineNo > 1<<62 {
		return cp, fmt.Errorf("%w: line", ErrBadCheckpoint)
	}
	p = p[n:]
	last, n := binary.Varint(p)
	if n <= 0 || n != len(p) {
		return cp, fmt.Errorf("%w: time", ErrBadCheckpoint)
	}
	return Checkpoint{Off: int64(off), LineNo: int64(lineNo), Last: last}, nil
}

// Warnings collects up to Max warnings during a source's first pass; the
// ones past Max are counted and summed up by Close. After Close, Add does
// nothing (a re-read after Seek must not repeat them).
type Warnings struct {
	Max     int
	list    []core.Warning
	dropped int64
	closed  bool
}

// Add records w (Stream -1: line-oriented traces have one stream).
func (w *Warnings) Add(x core.Warning) {
	if w.closed {
		return
	}
	if len(w.list) >= w.Max {
		w.dropped++
		return
	}
	x.Stream = -1
	w.list = append(w.list, x)
}

// Closed reports whether Close was called.
func (w *Warnings) Closed() bool { return w.closed }

// Close ends the collection.
func (w *Warnings) Close() {
	if w.closed {
		return
	}
	if w.dropped > 0 {
		w.list = append(w.list, core.Warning{Stream: -1, Count: w.dropped, Kind: core.WarningMore,
			Message: fmt.Sprintf("%d more warnings not listed", w.dropped)})
	}
	w.closed = true
}

// List returns the warnings.
func (w *Warnings) List() []core.Warning { return w.list }

// AppendFields prints the fields of ev from index `from` on, skipping
// absent ones, babeltrace-style: { name = "text", count = 3 }.
func AppendFields(dst []byte, ev *core.Event, from int) []byte {
	dst = append(dst, '{')
	first := true
	for i := from; i < len(ev.Fields) && i < len(ev.Class.Fields); i++ {
		f := ev.Fields[i]
		if f.Kind == core.FieldNone {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, ' ')
		dst = append(dst, ev.Class.Fields[i]...)
		dst = append(dst, " = "...)
		if f.Kind == core.FieldString {
			dst = strconv.AppendQuote(dst, string(f.Bytes))
		} else {
			dst = f.AppendText(dst)
		}
	}
	if first {
		return append(dst, '}')
	}
	return append(dst, " }"...)
}

// Head returns the first n bytes of the file at path (fewer if it is
// shorter), for content detection.
func Head(path string, n int) ([]byte, error) {
	f, err := tracefile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, n)
	m, err := io.ReadFull(f, b)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	return b[:m], nil
}

// Base is the format-independent half of a line-oriented core.Source:
// reading position, time clamping, warnings of the first pass, and the
// Checkpoint, Seek, Progress, Warnings and Close methods. A reader embeds
// it and adds Info, Next and AppendContents.
type Base struct {
	r      *Reader
	magic  string
	layout uint32
	last   int64 // time of the last event delivered
	warns  Warnings
	// unscanned: the first pass was skipped (SkipScan), so the layout is
	// unknown and Seek trusts the checkpoints' origin (an index whose
	// fingerprint matched the trace).
	unscanned bool
}

// NewBase returns a Base reading r, whose checkpoints start with magic
// (two bytes) and which keeps at most maxWarnings warnings.
func NewBase(r *Reader, magic string, maxWarnings int) Base {
	return Base{r: r, magic: magic, warns: Warnings{Max: maxWarnings}}
}

// Reader returns the line reader.
func (b *Base) Reader() *Reader { return b.r }

// Warn records a warning during the first pass (ignored afterwards).
func (b *Base) Warn(w core.Warning) { b.warns.Add(w) }

// Scanning reports whether the first pass is still running.
func (b *Base) Scanning() bool { return !b.warns.Closed() }

// EndScan ends the first pass: warnings are final, checkpoints are bound
// to the numbers given (size, event and class counts...), and reading
// restarts at the first line with start as the last time delivered.
func (b *Base) EndScan(start int64, ids ...int64) error {
	b.warns.Close()
	b.layout = Layout(ids...)
	b.last = start
	return b.r.SeekLine(0, 1)
}

// SkipScan starts reading without a first pass, for a source that is only
// positioned by Seek on checkpoints of a current index of the trace:
// there are no warnings, and checkpoints are accepted without their
// layout check (the index's fingerprint of the trace stands for it).
func (b *Base) SkipScan() {
	b.warns.Close()
	b.unscanned = true
}

// Deliver returns the time to give an event stamped t: never earlier
// than the one before.
func (b *Base) Deliver(t int64) int64 {
	b.last = max(b.last, t)
	return b.last
}

// Last returns the time of the last event delivered.
func (b *Base) Last() int64 { return b.last }

// Checkpoint implements core.Source: the next line's offset and number,
// and the last time delivered.
func (b *Base) Checkpoint(dst []byte) []byte {
	cp := Checkpoint{Off: b.r.Offset(), LineNo: b.r.LineNo(), Last: b.last}
	return cp.Append(dst, b.magic, b.layout)
}

// Seek implements core.Source.
func (b *Base) Seek(p []byte) error {
	cp, err := decode(p, b.magic, b.layout, !b.unscanned)
	if err != nil {
		return err
	}
	if err := b.r.SeekLine(cp.Off, cp.LineNo); err != nil {
		return err
	}
	b.last = cp.Last
	return nil
}

// Progress implements core.Source: bytes read of the file.
func (b *Base) Progress() (done, total int64) { return b.r.Offset(), b.r.Size() }

// Warnings implements core.Source: the problems found by the first pass.
func (b *Base) Warnings() []core.Warning { return b.warns.List() }

// Close implements core.Source.
func (b *Base) Close() error { return b.r.Close() }
