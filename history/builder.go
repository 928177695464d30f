package history

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/tracetui/tracetui/core"
)

// Builder writes an index file. It is the [core.StateSink] analyses feed:
// Modify closes the key's current interval and inserts it into the tree,
// Close ends every key's state, writes the file and renames it into place.
// A Builder is not safe for concurrent use.
type Builder struct {
	path  string
	opts  Options
	f     *os.File // the temporary index
	side  *os.File // temporary section data, created by the first AddSection
	tree  *core.AttributeTree
	cls   *classer // class per key, extended with state
	tb    *treeBuilder
	start core.Time
	last  core.Time
	state *stateTable // current state per key
	strs  []byte      // the string of the interval being inserted
	secs  []section   // offsets relative to the side file until Close
	done  bool
	err   error // first write error: the build cannot go on

	pipe     *pipeline // the tree side, started by the first interval
	cur      *ivBatch  // the batch being filled
	keysSent int       // attribute count last sent to the tree side

	ended     bool      // EndStates was called: the states are gone
	endedAt   core.Time // its end
	endedKeys int       // the key count then

	sum *summaryBuild // level-of-detail summaries, nil: none (summary_build.go)
	// First nulls held back (nulls.go): R-SHT only, until EndStates.
	holdNulls bool
	nulls     [][]heldNull // in pages of heldPageLen
	nullsHeld int
	nullGroup int // the most held back: nullGroupLen (tests lower it)
}

var _ core.StateSink = (*Builder)(nil)

// Create starts building the index that Close will put at path, for a
// trace starting at start. It writes a temporary file in path's directory
// (removing the leftovers of killed builds of the same path first).
func Create(path string, start core.Time, opts Options) (*Builder, error) {
	o, err := opts.resolved()
	if err != nil {
		return nil, err
	}
	removeStaleTemps(path)
	f, err := createTemp(path, "")
	if err != nil {
		return nil, err
	}
	// The header block stays zero (no magic) until everything else is on
	// disk, so a partial file never opens as an index.
	if _, err := f.WriteAt(make([]byte, o.BlockSize), 0); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("history: write %s: %w", f.Name(), err)
	}
	b := &Builder{path: path, opts: o, f: f, tree: core.NewAttributeTree(), cls: newClasser(o.oneClass), state: newStateTable(), keysSent: -1, start: start, last: start}
	b.sum = newSummaryBuild(o.Summarise, path, start, o.Context)
	b.holdNulls, b.nullGroup = o.Layout == LayoutRSHT, nullGroupLen
	b.tb = newTreeBuilder(o, &blockWriter{f: f, bs: o.BlockSize}, int64(start), b.tree.Len)
	return b, nil
}

// Attributes implements [core.StateSink]: keys may be added at any time
// before Close.
func (b *Builder) Attributes() *core.AttributeTree { return b.tree }

// Value implements [core.StateSink].
func (b *Builder) Value(key core.Key) core.Value {
	if key >= 0 && int(key) < b.state.len() {
		return b.state.value(key)
	}
	return core.Null()
}

func (b *Builder) grow() {
	b.state.grow(b.tree.Len(), b.start)
	b.cls.extend(b.tree)
}

// Modify implements [core.StateSink] with the semantics of
// [core.MemHistory].
func (b *Builder) Modify(key core.Key, t core.Time, v core.Value) error {
	if b.done {
		return core.ErrClosed
	}
	if b.err != nil {
		return b.err
	}
	if b.ended {
		return ErrStatesEnded
	}
	if !b.tree.Valid(key) {
		return fmt.Errorf("%w: %d", core.ErrBadKey, key)
	}
	if t < b.last {
		return fmt.Errorf("%w: change at %d after one at %d", core.ErrTimeOrder, t, b.last)
	}
	if err := core.CheckValue(v); err != nil {
		return err
	}
	b.last = t
	if int(key) >= b.state.len() {
		b.grow()
	}
	st := b.state.at(key)
	old := b.state.value(key)
	if old == v {
		return nil
	}
	if t > st.since() {
		if err := b.emit(key, st.since(), t-1, old); err != nil {
			b.err = err
			return err
		}
		st.setSince(t)
	}
	b.state.set(key, v)
	return nil
}

// AddSection stores size bytes read from r as the named section of the
// file ([Tree.Section] reads it back). The bytes are streamed to a
// temporary file, not held in memory. Names are unique, 1 to 255 bytes.
func (b *Builder) AddSection(name string, size int64, r io.Reader) error {
	if b.done {
		return core.ErrClosed
	}
	if b.err != nil {
		return b.err
	}
	if err := checkSectionName(name); err != nil {
		return err
	}
	if size < 0 {
		return fmt.Errorf("history: section %q: negative size %d", name, size)
	}
	for _, s := range b.secs {
		if s.name == name {
			return fmt.Errorf("history: section %q added twice", name)
		}
	}
	off, err := b.sideEnd()
	if err != nil {
		return fmt.Errorf("history: section %q: %w", name, err)
	}
	h := core.NewCRC32C()
	n, err := io.CopyN(io.MultiWriter(b.side, h), r, size)
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = fmt.Errorf("history: section %q: reader gave %d bytes, want %d: %w", name, n, size, io.ErrUnexpectedEOF)
		} else {
			err = fmt.Errorf("history: section %q: %w", name, err)
		}
		// Drop the partial bytes so the next section starts clean.
		if terr := b.side.Truncate(off); terr != nil {
			b.err = terr
		}
		return err
	}
	b.secs = append(b.secs, section{name: name, off: uint64(off), size: uint64(size), crc: h.Sum32()})
	return nil
}

