package history

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/tracetui/tracetui/core"
)

// On-disk constants; the layout they describe is in the package doc.
const (
	// FormatVersion is the version of the file format this package reads
	// and writes. Any change to the bytes on disk increments it.
	FormatVersion = 5

	fileHeaderSize = 160
	headerCRCOff   = fileHeaderSize - 4
	nodeHeaderSize = 52
	nodeCRCOff     = 48
	childEntrySize = 32
	noParent       = math.MaxUint32

	// noClassLo and noClassHi are the class range of a sub-tree without
	// any interval (as [0, -1] is its key range).
	noClassLo = math.MaxUint16
	noClassHi = 0

	nodeLeaf = 1
	nodeCore = 2

	// Node flags.
	flagSortedByKey = 1 << 0 // records sorted by (key, start)
	flagKeySplit    = 1 << 1 // children ordered by key range (R-tree nodes)
	knownNodeFlags  = flagSortedByKey | flagKeySplit

	// Record tag bits.
	tagKindMask  = 0x07
	tagKeyDelta  = 0x08
	tagContig    = 0x10
	tagInlineSft = 5
	maxInline    = 6 // int32 values 0..6 are stored in the tag

	// maxRecordSize bounds one encoded record: tag, key delta, end delta,
	// duration, and the largest payload (a string).
	maxRecordSize = 1 + binary.MaxVarintLen32 + 2*binary.MaxVarintLen64 + 2 + core.MaxStringLen
)

// magic opens every index file. The high byte and the CR-LF/EOF bytes catch
// text-mode transfers, as in PNG.
var magic = [8]byte{0x89, 'R', 'S', 'H', 'T', '\r', '\n', 0x1a}

// fileHeader is the decoded first bytes of the file (see the package doc).
type fileHeader struct {
	version      uint32
	layout       Layout
	maxChildren  int
	blockSize    int
	rootSeq      uint32
	nodeCount    uint32
	depth        uint32
	maxRHeight   uint32
	intervals    uint64
	start, end   core.Time
	attrCount    uint32
	attrOff      uint64
	attrLen      uint64
	attrCRC      uint32
	sectionCount uint32
	sectTabOff   uint64
	sectTabLen   uint64
	sectTabCRC   uint32
	fileSize     uint64
	classOff     uint64 // class table: 2 bytes per attribute
	classCRC     uint32
	classCount   uint32
}

// classLen returns the length of the class table.
func (h *fileHeader) classLen() uint64 { return 2 * uint64(h.attrCount) }

var le = binary.LittleEndian

func (h *fileHeader) encode() []byte {
	b := make([]byte, fileHeaderSize)
	copy(b[0:8], magic[:])
	le.PutUint32(b[8:], h.version)
	b[12] = byte(h.layout) + 1
	b[13] = 0
	le.PutUint16(b[14:], uint16(h.maxChildren))
	le.PutUint32(b[16:], uint32(h.blockSize))
	le.PutUint32(b[20:], h.rootSeq)
	le.PutUint32(b[24:], h.nodeCount)
	le.PutUint32(b[28:], h.depth)
	le.PutUint64(b[32:], h.intervals)
	le.PutUint64(b[40:], uint64(h.start))
	le.PutUint64(b[48:], uint64(h.end))
	le.PutUint32(b[56:], h.attrCount)
	le.PutUint32(b[60:], h.maxRHeight)
	le.PutUint64(b[64:], h.attrOff)
	le.PutUint64(b[72:], h.attrLen)
	le.PutUint32(b[80:], h.attrCRC)
	le.PutUint32(b[84:], h.sectionCount)
	le.PutUint64(b[88:], h.sectTabOff)
	le.PutUint64(b[96:], h.sectTabLen)
	le.PutUint32(b[104:], h.sectTabCRC)
	le.PutUint64(b[108:], h.fileSize)
	le.PutUint64(b[116:], h.classOff)
	le.PutUint32(b[124:], h.classCRC)
	le.PutUint32(b[128:], h.classCount)
	// 132..156 reserved, zero.
	le.PutUint32(b[headerCRCOff:], core.CRC32C(b[:headerCRCOff]))
	return b
}

