package pstree

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
)

// SectionName is the name of the index section holding the encoded
// Control Flow rows.
const SectionName = "pstree"

// Kind is what a row of the browser's tree stands for.
type Kind uint8

// The kinds of rows.
const (
	KindProcess   Kind = iota // a process: its leader thread (tid == PID), or a name only
	KindThread                // a thread
	KindCallStack             // one call stack depth of a thread
	KindCPU                   // a CPU
	KindIRQ                   // an IRQ line of a CPU
	KindSoftIRQ               // a soft IRQ vector of a CPU
	KindAsync                 // a lane of a process's async slices (Chrome)
	KindCounter               // a counter of a process (Chrome) or a variable of a container (Pajé)
	KindSamples               // a thread's sample density (Threads/<tid>/Samples: perf.data)
	numKinds
)

// Row is one row of a tree before it is encoded ([EncodeRows]). Its
// fields are ordered so that it takes 40 bytes: millions are held at the
// end of a build.
type Row struct {
	Label string
	// TIDLen is the length of the thread's Threads/<tid> name at the end
	// of Label (0: not a thread's row).
	TIDLen int
	Key    int32 // the attribute drawn; -1 for none
	Thread int32 // the thread's Threads/<tid> attribute; -1 for none
	Parent int32 // index of the parent row; -1 for a root
	Kind   Kind
	// Expanded: open when the browser opens.
	Expanded bool
	// Siblings sort by Rank, then, when both are ByID, by their ids
	// (numeric ids numerically, before other ids in string order), else
	// in the order they were given.
	Rank uint8
	ByID bool
}

// The encoded rows, all integers little-endian ([EncodeRows] writes them,
// [OpenRows] reads them):
//
//	header, 32 bytes:
//	  0   "PST2" (the last byte is the format version)
//	  4   u32  rows
//	  8   u32  collapsed: rows closed at open that have children
//	  12  u32  threads: entries of the key index
//	  16  u32  heap bytes
//	  20  u32  attributes of the tree the rows were arranged from
//	  24  u32  0
//	  28  u32  CRC-32C of bytes 0 to 28
//	body:
//	  rows × 32-byte records, in depth-first order (siblings sorted):
//	    0   i32  parent row (-1: a root)
//	    4   u32  end: the row after the subtree
//	    8   i32  key (-1: none)
//	    12  i32  thread (-1: none)
//	    16  u32  label offset in the heap
//	    20  u32  label length
//	    24  u16  tid length (the label's last bytes)
//	    26  u16  depth
//	    28  u8   kind
//	    29  u8   flags: 1 = expanded at open
//	    30  u16  0
//	  collapsed × u32: the rows closed at open that have children, in order
//	  threads × (i32 key, u32 row): rows of a thread, by increasing key
//	  heap: the labels' bytes
//	CRC table: a u32 CRC-32C per 4 KiB block of the body (the last one short)
//
// A row's children follow it: the first at row+1, each next at the end of
// the previous one's subtree. Nothing is read before it is needed, so
// opening costs the same at a thousand rows as at millions.
const (
	// RowsVersion is the section's format version, the last byte of its
	// magic. It is part of an index's fingerprint (ingest.indexVersions),
	// so that a cached index with an older section is rebuilt rather than
	// opened on the slow query path.
	RowsVersion = 2
	rowsMagic   = "PST2"
	headerLen   = 32
	recordLen   = 32
	blockLen    = 4096
	flagOpen    = 1
	keyRowLen   = 8
	maxRecords  = math.MaxInt32 / recordLen
)

// Encoded is rows arranged depth-first, siblings sorted, ready to be
// written in the encoded format ([Encoded.WriteTo]) without holding the
// encoded bytes.
type Encoded struct {
	rows      []Row
	order     []int32 // the rows, depth-first
	newRow    []int32 // row -> its place in order
	end       []int32 // by place: the place after the subtree
	collapsed []int32 // places closed at open that have children
	threads   []keyRow
	heap      int
	attrs     int
}

