package pstree

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/tracetui/tracetui/core"
)

// ErrCorrupt is reported for bytes that are not encoded rows.
var ErrCorrupt = errors.New("process tree section is corrupt")

// ErrOldFormat is returned by [OpenRows] for a section of an earlier
// format: the caller arranges the rows itself, as for an index without it.
var ErrOldFormat = errors.New("process tree section of an earlier format")

// Rows is an encoded tree of rows ([EncodeRows]) read on demand, a 4 KiB
// block at a time, each checked against its CRC when first read. Any
// number of goroutines may read it. Damage found after [OpenRows] is
// reported once to the damage function and read as empty rows (no key, no
// label, no children), so that readers never fail.
type Rows struct {
	r        io.ReaderAt
	n        int // rows
	collapse int // collapsed entries
	threads  int // key index entries
	heap     int
	attrs    int
	body     int64 // body length
	onDamage func(error)

	mu       sync.Mutex
	blocks   map[int64][]byte // verified blocks by number
	damaged  error
	reported bool
}

// maxCachedBlocks bounds the blocks kept (16 MiB): a walk of every row
// reads them again rather than holding the whole section.
const maxCachedBlocks = 4096

// OpenRows reads the header of size bytes of encoded rows from r. Only the
// header is read and checked; onDamage (nil: ignored) is told of damage
// met later.
func OpenRows(r io.ReaderAt, size int64, onDamage func(error)) (*Rows, error) {
	var h [headerLen]byte
	if size < headerLen {
		return nil, fmt.Errorf("%w: %d bytes, shorter than a header", ErrCorrupt, size)
	}
	if _, err := r.ReadAt(h[:], 0); err != nil {
		return nil, fmt.Errorf("reading the process tree header: %w", err)
	}
	if string(h[:4]) == "PST1" {
		return nil, ErrOldFormat
	}
	if string(h[:4]) != rowsMagic {
		return nil, fmt.Errorf("%w: no %q header", ErrCorrupt, rowsMagic)
	}
	le := binary.LittleEndian
	if le.Uint32(h[28:]) != core.CRC32C(h[:28]) {
		return nil, fmt.Errorf("%w: header checksum", ErrCorrupt)
	}
	u := func(off int) int64 { return int64(le.Uint32(h[off:])) }
	rs := &Rows{r: r, n: int(u(4)), collapse: int(u(8)), threads: int(u(12)), heap: int(u(16)), attrs: int(u(20)), onDamage: onDamage, blocks: map[int64][]byte{}}
	rs.body = u(4)*recordLen + u(8)*4 + u(12)*keyRowLen + u(16)
	if want := headerLen + rs.body + 4*((rs.body+blockLen-1)/blockLen); u(4) > maxRecords || want != size {
		return nil, fmt.Errorf("%w: %d bytes, the header describes %d", ErrCorrupt, size, want)
	}
	return rs, nil
}

// Len returns the number of rows.
func (rs *Rows) Len() int { return rs.n }

// Attributes returns the attribute count of the tree the rows were
// arranged from: rows of another tree do not describe it.
func (rs *Rows) Attributes() int { return rs.attrs }

// Err returns the damage met so far, or nil.
func (rs *Rows) Err() error {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.damaged
}

// fail records damage, reporting the first.
func (rs *Rows) fail(err error) {
	rs.mu.Lock()
	report := !rs.reported
	if report {
		rs.damaged, rs.reported = err, true
	}
	rs.mu.Unlock()
	if report && rs.onDamage != nil {
		rs.onDamage(err)
	}
}

// read appends the body's bytes [off, off+n) to dst, or returns false on
// damage (reported).
func (rs *Rows) read(dst []byte, off, n int64) ([]byte, bool) {
	for n > 0 {
		blk := off / blockLen
		b, err := rs.block(blk)
		if err != nil {
			rs.fail(err)
			return dst, false
		}
		in := off - blk*blockLen
		k := min(n, int64(len(b))-in)
		dst = append(dst, b[in:in+k]...)
		off, n = off+k, n-k
	}
	return dst, true
}

// block returns body block blk, verified.
func (rs *Rows) block(blk int64) ([]byte, error) {
	rs.mu.Lock()
	b, ok := rs.blocks[blk]
	rs.mu.Unlock()
	if ok {
		return b, nil
	}
	from := blk * blockLen
	b = make([]byte, min(blockLen, rs.body-from)+4)
	if _, err := rs.r.ReadAt(b[:len(b)-4], headerLen+from); err != nil {
		return nil, fmt.Errorf("reading block %d of the process tree: %w", blk, err)
	}
	if _, err := rs.r.ReadAt(b[len(b)-4:], headerLen+rs.body+4*blk); err != nil {
		return nil, fmt.Errorf("reading the CRC of block %d of the process tree: %w", blk, err)
	}
	b, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if core.CRC32C(b) != sum {
		return nil, fmt.Errorf("%w: block %d fails its CRC", ErrCorrupt, blk)
	}
	rs.mu.Lock()
	if len(rs.blocks) >= maxCachedBlocks {
		clear(rs.blocks)
	}
	rs.blocks[blk] = b
	rs.mu.Unlock()
	return b, nil
}