// decodeFileHeader checks, in this order, the magic (ErrNotIndex), the
// version (ErrVersion), the checksum and the fields (ErrCorrupt). Sizes
// against the file are checked by Open.
func decodeFileHeader(b []byte) (*fileHeader, error) {
	if len(b) < fileHeaderSize {
		return nil, fmt.Errorf("%w: header of %d bytes", ErrTruncated, len(b))
	}
	if [8]byte(b[0:8]) != magic {
		return nil, fmt.Errorf("%w: bad magic %q", ErrNotIndex, b[0:8])
	}
	h := &fileHeader{version: le.Uint32(b[8:])}
	if h.version != FormatVersion {
		age := "newer"
		if h.version < FormatVersion {
			age = "older"
		}
		return nil, fmt.Errorf("%w: file has format version %d (%s), this build reads version %d", ErrVersion, h.version, age, FormatVersion)
	}
	if got, want := core.CRC32C(b[:headerCRCOff]), le.Uint32(b[headerCRCOff:]); got != want {
		return nil, fmt.Errorf("%w: header checksum %08x, want %08x", ErrCorrupt, got, want)
	}
	if b[12] < 1 || b[12] > 3 || b[13] != 0 || slices.ContainsFunc(b[132:headerCRCOff], func(x byte) bool { return x != 0 }) {
		return nil, fmt.Errorf("%w: header layout byte %d, flags %d, or reserved bytes not zero", ErrCorrupt, b[12], b[13])
	}
	h.layout = Layout(b[12] - 1)
	h.maxChildren = int(le.Uint16(b[14:]))
	h.blockSize = int(le.Uint32(b[16:]))
	h.rootSeq = le.Uint32(b[20:])
	h.nodeCount = le.Uint32(b[24:])
	h.depth = le.Uint32(b[28:])
	h.intervals = le.Uint64(b[32:])
	h.start = core.Time(le.Uint64(b[40:]))
	h.end = core.Time(le.Uint64(b[48:]))
	h.attrCount = le.Uint32(b[56:])
	h.maxRHeight = le.Uint32(b[60:])
	h.attrOff = le.Uint64(b[64:])
	h.attrLen = le.Uint64(b[72:])
	h.attrCRC = le.Uint32(b[80:])
	h.sectionCount = le.Uint32(b[84:])
	h.sectTabOff = le.Uint64(b[88:])
	h.sectTabLen = le.Uint64(b[96:])
	h.sectTabCRC = le.Uint32(b[104:])
	h.fileSize = le.Uint64(b[108:])
	h.classOff = le.Uint64(b[116:])
	h.classCRC = le.Uint32(b[124:])
	h.classCount = le.Uint32(b[128:])
	o := Options{Layout: h.layout, BlockSize: h.blockSize, MaxChildren: h.maxChildren, MaxRHeight: 1}
	if _, err := o.resolved(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	switch {
	case h.nodeCount == 0 || h.rootSeq >= h.nodeCount:
		return nil, fmt.Errorf("%w: root %d of %d nodes", ErrCorrupt, h.rootSeq, h.nodeCount)
	case h.depth == 0 || h.depth > h.nodeCount:
		return nil, fmt.Errorf("%w: depth %d for %d nodes", ErrCorrupt, h.depth, h.nodeCount)
	case h.end < h.start:
		return nil, fmt.Errorf("%w: trace ends (%d) before it starts (%d)", ErrCorrupt, h.end, h.start)
	case h.classCount > maxClasses || h.classCount > h.attrCount || h.classCount == 0 && h.attrCount > 0:
		return nil, fmt.Errorf("%w: %d attribute classes for %d attributes", ErrCorrupt, h.classCount, h.attrCount)
	}
	nodesEnd := (uint64(h.nodeCount) + 1) * uint64(h.blockSize)
	if nodesEnd/uint64(h.blockSize) != uint64(h.nodeCount)+1 {
		return nil, fmt.Errorf("%w: node count %d overflows", ErrCorrupt, h.nodeCount)
	}
	for _, r := range []struct {
		name     string
		off, len uint64
	}{{"attribute tree", h.attrOff, h.attrLen}, {"section table", h.sectTabOff, h.sectTabLen}, {"class table", h.classOff, h.classLen()}} {
		if r.off < nodesEnd || r.off > h.fileSize || r.len > h.fileSize-r.off {
			return nil, fmt.Errorf("%w: %s at [%d, +%d) outside the tail [%d, %d)", ErrCorrupt, r.name, r.off, r.len, nodesEnd, h.fileSize)
		}
	}
	return h, nil
}

// nodeOffset returns the file offset of node seq.
func nodeOffset(seq uint32, blockSize int) int64 { return (int64(seq) + 1) * int64(blockSize) }

// nodeHeader is the fixed part of a node block.
type nodeHeader struct {
	typ        uint8
	flags      uint8
	childCount int
	seq        uint32
	parent     uint32
	count      int // intervals in this node
	start, end core.Time
	minKey     core.Key
	maxKey     core.Key
	minClass   uint16
	maxClass   uint16
	dataLen    int // bytes of records
}

// hollow reports whether the node's sub-tree holds no interval: its key
// range is then the empty range [0, -1] and its time range may be empty
// (end = start-1), as for the classic SHT's branch opened after the last
// interval.
func (h *nodeHeader) hollow() bool { return h.minKey > h.maxKey }

// child is one entry of a core node: the child's sequence number and the
// bounds of its whole sub-tree (an MBR over time, keys and key classes).
type child struct {
	seq        uint32
	start, end core.Time
	minKey     core.Key
	maxKey     core.Key
	minClass   uint16
	maxClass   uint16
}

// entry returns the entry a parent holds for the node with header h.
func (h *nodeHeader) entry() child {
	return child{seq: h.seq, start: h.start, end: h.end, minKey: h.minKey, maxKey: h.maxKey, minClass: h.minClass, maxClass: h.maxClass}
}

// matches reports whether the node's own header agrees with its parent's
// entry for it.
func (h *nodeHeader) matches(c child) bool { return h.entry() == c }

func (h *nodeHeader) put(b []byte) {
	b[0] = h.typ
	b[1] = h.flags
	le.PutUint16(b[2:], uint16(h.childCount))
	le.PutUint32(b[4:], h.seq)
	le.PutUint32(b[8:], h.parent)
	le.PutUint32(b[12:], uint32(h.count))
	le.PutUint64(b[16:], uint64(h.start))
	le.PutUint64(b[24:], uint64(h.end))
	le.PutUint32(b[32:], uint32(h.minKey))
	le.PutUint32(b[36:], uint32(h.maxKey))
	le.PutUint16(b[40:], h.minClass)
	le.PutUint16(b[42:], h.maxClass)
	le.PutUint32(b[44:], uint32(h.dataLen))
}

func putChild(b []byte, c child) {
	le.PutUint32(b[0:], c.seq)
	le.PutUint64(b[4:], uint64(c.start))
	le.PutUint64(b[12:], uint64(c.end))
	le.PutUint32(b[20:], uint32(c.minKey))
	le.PutUint32(b[24:], uint32(c.maxKey))
	le.PutUint16(b[28:], c.minClass)
	le.PutUint16(b[30:], c.maxClass)
}

func getChild(b []byte) child {
	return child{
		seq:      le.Uint32(b[0:]),
		start:    core.Time(le.Uint64(b[4:])),
		end:      core.Time(le.Uint64(b[12:])),
		minKey:   core.Key(le.Uint32(b[20:])),
		maxKey:   core.Key(le.Uint32(b[24:])),
		minClass: le.Uint16(b[28:]),
		maxClass: le.Uint16(b[30:]),
	}
}

// sealBlock writes the block checksum (bytes 48..52 hold the CRC32C of the
// rest of the block).
func sealBlock(b []byte) { le.PutUint32(b[nodeCRCOff:], blockCRC(b)) }

func blockCRC(b []byte) uint32 {
	c := core.UpdateCRC32C(0, b[:nodeCRCOff])
	return core.UpdateCRC32C(c, b[nodeCRCOff+4:])
}

// decodeNodeHeader checks a block's checksum and fixed fields.
func decodeNodeHeader(b []byte, maxChildren int) (nodeHeader, error) {
	var h nodeHeader
	if len(b) < nodeHeaderSize {
		return h, fmt.Errorf("%w: node block of %d bytes", ErrCorrupt, len(b))
	}
	if got, want := blockCRC(b), le.Uint32(b[nodeCRCOff:]); got != want {
		return h, fmt.Errorf("%w: node checksum %08x, want %08x", ErrCorrupt, got, want)
	}
	return parseNodeHeader(b, maxChildren)
}

// parseNodeHeader reads the fixed fields without the checksum (the fuzz
// target calls it directly so that it reaches the record decoder).
func parseNodeHeader(b []byte, maxChildren int) (nodeHeader, error) {
	h := nodeHeader{
		typ:        b[0],
		flags:      b[1],
		childCount: int(le.Uint16(b[2:])),
		seq:        le.Uint32(b[4:]),
		parent:     le.Uint32(b[8:]),
		count:      int(le.Uint32(b[12:])),
		start:      core.Time(le.Uint64(b[16:])),
		end:        core.Time(le.Uint64(b[24:])),
		minKey:     core.Key(le.Uint32(b[32:])),
		maxKey:     core.Key(le.Uint32(b[36:])),
		minClass:   le.Uint16(b[40:]),
		maxClass:   le.Uint16(b[42:]),
		dataLen:    int(le.Uint32(b[44:])),
	}
	switch {
	case h.typ != nodeLeaf && h.typ != nodeCore:
		return h, fmt.Errorf("%w: node %d has type %d", ErrCorrupt, h.seq, h.typ)
	case h.flags&^knownNodeFlags != 0:
		return h, fmt.Errorf("%w: node %d has flags %#x", ErrCorrupt, h.seq, h.flags)
	case h.typ == nodeLeaf && h.childCount != 0, h.childCount > maxChildren:
		return h, fmt.Errorf("%w: node %d (type %d) has %d children", ErrCorrupt, h.seq, h.typ, h.childCount)
	case nodeHeaderSize+h.childCount*childEntrySize+h.dataLen > len(b) || h.dataLen < 0:
		return h, fmt.Errorf("%w: node %d: %d children and %d record bytes overflow the block", ErrCorrupt, h.seq, h.childCount, h.dataLen)
	case h.count > h.dataLen:
		return h, fmt.Errorf("%w: node %d: %d intervals in %d bytes", ErrCorrupt, h.seq, h.count, h.dataLen)
	}
	if h.hollow() {
		if h.count != 0 || h.end < h.start && h.end != h.start-1 || h.minKey != 0 || h.maxKey != -1 || h.minClass != noClassLo || h.maxClass != noClassHi {
			return h, fmt.Errorf("%w: node %d without intervals has %d records, range [%d, %d] keys [%d, %d] classes [%d, %d]",
				ErrCorrupt, h.seq, h.count, h.start, h.end, h.minKey, h.maxKey, h.minClass, h.maxClass)
		}
	} else if h.end < h.start || h.minKey < 0 || h.minClass > h.maxClass {
		return h, fmt.Errorf("%w: node %d has range [%d, %d] keys [%d, %d] classes [%d, %d]", ErrCorrupt, h.seq, h.start, h.end, h.minKey, h.maxKey, h.minClass, h.maxClass)
	}
	return h, nil
}

// Record encoding helpers. A record is encoded relative to the previous
// record of its node (see the package doc); recordSize and appendRecord
// agree byte for byte.

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

func uvarintLen(u uint64) int { return (bits.Len64(u|1) + 6) / 7 }

// rec is an interval as the builder holds it: the value split into kind
// and number bits; a string's bytes live in a separate byte slice (the
// "strs" of the functions below) and num holds their offset<<32 | length.
// Without a pointer, the R-buffer's arrays of recs cost the garbage
// collector nothing.
type rec struct {
	start, end int64
	num        uint64 // int32/int64 two's complement, float64 bits, string offset<<32|length
	key        int32
	class      uint16 // the key's class (see classes.go)
	kind       core.Kind
}

// recFromValue makes a rec, appending a string value's bytes to *strs.
func recFromValue(key core.Key, class uint16, start, end core.Time, v core.Value, strs *[]byte) rec {
	r := rec{key: int32(key), class: class, start: int64(start), end: int64(end), kind: v.Kind()}
	switch r.kind {
	case core.KindInt32, core.KindInt64:
		r.num = uint64(v.Int())
	case core.KindFloat64:
		r.num = math.Float64bits(v.Float())
	case core.KindString:
		s := v.Str()
		r.num = uint64(len(*strs))<<32 | uint64(len(s))
		*strs = append(*strs, s...)
	}
	return r
}

// str returns the bytes of a string rec.
func (r *rec) str(strs []byte) []byte {
	off, l := r.num>>32, r.num&0xFFFFFFFF
	return strs[off : off+l]
}

// encState is the context of the next record of a node.
type encState struct {
	prevKey int32
	prevEnd int64
	n       int // records so far
}

func newEncState(nodeStart int64) encState { return encState{prevEnd: nodeStart} }

func (s *encState) contiguous(r *rec) bool {
	return s.n > 0 && r.key == s.prevKey && r.start == s.prevEnd+1
}

func payloadSize(r *rec) int {
	switch r.kind {
	case core.KindInt32:
		if v := int32(r.num); v >= 0 && v <= maxInline {
			return 0
		}
		return uvarintLen(zigzag(int64(int32(r.num))))
	case core.KindInt64:
		return uvarintLen(zigzag(int64(r.num)))
	case core.KindFloat64:
		return 8
	case core.KindString:
		l := r.num & 0xFFFFFFFF
		return uvarintLen(l) + int(l)
	}
	return 0
}

// recordSize returns the encoded size of r after state s (s unchanged).
func (s *encState) recordSize(r *rec) int {
	n := 1 + uvarintLen(uint64(r.end-r.start)) + payloadSize(r)
	if r.key != s.prevKey || s.n == 0 {
		n += uvarintLen(zigzag(int64(r.key) - int64(s.prevKey)))
	}
	if !s.contiguous(r) {
		n += uvarintLen(zigzag(r.end - s.prevEnd))
	}
	return n
}

// advance moves s past r.
func (s *encState) advance(r *rec) {
	s.prevKey, s.prevEnd = r.key, r.end
	s.n++
}

// appendRecord encodes r (with its string in strs) after state s and
// advances s.
func (s *encState) appendRecord(b []byte, r *rec, strs []byte) []byte {
	tag := byte(r.kind)
	inline := false
	if r.kind == core.KindInt32 {
		if v := int32(r.num); v >= 0 && v <= maxInline {
			tag |= byte(v+1) << tagInlineSft
			inline = true
		}
	}
	newKey := r.key != s.prevKey || s.n == 0
	contig := s.contiguous(r)
	if newKey {
		tag |= tagKeyDelta
	}
	if contig {
		tag |= tagContig
	}
	b = append(b, tag)
	if newKey {
		b = binary.AppendUvarint(b, zigzag(int64(r.key)-int64(s.prevKey)))
	}
	if !contig {
		b = binary.AppendUvarint(b, zigzag(r.end-s.prevEnd))
	}
	b = binary.AppendUvarint(b, uint64(r.end-r.start))
	if !inline {
		switch r.kind {
		case core.KindInt32:
			b = binary.AppendUvarint(b, zigzag(int64(int32(r.num))))
		case core.KindInt64:
			b = binary.AppendUvarint(b, zigzag(int64(r.num)))
		case core.KindFloat64:
			b = le.AppendUint64(b, r.num)
		case core.KindString:
			str := r.str(strs)
			b = binary.AppendUvarint(b, uint64(len(str)))
			b = append(b, str...)
		}
	}
	s.advance(r)
	return b
}