// keyRow is an entry of the key index.
type keyRow struct{ key, row int32 }

// EncodeRows returns rows in the encoded format ([Arrange]).
func EncodeRows(rows []Row, attrs int) []byte { return Arrange(rows, attrs).Bytes() }

// Arrange sorts the siblings of rows (linked by their Parent fields) and
// orders them depth-first. attrs is the attribute count of the tree the
// rows come from (see [Rows.Attributes]).
func Arrange(rows []Row, attrs int) *Encoded {
	n := len(rows)
	// Children grouped by parent (group 0: the roots), in the given order.
	start := make([]int32, n+2)
	for i := range rows {
		start[rows[i].Parent+2]++
	}
	for g := 1; g < len(start); g++ {
		start[g] += start[g-1]
	}
	kids := make([]int32, n)
	fill := slices.Clone(start[:n+1])
	for i := range rows {
		p := rows[i].Parent + 1
		kids[fill[p]] = int32(i)
		fill[p]++
	}
	ids := make([]rowID, n)
	for i := range rows {
		ids[i] = numericID(idText(&rows[i]))
	}
	for g := range n + 1 {
		slices.SortStableFunc(kids[start[g]:start[g+1]], func(a, b int32) int {
			x, y := &rows[a], &rows[b]
			if c := cmp.Compare(x.Rank, y.Rank); c != 0 || !x.ByID || !y.ByID {
				return c
			}
			return compareIDs(ids[a], ids[b], x, y)
		})
	}
	e := &Encoded{rows: rows, order: make([]int32, 0, n), newRow: make([]int32, n), end: make([]int32, n), attrs: attrs}
	stack := slices.Clone(kids[start[0]:start[1]])
	slices.Reverse(stack)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		e.newRow[i] = int32(len(e.order))
		e.order = append(e.order, i)
		for j := start[i+2] - 1; j >= start[i+1]; j-- {
			stack = append(stack, kids[j])
		}
	}
	for r := n - 1; r >= 0; r-- {
		e.end[r] = max(e.end[r], int32(r+1))
		if p := rows[e.order[r]].Parent; p >= 0 {
			e.end[e.newRow[p]] = max(e.end[e.newRow[p]], e.end[r])
		}
	}
	for r, i := range e.order {
		row := &rows[i]
		e.heap += len(row.Label)
		if !row.Expanded && e.end[r] > int32(r+1) {
			e.collapsed = append(e.collapsed, int32(r))
		}
		if row.TIDLen > 0 && row.Key >= 0 {
			e.threads = append(e.threads, keyRow{row.Key, int32(r)})
		}
	}
	slices.SortFunc(e.threads, func(a, b keyRow) int { return cmp.Compare(a.key, b.key) })
	return e
}

// bodyLen is the length of the encoded body.
func (e *Encoded) bodyLen() int64 {
	return int64(len(e.order))*recordLen + 4*int64(len(e.collapsed)) + keyRowLen*int64(len(e.threads)) + int64(e.heap)
}

// Size returns the length of the encoded rows.
func (e *Encoded) Size() int64 {
	body := e.bodyLen()
	return headerLen + body + 4*((body+blockLen-1)/blockLen)
}

// Bytes returns the encoded rows.
func (e *Encoded) Bytes() []byte {
	b := bytes.NewBuffer(make([]byte, 0, e.Size()))
	e.WriteTo(b) // a bytes.Buffer does not fail
	return b.Bytes()
}

