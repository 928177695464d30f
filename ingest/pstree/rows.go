package pstree

import (
	"cmp"
	"encoding/binary"
	"hash/crc32"
	"math"
	"slices"
	"strconv"
	"strings"
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
	rowsMagic  = "PST2"
	headerLen  = 32
	recordLen  = 32
	blockLen   = 4096
	flagOpen   = 1
	keyRowLen  = 8
	maxRecords = math.MaxInt32 / recordLen
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// EncodeRows sorts the siblings of rows (linked by their Parent fields)
// and returns them in the encoded format, depth-first. attrs is the
// attribute count of the tree the rows come from (see [Rows.Attributes]).
func EncodeRows(rows []Row, attrs int) []byte {
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
	// Depth-first: newRow[old] and the rows in their new order.
	order := make([]int32, 0, n)
	newRow := make([]int32, n)
	stack := slices.Clone(kids[start[0]:start[1]])
	slices.Reverse(stack)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		newRow[i] = int32(len(order))
		order = append(order, i)
		for j := start[i+2] - 1; j >= start[i+1]; j-- {
			stack = append(stack, kids[j])
		}
	}
	end := make([]int32, n) // by new row
	for r := n - 1; r >= 0; r-- {
		end[r] = max(end[r], int32(r+1))
		if p := rows[order[r]].Parent; p >= 0 {
			end[newRow[p]] = max(end[newRow[p]], end[r])
		}
	}
	return writeRows(rows, order, newRow, end, attrs)
}

// writeRows writes the records of rows in order, with the collapsed list,
// the key index, the heap and the CRC table.
func writeRows(rows []Row, order, newRow, end []int32, attrs int) []byte {
	var collapsed []int32
	type keyRow struct{ key, row int32 }
	var threads []keyRow
	heap := 0
	for r, i := range order {
		row := &rows[i]
		heap += len(row.Label)
		if !row.Expanded && end[r] > int32(r+1) {
			collapsed = append(collapsed, int32(r))
		}
		if row.TIDLen > 0 && row.Key >= 0 {
			threads = append(threads, keyRow{row.Key, int32(r)})
		}
	}
	slices.SortFunc(threads, func(a, b keyRow) int { return cmp.Compare(a.key, b.key) })
	bodyLen := len(order)*recordLen + 4*len(collapsed) + keyRowLen*len(threads) + heap
	out := make([]byte, headerLen, headerLen+bodyLen+4*(bodyLen/blockLen+1))
	body := out[headerLen:]
	le := binary.LittleEndian
	depth := make([]uint16, len(order))
	labelOff := uint32(0)
	for r, i := range order {
		row := &rows[i]
		parent := int32(-1)
		if row.Parent >= 0 {
			parent = newRow[row.Parent]
			depth[r] = depth[parent] + 1
		}
		var flags byte
		if row.Expanded {
			flags = flagOpen
		}
		body = le.AppendUint32(body, uint32(parent))
		body = le.AppendUint32(body, uint32(end[r]))
		body = le.AppendUint32(body, uint32(row.Key))
		body = le.AppendUint32(body, uint32(row.Thread))
		body = le.AppendUint32(body, labelOff)
		body = le.AppendUint32(body, uint32(len(row.Label)))
		body = le.AppendUint16(body, uint16(min(row.TIDLen, len(row.Label), math.MaxUint16)))
		body = le.AppendUint16(body, depth[r])
		body = append(body, byte(row.Kind), flags, 0, 0)
		labelOff += uint32(len(row.Label))
	}
	for _, r := range collapsed {
		body = le.AppendUint32(body, uint32(r))
	}
	for _, t := range threads {
		body = le.AppendUint32(body, uint32(t.key))
		body = le.AppendUint32(body, uint32(t.row))
	}
	for _, i := range order {
		body = append(body, rows[i].Label...)
	}
	h := append(out[:0], rowsMagic...)
	for _, v := range []int{len(order), len(collapsed), len(threads), heap, attrs, 0} {
		h = le.AppendUint32(h, uint32(v))
	}
	le.PutUint32(out[28:], crc32.Checksum(h, castagnoli))
	out = out[:headerLen+len(body)]
	for b := 0; b < len(body); b += blockLen {
		out = le.AppendUint32(out, crc32.Checksum(body[b:min(b+blockLen, len(body))], castagnoli))
	}
	return out
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
