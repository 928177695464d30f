package history

import (
	"fmt"
	"math"
	"math/bits"
	"strings"
	"unsafe"

	"github.com/tracetui/tracetui/core"
)

// node is a decoded node block, as queries and the cache hold it. Records
// are decoded into parallel arrays; string values point into raw, which the
// node owns and never changes. A node without string values keeps no
// block: its 4 KiB would be a fresh page for every node the cache keeps,
// and a fresh page costs more than decoding a node (see scan.go).
type node struct {
	nodeHeader
	children []child
	keys     []int32
	starts   []int64
	ends     []int64
	kinds    []core.Kind
	nums     []uint64 // int/float bits; for strings offset<<32 | length in raw
	raw      []byte   // what the strings point into (the block, or a copy of the strings: own); nil without strings
	strings  bool     // some value is a string (in raw)
	borrowed bool     // raw is a walk's buffer, reused: hand out copies of the strings
}

// memSize estimates the memory the node holds, for the cache budget.
func (n *node) memSize() int64 {
	return int64(200 + len(n.raw) + len(n.children)*40 + len(n.keys)*(4+8+8+1+8))
}

// value returns the value of record i.
func (n *node) value(i int) core.Value {
	switch n.kinds[i] {
	case core.KindInt32:
		return core.Int32(int32(n.nums[i]))
	case core.KindInt64:
		return core.Int64(int64(n.nums[i]))
	case core.KindFloat64:
		return core.Float64(math.Float64frombits(n.nums[i]))
	case core.KindString:
		off, l := n.nums[i]>>32, n.nums[i]&0xFFFFFFFF
		if l == 0 {
			return core.String("")
		}
		s := unsafe.String(&n.raw[off], int(l))
		if n.borrowed {
			s = strings.Clone(s)
		}
		return core.String(s)
	}
	return core.Null()
}

// own copies the node's strings out of the block it was decoded from
// into one buffer of their total length, so that the node can outlive the
// block (which a walk reuses) without keeping 4 KiB for a few names.
func (n *node) own() {
	size := 0
	for i, k := range n.kinds {
		if k == core.KindString {
			size += int(n.nums[i] & 0xFFFFFFFF)
		}
	}
	raw := make([]byte, 0, size)
	for i, k := range n.kinds {
		if k == core.KindString {
			off, l := n.nums[i]>>32, n.nums[i]&0xFFFFFFFF
			n.nums[i] = uint64(len(raw))<<32 | l
			raw = append(raw, n.raw[off:off+l]...)
		}
	}
	n.raw, n.borrowed = raw, false
}

// interval returns record i as an interval.
func (n *node) interval(i int) core.Interval {
	return core.Interval{Key: core.Key(n.keys[i]), Start: core.Time(n.starts[i]), End: core.Time(n.ends[i]), Value: n.value(i)}
}

// decodeNode decodes a whole block (checksum included). The block becomes
// owned by the node if it has string values.
func decodeNode(b []byte, maxChildren int) (*node, error) {
	h, err := decodeNodeHeader(b, maxChildren)
	if err != nil {
		return nil, err
	}
	return decodeNodeBody(b, h)
}

// decodeNodeBody decodes the child entries and records of a block whose
// header is h, checking every value against the node's bounds: a record
// outside them, a bad tag, a length past the end, or a count that does not
// match is an ErrCorrupt, never a panic.
func decodeNodeBody(b []byte, h nodeHeader) (*node, error) {
	n := new(node)
	if err := n.decode(b, h); err != nil {
		return nil, err
	}
	return n, nil
}

