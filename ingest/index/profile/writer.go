package profile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"slices"

	"github.com/tracetui/tracetui/core"
)

// BlockLen is the number of samples of a full block: 64 k samples, 768
// KB of times and paths, the writer's buffer and the most a reader
// reads at once.
const BlockLen = 1 << 16

// TempPrefix starts the name of the writer's temporary file, after the
// caller's prefix, so a caller holding the build lock can remove the one
// a killed build left.
const TempPrefix = ".prof-"

// Writer builds a profile section from samples given in time order.
type Writer struct {
	blockLen int
	file     *os.File      // the blocks, nil when they are kept in memory
	w        *bufio.Writer // to file, or to mem
	mem      bytes.Buffer
	written  int64 // block bytes so far
	err      error // the first write error

	hdr    header
	block  []sample
	dir    []blockEntry
	tids   []int64
	thread map[int64]uint32 // tid -> its number in tids

	// The call paths' trie.
	parent   []int32
	name     []uint32
	names    []string
	ids      map[string]uint32
	children map[edge]int32
	byStack  map[uint64]int32 // a stack's hash -> its path, checked
	hash     maphash.Hash
	buf      []byte

	// AddEvent's.
	stack    []string
	tidField map[*core.EventClass]int
}

// sample is one sample of the block being filled.
type sample struct {
	thread uint32
	path   uint32
	time   core.Time
}

// edge is a path's child by function.
type edge struct {
	parent int32
	name   uint32
}

// NewWriter returns a writer keeping its blocks in a temporary file in
// dir (the index directory, never the trace's), named prefix +
// TempPrefix + random; with dir "", in memory (tests, small profiles).
func NewWriter(dir, prefix string) (*Writer, error) {
	w := newWriter(BlockLen)
	if dir == "" {
		w.w = bufioTo(&w.mem)
		return w, nil
	}
	f, err := os.CreateTemp(dir, prefix+TempPrefix+"*")
	if err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	w.file, w.w = f, bufio.NewWriterSize(f, 256<<10)
	return w, nil
}

func newWriter(blockLen int) *Writer {
	return &Writer{blockLen: blockLen, thread: map[int64]uint32{}, ids: map[string]uint32{},
		children: map[edge]int32{}, byStack: map[uint64]int32{}, tidField: map[*core.EventClass]int{}}
}

// AddEvent adds the sample ev, the event last returned by src's Next,
// with src's stack for it and the thread of its core.FieldTID field; an
// event without a stack or a thread is not a sample.
func (w *Writer) AddEvent(ev *core.Event, src core.Stacker) {
	if w.stack = src.AppendStack(w.stack[:0]); len(w.stack) == 0 {
		return
	}
	fi, ok := w.tidField[ev.Class]
	if !ok {
		fi = ev.Class.FieldIndex(core.FieldTID)
		w.tidField[ev.Class] = fi
	}
	if tid, ok := ev.Field(fi).AsInt(); ok {
		w.Add(ev.Time, tid, w.stack)
	}
}

// Add records a sample of thread tid at time t (not before the previous
// sample's) with the call stack stack (function names, leaf first); an
// empty stack is not a sample.
func (w *Writer) Add(t core.Time, tid int64, stack []string) {
	if len(stack) == 0 {
		return
	}
	w.hash.Reset()
	for _, f := range stack {
		w.hash.WriteString(f)
		w.hash.WriteByte(0)
	}
	key := w.hash.Sum64()
	path, ok := w.byStack[key]
	if !ok || !w.is(path, stack) {
		path = w.insert(stack)
		w.byStack[key] = path
	}
	th, ok := w.thread[tid]
	if !ok {
		th = uint32(len(w.tids))
		w.thread[tid] = th
		w.tids = append(w.tids, tid)
	}
	if w.hdr.samples == 0 {
		w.hdr.first = t
	}
	w.hdr.last = t
	w.hdr.samples++
	w.block = append(w.block, sample{thread: th, path: uint32(path), time: t})
	if len(w.block) == w.blockLen {
		w.flush()
	}
}

// is reports whether path is stack (leaf first).
func (w *Writer) is(path int32, stack []string) bool {
	for _, f := range stack {
		if path < 0 || w.names[w.name[path]] != f {
			return false
		}
		path = w.parent[path]
	}
	return path < 0
}