// WriteTo writes the encoded rows to w: the header, the records in order,
// the collapsed list, the key index, the heap and the CRC table.
func (e *Encoded) WriteTo(w io.Writer) (int64, error) {
	le := binary.LittleEndian
	h := []byte(rowsMagic)
	for _, v := range []int{len(e.order), len(e.collapsed), len(e.threads), e.heap, e.attrs, 0} {
		h = le.AppendUint32(h, uint32(v))
	}
	h = le.AppendUint32(h, core.CRC32C(h))
	bw := &blockWriter{w: bufio.NewWriterSize(w, 1<<16)}
	bw.w.Write(h)
	depth := make([]uint16, len(e.order))
	labelOff := uint32(0)
	var rec [recordLen]byte
	for r, i := range e.order {
		row := &e.rows[i]
		parent := int32(-1)
		if row.Parent >= 0 {
			parent = e.newRow[row.Parent]
			depth[r] = depth[parent] + 1
		}
		var flags byte
		if row.Expanded {
			flags = flagOpen
		}
		le.PutUint32(rec[0:], uint32(parent))
		le.PutUint32(rec[4:], uint32(e.end[r]))
		le.PutUint32(rec[8:], uint32(row.Key))
		le.PutUint32(rec[12:], uint32(row.Thread))
		le.PutUint32(rec[16:], labelOff)
		le.PutUint32(rec[20:], uint32(len(row.Label)))
		le.PutUint16(rec[24:], uint16(min(row.TIDLen, len(row.Label), math.MaxUint16)))
		le.PutUint16(rec[26:], depth[r])
		rec[28], rec[29] = byte(row.Kind), flags
		bw.write(rec[:])
		labelOff += uint32(len(row.Label))
	}
	for _, r := range e.collapsed {
		bw.write(le.AppendUint32(rec[:0], uint32(r)))
	}
	for _, t := range e.threads {
		bw.write(le.AppendUint32(le.AppendUint32(rec[:0], uint32(t.key)), uint32(t.row)))
	}
	var label []byte
	for _, i := range e.order {
		label = append(label[:0], e.rows[i].Label...)
		bw.write(label)
	}
	bw.closeBlock()
	for _, c := range bw.crcs {
		bw.w.Write(le.AppendUint32(rec[:0], c))
	}
	if err := bw.w.Flush(); err != nil {
		return 0, fmt.Errorf("writing the process tree: %w", err)
	}
	return e.Size(), nil
}

// blockWriter writes the body, keeping the CRC of each 4 KiB block.
type blockWriter struct {
	w    *bufio.Writer // its first error is returned by Flush
	crc  uint32
	n    int // bytes of the current block
	crcs []uint32
}

func (b *blockWriter) write(p []byte) {
	for len(p) > 0 {
		k := min(len(p), blockLen-b.n)
		b.crc = core.UpdateCRC32C(b.crc, p[:k])
		b.w.Write(p[:k])
		b.n += k
		p = p[k:]
		if b.n == blockLen {
			b.closeBlock()
		}
	}
}

// closeBlock ends the current block (none when it is empty).
func (b *blockWriter) closeBlock() {
	if b.n > 0 {
		b.crcs = append(b.crcs, b.crc)
	}
	b.crc, b.n = 0, 0
}

// rowID is the number a row's id reads as, when it is one.
type rowID struct {
	n   int64
	num bool
}

func numericID(s string) rowID {
	n, err := strconv.ParseInt(s, 10, 64)
	return rowID{n: n, num: err == nil}
}

// idText is the id a row sorts by: its tid, or the last word of its
// label.
func idText(r *Row) string {
	s := r.Label
	if r.TIDLen > 0 && r.TIDLen <= len(s) {
		return s[len(s)-r.TIDLen:]
	}
	return s[strings.LastIndexByte(s, ' ')+1:]
}

// compareIDs orders numeric ids numerically, before other ids in string
// order (ids a and b of rows x and y).
func compareIDs(a, b rowID, x, y *Row) int {
	switch {
	case a.num && b.num:
		return cmp.Compare(a.n, b.n)
	case a.num:
		return -1
	case b.num:
		return 1
	}
	return cmp.Compare(idText(x), idText(y))
}