// decode decodes into n, reusing its arrays when they are large enough (a
// query decodes the leaves of a large scan into one node, see scan.go).
// n.raw is b if some value is a string, else nil: a caller that reuses b
// must give n a copy of it when n.strings is set.
func (n *node) decode(b []byte, h nodeHeader) error {
	*n = node{nodeHeader: h, children: n.children[:0], keys: n.keys[:0], starts: n.starts[:0], ends: n.ends[:0], kinds: n.kinds[:0], nums: n.nums[:0]}
	if h.childCount > 0 {
		if cap(n.children) < h.childCount {
			n.children = make([]child, h.childCount)
		}
		n.children = n.children[:h.childCount]
		for i := range n.children {
			c := getChild(b[nodeHeaderSize+i*childEntrySize:])
			if i > 0 && c.seq <= n.children[i-1].seq {
				return fmt.Errorf("%w: node %d: child seqs not increasing (%d after %d)", ErrCorrupt, h.seq, c.seq, n.children[i-1].seq)
			}
			if c.end < c.start && c.end != c.start-1 || c.start < h.start || c.end > h.end {
				return fmt.Errorf("%w: node %d: child %d range [%d, %d] outside [%d, %d]", ErrCorrupt, h.seq, c.seq, c.start, c.end, h.start, h.end)
			}
			if c.minKey > c.maxKey && (c.minKey != 0 || c.maxKey != -1 || c.minClass != noClassLo || c.maxClass != noClassHi) ||
				c.minKey <= c.maxKey && (c.minKey < h.minKey || c.maxKey > h.maxKey || c.minClass > c.maxClass || c.minClass < h.minClass || c.maxClass > h.maxClass) {
				return fmt.Errorf("%w: node %d: child %d keys [%d, %d] classes [%d, %d] outside [%d, %d] [%d, %d]",
					ErrCorrupt, h.seq, c.seq, c.minKey, c.maxKey, c.minClass, c.maxClass, h.minKey, h.maxKey, h.minClass, h.maxClass)
			}
			n.children[i] = c
		}
	}
	if h.count == 0 {
		if h.dataLen != 0 {
			return fmt.Errorf("%w: node %d: %d record bytes for no interval", ErrCorrupt, h.seq, h.dataLen)
		}
		return nil
	}
	c := h.count
	keys, starts, ends, kinds, nums := n.keys[:0], n.starts[:0], n.ends[:0], n.kinds[:0], n.nums[:0]
	if cap(keys) < c || cap(starts) < c || cap(ends) < c || cap(kinds) < c || cap(nums) < c {
		if cap(keys) > 0 {
			// A scratch node outgrown: leave room for the next leaves,
			// so that it stops growing (fresh memory, see scan.go).
			c = max(c, 2*cap(keys))
		}
		times := make([]int64, 2*c)
		starts, ends = times[:0:c], times[c:c]
		nums = make([]uint64, 0, c)
		keys = make([]int32, 0, c)
		kinds = make([]core.Kind, 0, c)
	}
	c = h.count
	keys, starts, ends, kinds, nums = keys[:c], starts[:c], ends[:c], kinds[:c], nums[:c]
	pos := nodeHeaderSize + h.childCount*childEntrySize
	data := b[:pos+h.dataLen]
	prevKey, prevEnd, prevStart := int64(0), int64(h.start), int64(0)
	minKey, maxKey, lo, hi := int64(h.minKey), int64(h.maxKey), int64(h.start), int64(h.end)
	sorted := h.flags&flagSortedByKey != 0
	bad := func(i int, what string) error {
		return fmt.Errorf("%w: node %d record %d: %s", ErrCorrupt, h.seq, i, what)
	}
	var u uint64
	for i := range keys {
		if pos >= len(data) {
			return bad(i, "past the record bytes")
		}
		tag := data[pos]
		pos++
		kind := core.Kind(tag & tagKindMask)
		inline := tag >> tagInlineSft
		if kind > core.KindString || (inline != 0 && kind != core.KindInt32) {
			return bad(i, fmt.Sprintf("bad tag %#x", tag))
		}
		key := prevKey
		if tag&tagKeyDelta != 0 {
			if pos < len(data) && data[pos] < 0x80 { // one-byte varint, inline
				u, pos = uint64(data[pos]), pos+1
			} else if u, pos = uvarint(data, pos); pos < 0 {
				return bad(i, "bad key delta")
			}
			key += unzigzag(u)
		} else if i == 0 {
			return bad(i, "first record without a key")
		}
		var start, end int64
		if tag&tagContig != 0 {
			if i == 0 {
				return bad(i, "first record marked contiguous")
			}
			start = prevEnd + 1
			if pos < len(data) && data[pos] < 0x80 { // one-byte varint, inline
				u, pos = uint64(data[pos]), pos+1
			} else if u, pos = uvarint(data, pos); pos < 0 {
				return bad(i, "bad duration")
			}
			end = start + int64(u) // wraps like the encoder; bounds checked below
		} else {
			if pos < len(data) && data[pos] < 0x80 { // one-byte varint, inline
				u, pos = uint64(data[pos]), pos+1
			} else if u, pos = uvarint(data, pos); pos < 0 {
				return bad(i, "bad end")
			}
			end = prevEnd + unzigzag(u)
			if pos < len(data) && data[pos] < 0x80 { // one-byte varint, inline
				u, pos = uint64(data[pos]), pos+1
			} else if u, pos = uvarint(data, pos); pos < 0 {
				return bad(i, "bad duration")
			}
			start = end - int64(u)
		}
		if key < minKey || key > maxKey || start < lo || end > hi || end < start {
			return bad(i, fmt.Sprintf("key %d [%d, %d] outside the node's keys [%d, %d] and time [%d, %d]", key, start, end, h.minKey, h.maxKey, h.start, h.end))
		}
		if sorted && i > 0 && (key < prevKey || key == prevKey && start <= prevStart) {
			return bad(i, "records not sorted by key")
		}
		var num uint64
		switch {
		case inline != 0:
			num = uint64(inline - 1)
		case kind == core.KindNull:
		case kind == core.KindInt32:
			if pos < len(data) && data[pos] < 0x80 { // one-byte varint, inline
				u, pos = uint64(data[pos]), pos+1
			} else if u, pos = uvarint(data, pos); pos < 0 {
				return bad(i, "bad int32")
			}
			v := unzigzag(u)
			if v < math.MinInt32 || v > math.MaxInt32 {
				return bad(i, "bad int32")
			}
			num = uint64(v)
		case kind == core.KindInt64:
			if pos < len(data) && data[pos] < 0x80 { // one-byte varint, inline
				u, pos = uint64(data[pos]), pos+1
			} else if u, pos = uvarint(data, pos); pos < 0 {
				return bad(i, "bad int64")
			}
			num = uint64(unzigzag(u))
		case kind == core.KindFloat64:
			if len(data)-pos < 8 {
				return bad(i, "short float64")
			}
			num = le.Uint64(data[pos:])
			pos += 8
		default: // string
			n.strings, n.raw = true, b
			if u, pos = uvarint(data, pos); pos < 0 || u > core.MaxStringLen || u > uint64(len(data)-pos) {
				return bad(i, "bad string length")
			}
			num = uint64(pos)<<32 | u
			pos += int(u)
		}
		keys[i], starts[i], ends[i], kinds[i], nums[i] = int32(key), start, end, kind, num
		prevKey, prevEnd, prevStart = key, end, start
	}
	if pos != len(data) {
		return fmt.Errorf("%w: node %d: %d record bytes left after %d intervals", ErrCorrupt, h.seq, len(data)-pos, h.count)
	}
	n.keys, n.starts, n.ends, n.kinds, n.nums = keys, starts, ends, kinds, nums
	return nil
}

