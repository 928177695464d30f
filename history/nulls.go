package history

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/tracetui/tracetui/core"
)

// First nulls.
//
// Every key is null from the start of the trace until its first change,
// and that interval is stored (as Trace Compass does) so that a query at
// any instant finds every key. It ends when the key first changes, which
// for most keys is when the trace first mentions them: anywhere in the
// trace. Placed then, one such interval starting at the trace's start
// lands in nearly every R-tree of the trace, and every R-tree's bounding
// box reaches back to the start: a query for two keys at the start of a
// 1.29 M-event ftrace capture (9 309 keys) read 244 nodes, one per R-tree
// root, for two intervals.
//
// The R-SHT builder therefore holds them back: the first null of each key
// is logged, (key, end), to a temporary file and placed by EndStates,
// before the last states, all together. They then fill R-trees of their
// own, sorted by (class, key) as any R-buffer is, and the query above
// reads 7 nodes. The summaries still see them in time order (emit's hook
// runs when they end). The eSHT and SHT layouts place them as they come,
// as the article's builders do.

// nullLogSuffix names the log's temporary file.
const nullLogSuffix = ".nul"

// nullLogBuffer is the log's write and read buffer.
const nullLogBuffer = 1 << 16

// nullLog is the log of the first nulls held back: per interval the key
// (zig-zag delta from the previous one: keys are mostly created in
// order) and the end (offset from the trace's start), as uvarints.
type nullLog struct {
	path    string // the index's, for the temporary name
	start   core.Time
	f       *os.File
	w       *bufio.Writer
	prevKey core.Key
	n       int64
	rec     []byte
}

func newNullLog(path string, start core.Time) *nullLog {
	return &nullLog{path: path, start: start}
}

// add logs key's first null, [start, end].
func (l *nullLog) add(key core.Key, end core.Time) error {
	if l.f == nil {
		f, err := createTemp(l.path, nullLogSuffix)
		if err != nil {
			return err
		}
		l.f, l.w = f, bufio.NewWriterSize(f, nullLogBuffer)
	}
	d := int64(key) - int64(l.prevKey)
	l.rec = binary.AppendUvarint(l.rec[:0], uint64(d<<1^d>>63))
	l.rec = binary.AppendUvarint(l.rec, uint64(end-l.start))
	if _, err := l.w.Write(l.rec); err != nil {
		return fmt.Errorf("history: write the log of first nulls: %w", err)
	}
	l.prevKey = key
	l.n++
	return nil
}

// replay calls fn for every logged interval, in the order logged, then
// removes the log. It checks b's context every few thousand intervals.
func (l *nullLog) replay(b *Builder, fn func(key core.Key, end core.Time) error) error {
	if l == nil {
		return nil
	}
	defer l.drop()
	if l.f == nil {
		return nil
	}
	if err := l.w.Flush(); err != nil {
		return fmt.Errorf("history: write the log of first nulls: %w", err)
	}
	if _, err := l.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("history: read the log of first nulls: %w", err)
	}
	r := bufio.NewReaderSize(l.f, nullLogBuffer)
	key := core.Key(0)
	for i := int64(0); i < l.n; i++ {
		if ctx := b.opts.Context; i%4096 == 0 && ctx != nil {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		zd, err := binary.ReadUvarint(r)
		if err != nil {
			return fmt.Errorf("history: read the log of first nulls: %w", err)
		}
		off, err := binary.ReadUvarint(r)
		if err != nil {
			return fmt.Errorf("history: read the log of first nulls: %w", err)
		}
		key += core.Key(int64(zd>>1) ^ -int64(zd&1))
		if err := fn(key, l.start+core.Time(off)); err != nil {
			return err
		}
	}
	return nil
}

// drop removes the log's file (after replay, or when the build is
// aborted).
func (l *nullLog) drop() {
	if l == nil || l.f == nil {
		return
	}
	name := l.f.Name()
	l.f.Close()
	os.Remove(name)
	l.f, l.w = nil, nil
}