// RowInfo is a row's record.
type RowInfo struct {
	Parent   int32 // -1 for a root
	End      int32 // the row after the subtree: children are in (row, End)
	Key      int32 // -1 for none
	Thread   int32 // -1 for none
	Depth    int
	Kind     Kind
	Expanded bool // at open
	labelOff uint32
	labelLen uint32
	tidLen   uint16
}

// Row returns row i's record (0 <= i < Len), or an empty row when it is
// damaged.
func (rs *Rows) Row(i int32) RowInfo {
	empty := RowInfo{Parent: -1, End: i + 1, Key: -1, Thread: -1}
	if i < 0 || int(i) >= rs.n {
		return empty
	}
	var buf [recordLen]byte
	b, ok := rs.read(buf[:0], int64(i)*recordLen, recordLen)
	if !ok {
		return empty
	}
	return rs.decodeRow(i, b)
}

// decodeRow decodes and checks row i's record b, or returns an empty row
// when it is damaged (reported).
func (rs *Rows) decodeRow(i int32, b []byte) RowInfo {
	le := binary.LittleEndian
	r := RowInfo{Parent: int32(le.Uint32(b)), End: int32(le.Uint32(b[4:])), Key: int32(le.Uint32(b[8:])), Thread: int32(le.Uint32(b[12:])),
		labelOff: le.Uint32(b[16:]), labelLen: le.Uint32(b[20:]), tidLen: le.Uint16(b[24:]), Depth: int(le.Uint16(b[26:])),
		Kind: Kind(b[28]), Expanded: b[29]&flagOpen != 0}
	switch {
	case r.Parent < -1 || r.Parent >= i:
		rs.fail(fmt.Errorf("%w: row %d has parent %d", ErrCorrupt, i, r.Parent))
	case r.End <= i || int(r.End) > rs.n:
		rs.fail(fmt.Errorf("%w: row %d ends at %d", ErrCorrupt, i, r.End))
	case r.Key < -1 || r.Thread < -1 || r.Kind >= numKinds || b[29] > flagOpen:
		rs.fail(fmt.Errorf("%w: row %d has a bad key, thread, kind or flag", ErrCorrupt, i))
	case int64(r.labelOff)+int64(r.labelLen) > int64(rs.heap) || uint32(r.tidLen) > r.labelLen:
		rs.fail(fmt.Errorf("%w: row %d has its label out of the heap", ErrCorrupt, i))
	default:
		return r
	}
	return RowInfo{Parent: -1, End: i + 1, Key: -1, Thread: -1}
}

// Label returns row r's label ("" when damaged).
func (rs *Rows) Label(r RowInfo) string {
	if r.labelLen == 0 {
		return ""
	}
	heap := int64(rs.n)*recordLen + int64(rs.collapse)*4 + int64(rs.threads)*keyRowLen
	b, ok := rs.read(make([]byte, 0, r.labelLen), heap+int64(r.labelOff), int64(r.labelLen))
	if !ok {
		return ""
	}
	return string(b)
}

// TIDLen returns the length of row r's tid at the end of its label (0:
// not a thread's row).
func (r RowInfo) TIDLen() int { return int(r.tidLen) }

// Collapsed returns the rows closed at open that have children, in order
// (nil when damaged).
func (rs *Rows) Collapsed() []int32 {
	b, ok := rs.read(make([]byte, 0, 4*rs.collapse), int64(rs.n)*recordLen, int64(rs.collapse)*4)
	if !ok {
		return nil
	}
	out := make([]int32, rs.collapse)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
		if out[i] < 0 || int(out[i]) >= rs.n || (i > 0 && out[i] <= out[i-1]) {
			rs.fail(fmt.Errorf("%w: collapsed row %d out of order", ErrCorrupt, out[i]))
			return nil
		}
	}
	return out
}