// uvarint decodes an unsigned varint at b[pos:], returning the value and
// the position after it, or pos < 0 if the bytes end or overflow 64 bits.
//
// Varints of up to 8 bytes are decoded without a branch on their length
// (which the data makes unpredictable): one 8-byte load, which may read
// past len(b) into the block's padding but not past cap(b), the
// terminating byte found with TrailingZeros, and the 7-bit groups packed
// with three mask-and-shift steps. The bytes past the terminator are
// masked off, so they never change the result.
func uvarint(b []byte, pos int) (uint64, int) {
	if pos >= 0 && pos+8 <= cap(b) {
		x := le.Uint64(b[pos : pos+8])
		if m := ^x & 0x8080808080808080; m != 0 {
			n := bits.TrailingZeros64(m)>>3 + 1
			if pos+n > len(b) {
				return 0, -1
			}
			x &= 1<<(8*n) - 1 // n = 8: 1<<64 is 0, the mask all ones
			x = x&0x007f007f007f007f | x&0x7f007f007f007f00>>1
			x = x&0x00003fff00003fff | x&0x3fff00003fff0000>>2
			x = x&0x000000000fffffff | x&0x0fffffff00000000>>4
			return x, pos + n
		}
	}
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if pos < 0 || pos >= len(b) {
			return 0, -1
		}
		c := b[pos]
		pos++
		if c < 0x80 {
			if shift == 63 && c > 1 {
				return 0, -1
			}
			return v | uint64(c)<<shift, pos
		}
		v |= uint64(c&0x7f) << shift
	}
	return 0, -1
}