// Close ends every attribute's state at end (inclusive), writes the tree,
// the attribute tree and the sections, syncs the file and renames it to
// the path given to Create. On error the temporary files are removed and
// nothing is left at path.
func (b *Builder) Close(end core.Time) error {
	if b.done {
		return core.ErrClosed
	}
	if b.err != nil {
		b.Abort()
		return b.err
	}
	if end < b.last {
		return fmt.Errorf("%w: close at %d before a change at %d", core.ErrTimeOrder, end, b.last)
	}
	if err := b.close(end); err != nil {
		b.Abort()
		return err
	}
	return nil
}

func (b *Builder) close(end core.Time) error {
	if !b.ended {
		if err := b.endStates(end); err != nil {
			return err
		}
	} else if err := b.checkEnded(end); err != nil {
		return err
	}
	if err := b.drain(); err != nil {
		return err
	}
	root, depth, err := b.tb.finish(int64(end))
	if err != nil {
		return err
	}
	bs := uint64(b.opts.BlockSize)
	nodes := b.tb.w.next
	waitWriteback := startWriteback(b.f, int64(nodes+1)*int64(bs))
	defer waitWriteback() // before an error's Abort closes the file
	h := &fileHeader{
		version: FormatVersion, layout: b.opts.Layout, maxChildren: b.opts.MaxChildren, blockSize: b.opts.BlockSize,
		rootSeq: root, nodeCount: nodes, depth: uint32(depth), maxRHeight: uint32(b.tb.maxRHeight()),
		intervals: b.tb.intervals, start: b.start, end: end, attrCount: uint32(b.tree.Len()),
	}
	off := (uint64(nodes) + 1) * bs
	classes := b.cls.encode()
	if _, err := b.f.WriteAt(classes, int64(off)); err != nil {
		return fmt.Errorf("history: write class table: %w", err)
	}
	h.classOff, h.classCRC, h.classCount = off, core.CRC32C(classes), uint32(b.cls.count())
	off += uint64(len(classes))
	attrLen, attrCRC, err := writeAttributes(b.f, off, b.tree)
	if err != nil {
		return err
	}
	h.attrOff, h.attrLen, h.attrCRC = off, attrLen, attrCRC
	off += attrLen
	if b.side != nil {
		if _, err := b.side.Seek(0, io.SeekStart); err != nil {
			return err
		}
		if _, err := b.f.Seek(int64(off), io.SeekStart); err != nil {
			return err
		}
		n, err := io.Copy(b.f, b.side)
		if err != nil {
			return fmt.Errorf("history: copy sections: %w", err)
		}
		for i := range b.secs {
			b.secs[i].off += off
		}
		off += uint64(n)
	}
	waitWriteback()
	if b.sum.busy() {
		// The disk writes what is written while the summaries are being
		// computed, and the fsync below waits for their section only: 100
		// ms less at the end of `gen --threads 200000`.
		if err := b.f.Sync(); err != nil {
			return fmt.Errorf("history: sync index: %w", err)
		}
	}
	sum, err := b.appendSummary(off) // last, as the sections added before Close
	if err != nil {
		return err
	}
	if sum != nil {
		b.secs = append(b.secs, *sum)
		off += sum.size
	}
	tab := encodeSections(b.secs)
	if _, err := b.f.WriteAt(tab, int64(off)); err != nil {
		return fmt.Errorf("history: write section table: %w", err)
	}
	h.sectionCount, h.sectTabOff, h.sectTabLen, h.sectTabCRC = uint32(len(b.secs)), off, uint64(len(tab)), core.CRC32C(tab)
	h.fileSize = off + uint64(len(tab))
	if err := b.f.Sync(); err != nil {
		return fmt.Errorf("history: sync index: %w", err)
	}
	if _, err := b.f.WriteAt(h.encode(), 0); err != nil {
		return fmt.Errorf("history: write header: %w", err)
	}
	if err := b.f.Sync(); err != nil {
		return fmt.Errorf("history: sync index: %w", err)
	}
	tmp := b.f.Name()
	if m := b.opts.Mode; m != 0 && m != 0o600 {
		if err := b.f.Chmod(m); err != nil {
			return fmt.Errorf("history: set the index's permissions: %w", err)
		}
	}
	if err := b.f.Close(); err != nil {
		return fmt.Errorf("history: close index: %w", err)
	}
	b.f = nil
	if err := os.Rename(tmp, b.path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("history: rename index into place: %w", err)
	}
	b.done = true
	b.dropSide()
	b.sum.drop()
	if err := syncDir(filepath.Dir(b.path)); err != nil {
		return fmt.Errorf("history: sync directory: %w", err)
	}
	return nil
}

// Abort stops the build and removes its temporary files. Close and Modify
// return core.ErrClosed afterwards. Abort after Close does nothing.
func (b *Builder) Abort() {
	b.sum.stop() // the pass, if started, stops at its next look at its context
	if b.pipe != nil {
		b.pipe.dropping.Store(true) // nothing queued is kept
	}
	b.drain()
	if b.f != nil {
		removeTemp(b.f)
		b.f = nil
	}
	b.dropSide()
	b.sum.drop()
	b.done = true
}

func (b *Builder) dropSide() {
	if b.side != nil {
		removeTemp(b.side)
		b.side = nil
	}
}