// RowOfKey returns the row of the thread whose attribute is key.
func (rs *Rows) RowOfKey(key int32) (int32, bool) {
	base := int64(rs.n)*recordLen + int64(rs.collapse)*4
	entry := func(i int) (int32, int32, bool) {
		var buf [keyRowLen]byte
		b, ok := rs.read(buf[:0], base+int64(i)*keyRowLen, keyRowLen)
		if !ok {
			return 0, 0, false
		}
		return int32(binary.LittleEndian.Uint32(b)), int32(binary.LittleEndian.Uint32(b[4:])), true
	}
	lo, hi := 0, rs.threads
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		k, _, ok := entry(mid)
		if !ok {
			return 0, false
		}
		if k < key {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == rs.threads {
		return 0, false
	}
	k, row, ok := entry(lo)
	if !ok || k != key {
		return 0, false
	}
	if row < 0 || int(row) >= rs.n {
		rs.fail(fmt.Errorf("%w: thread %d has row %d", ErrCorrupt, key, row))
		return 0, false
	}
	return row, true
}

// scanChunk is the number of records [Rows.Scan] reads at once (256 KiB).
const scanChunk = 64 * blockLen / recordLen

// maxScanHeap bounds the labels [Rows.Scan] reads at once; the labels of
// a chunk that spread wider are read one by one.
const maxScanHeap = 1 << 20

// Scan calls fn with each row of [lo, hi) in order, its record and its
// label (valid only during the call), until fn returns false. It reads
// the rows a chunk at a time, past the block cache, so that a walk of
// millions of rows (a search, statistics) costs sequential reads and
// leaves the cache to the rows on screen. A damaged row reads as empty.
func (rs *Rows) Scan(lo, hi int32, fn func(i int32, r RowInfo, label []byte) bool) {
	rs.scan(lo, hi, true, fn)
}

// ScanRecords is [Rows.Scan] without the labels (nil), which it does not
// read.
func (rs *Rows) ScanRecords(lo, hi int32, fn func(i int32, r RowInfo) bool) {
	rs.scan(lo, hi, false, func(i int32, r RowInfo, _ []byte) bool { return fn(i, r) })
}

func (rs *Rows) scan(lo, hi int32, labels bool, fn func(i int32, r RowInfo, label []byte) bool) {
	lo, hi = max(lo, 0), min(hi, int32(rs.n))
	heapBase := rs.heapBase()
	var recScratch, heapScratch, one []byte
	infos := make([]RowInfo, 0, min(scanChunk, max(hi-lo, 0)))
	for c := lo; c < hi; c += scanChunk {
		end := min(c+scanChunk, hi)
		recs, ok := rs.span(&recScratch, int64(c)*recordLen, int64(end-c)*recordLen)
		infos = infos[:end-c]
		from, to := int64(math.MaxInt64), int64(0)
		for i := range infos {
			if !ok {
				infos[i] = RowInfo{Parent: -1, End: c + int32(i) + 1, Key: -1, Thread: -1}
				continue
			}
			infos[i] = rs.decodeRow(c+int32(i), recs[i*recordLen:])
			if r := infos[i]; labels && r.labelLen > 0 {
				from, to = min(from, int64(r.labelOff)), max(to, int64(r.labelOff)+int64(r.labelLen))
			}
		}
		var heap []byte
		heapOK := to > from && to-from <= maxScanHeap
		if heapOK {
			heap, heapOK = rs.span(&heapScratch, heapBase+from, to-from)
		}
		for i, r := range infos {
			var label []byte
			switch {
			case !labels || r.labelLen == 0:
			case heapOK:
				label = heap[int64(r.labelOff)-from : int64(r.labelOff)-from+int64(r.labelLen)]
			default:
				one, _ = rs.read(one[:0], heapBase+int64(r.labelOff), int64(r.labelLen))
				label = one
			}
			if !fn(c+int32(i), r, label) {
				return
			}
		}
	}
}

// heapBase is the body offset of the labels' heap.
func (rs *Rows) heapBase() int64 {
	return int64(rs.n)*recordLen + int64(rs.collapse)*4 + int64(rs.threads)*keyRowLen
}

// span returns the body's bytes [off, off+n), reading the blocks that
// hold them into scratch with one read (and their CRCs with another), or
// false on damage (reported).
func (rs *Rows) span(scratch *[]byte, off, n int64) ([]byte, bool) {
	if n <= 0 {
		return nil, true
	}
	b0, b1 := off/blockLen, (off+n-1)/blockLen+1
	size := min(b1*blockLen, rs.body) - b0*blockLen
	if int64(cap(*scratch)) < size+4*(b1-b0) {
		*scratch = make([]byte, size+4*(b1-b0))
	}
	buf, crcs := (*scratch)[:size], (*scratch)[size:size+4*(b1-b0)]
	if _, err := rs.r.ReadAt(buf, headerLen+b0*blockLen); err != nil {
		rs.fail(fmt.Errorf("reading blocks %d to %d of the process tree: %w", b0, b1, err))
		return nil, false
	}
	if _, err := rs.r.ReadAt(crcs, headerLen+rs.body+4*b0); err != nil {
		rs.fail(fmt.Errorf("reading the CRCs of blocks %d to %d of the process tree: %w", b0, b1, err))
		return nil, false
	}
	for b := range b1 - b0 {
		blk := buf[b*blockLen : min((b+1)*blockLen, size)]
		if core.CRC32C(blk) != binary.LittleEndian.Uint32(crcs[4*b:]) {
			rs.fail(fmt.Errorf("%w: block %d fails its CRC", ErrCorrupt, b0+b))
			return nil, false
		}
	}
	in := off - b0*blockLen
	return buf[in : in+n], true
}