// insert adds stack (leaf first) to the trie and returns its path.
func (w *Writer) insert(stack []string) int32 {
	path := int32(-1)
	for k := len(stack) - 1; k >= 0; k-- {
		id, ok := w.ids[stack[k]]
		if !ok {
			id = uint32(len(w.names))
			w.ids[stack[k]] = id
			w.names = append(w.names, stack[k])
		}
		e := edge{path, id}
		c, ok := w.children[e]
		if !ok {
			c = int32(len(w.parent))
			w.children[e] = c
			w.parent = append(w.parent, path)
			w.name = append(w.name, id)
		}
		path = c
	}
	return path
}

// flush writes the block being filled, its samples sorted by thread.
func (w *Writer) flush() {
	if len(w.block) == 0 {
		return
	}
	slices.SortStableFunc(w.block, func(a, b sample) int { return int(a.thread) - int(b.thread) })
	var runs []byte
	nruns := uint32(0)
	for i := 0; i < len(w.block); {
		j := i + 1
		for j < len(w.block) && w.block[j].thread == w.block[i].thread {
			j++
		}
		runs = binary.LittleEndian.AppendUint32(runs, w.block[i].thread)
		runs = binary.LittleEndian.AppendUint32(runs, uint32(j-i))
		nruns++
		i = j
	}
	e := blockEntry{off: uint64(w.written), first: w.block[0].time, last: w.block[0].time, runs: nruns, n: uint32(len(w.block))}
	b := binary.LittleEndian.AppendUint32(w.buf[:0], nruns)
	b = append(b, runs...)
	for _, s := range w.block {
		e.first, e.last = min(e.first, s.time), max(e.last, s.time)
		b = binary.LittleEndian.AppendUint64(b, uint64(s.time))
	}
	for _, s := range w.block {
		b = binary.LittleEndian.AppendUint32(b, s.path)
	}
	w.buf = b
	e.crc = core.CRC32C(b)
	n, err := w.w.Write(b)
	if err != nil && w.err == nil {
		w.err = err
	}
	w.written += int64(n)
	w.dir = append(w.dir, e)
	w.block = w.block[:0]
}

// Finish completes the section and returns its size and a reader of its
// bytes, valid until Close.
func (w *Writer) Finish() (int64, io.Reader, error) {
	w.flush()
	if err := w.w.Flush(); err != nil && w.err == nil {
		w.err = err
	}
	if w.err != nil {
		return 0, nil, fmt.Errorf("profile: writing the samples: %w", w.err)
	}
	tables := w.tables()
	w.hdr.blockBytes = uint64(w.written)
	w.hdr.blocks, w.hdr.threads = uint32(len(w.dir)), uint32(len(w.tids))
	w.hdr.paths, w.hdr.names = uint32(len(w.parent)), uint32(len(w.names))
	w.hdr.nameBytes = 0
	for _, s := range w.names {
		w.hdr.nameBytes += uint64(len(s))
	}
	hdr := w.hdr.encode(tables)
	size := int64(len(hdr)) + w.written + int64(len(tables))
	var blocks io.Reader = bytes.NewReader(w.mem.Bytes())
	if w.file != nil {
		if _, err := w.file.Seek(0, io.SeekStart); err != nil {
			return 0, nil, fmt.Errorf("profile: %w", err)
		}
		blocks = io.LimitReader(w.file, w.written)
	}
	return size, io.MultiReader(bytes.NewReader(hdr), blocks, bytes.NewReader(tables)), nil
}

// tables encodes what follows the blocks: their directory, the threads,
// the paths and the names.
func (w *Writer) tables() []byte {
	var b []byte
	for _, e := range w.dir {
		b = e.append(b)
	}
	for _, tid := range w.tids {
		b = binary.LittleEndian.AppendUint64(b, uint64(tid))
	}
	for i, p := range w.parent {
		b = binary.LittleEndian.AppendUint32(b, uint32(p))
		b = binary.LittleEndian.AppendUint32(b, w.name[i])
	}
	end := uint32(0)
	for _, s := range w.names {
		end += uint32(len(s))
		b = binary.LittleEndian.AppendUint32(b, end)
	}
	for _, s := range w.names {
		b = append(b, s...)
	}
	return b
}

// Close removes the temporary file.
func (w *Writer) Close() error {
	if w.file != nil {
		w.file.Close()
		os.Remove(w.file.Name())
		w.file = nil
	}
	return nil
}

// bufioTo returns a buffered writer to b (the in-memory blocks).
func bufioTo(b *bytes.Buffer) *bufio.Writer { return bufio.NewWriterSize(b, 64<<10) }
