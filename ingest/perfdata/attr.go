package perfdata

import (
	"encoding/binary"
	"math/bits"
)

// perf_event_attr.type values.
const (
	typeHardware   = 0
	typeSoftware   = 1
	typeTracepoint = 2
)

// sample_type bits (the SAMPLE layout, in the order the fields appear, is
// in sample.go).
const (
	sampleIP           = 1 << 0
	sampleTID          = 1 << 1
	sampleTime         = 1 << 2
	sampleAddr         = 1 << 3
	sampleRead         = 1 << 4
	sampleCallchain    = 1 << 5
	sampleID           = 1 << 6
	sampleCPU          = 1 << 7
	samplePeriod       = 1 << 8
	sampleStreamID     = 1 << 9
	sampleRaw          = 1 << 10
	sampleBranchStack  = 1 << 11
	sampleRegsUser     = 1 << 12
	sampleStackUser    = 1 << 13
	sampleWeight       = 1 << 14
	sampleDataSrc      = 1 << 15
	sampleIdentifier   = 1 << 16
	sampleTransaction  = 1 << 17
	sampleRegsIntr     = 1 << 18
	samplePhysAddr     = 1 << 19
	sampleAux          = 1 << 20
	sampleCgroup       = 1 << 21
	sampleDataPageSize = 1 << 22
	sampleCodePageSize = 1 << 23
	sampleWeightStruct = 1 << 24
)

// read_format bits.
const (
	readTotalTimeEnabled = 1 << 0
	readTotalTimeRunning = 1 << 1
	readID               = 1 << 2
	readGroup            = 1 << 3
	readLost             = 1 << 4
)

// perf_event_attr flag bits (the u64 at offset 40).
const (
	flagSampleIDAll = 1 << 18
	flagUseClockID  = 1 << 25
)

// branch_sample_type bits that change the branch stack's layout.
const (
	branchHWIndex  = 1 << 17
	branchCounters = 1 << 19
)

// Limits on what untrusted counts may allocate or loop over.
const (
	maxAttrs      = 1 << 16
	maxIDs        = 1 << 20
	maxAttrSize   = 4096
	minAttrSize   = 64 // PERF_ATTR_SIZE_VER0
	maxCallchain  = 1 << 12
	maxReadGroup  = 1 << 12
	maxFeatures   = 256
	maxStringList = 1 << 16
)

// attr is one recorded event: its perf_event_attr fields that decoding
// needs, its kernel-assigned IDs and its name.
type attr struct {
	typ              uint32
	size             uint32
	config           uint64
	period           uint64
	sampleType       uint64
	readFormat       uint64
	flags            uint64
	branchSampleType uint64
	regsUser         uint64
	regsIntr         uint64
	clockID          int32
	ids              []uint64
	name             string
	index            int  // in the file's attr list
	sampled          bool // the first pass met a sample of it (scanned.used)
}

func (a *attr) sampleIDAll() bool { return a.flags&flagSampleIDAll != 0 }

// parseAttr reads a perf_event_attr of the given size (0 means the
// original 64-byte layout; fields past size are zero; bytes past what this
// reader knows are ignored).
func parseAttr(b []byte, order binary.ByteOrder) (attr, bool) {
	var a attr
	if len(b) < minAttrSize {
		return a, false
	}
	// Fields past the attr's own size are zero: copy into a buffer of
	// the largest layout known.
	size := int(order.Uint32(b[4:]))
	if size == 0 {
		size = minAttrSize
	}
	if size < minAttrSize || size > len(b) {
		return a, false
	}
	var full [136]byte
	copy(full[:], b[:size])
	a.typ = order.Uint32(full[0:])
	a.size = uint32(size)
	a.config = order.Uint64(full[8:])
	a.period = order.Uint64(full[16:])
	a.sampleType = order.Uint64(full[24:])
	a.readFormat = order.Uint64(full[32:])
	if order == binary.BigEndian {
		// A big-endian machine lays bitfields out from the word's most
		// significant bit: disabled is bit 63 there, bit 0 here.
		a.flags = bits.Reverse64(order.Uint64(full[40:]))
	} else {
		a.flags = order.Uint64(full[40:])
	}
	a.branchSampleType = order.Uint64(full[72:])
	a.regsUser = order.Uint64(full[80:])
	a.clockID = int32(order.Uint32(full[92:]))
	a.regsIntr = order.Uint64(full[96:])
	return a, true
}

// idPositions are where records carry the ID that says which attr they
// belong to; every attr of a file must agree (perf refuses files whose
// attrs do not).
type idPositions struct {
	sample  int // byte offset in a SAMPLE body, -1: none
	trailer int // bytes from the end of a non-sample record, -1: none
}

// sampleIDPos returns where a's samples keep their ID.
func sampleIDPos(st uint64) int {
	if st&sampleIdentifier != 0 {
		return 0
	}
	if st&sampleID == 0 {
		return -1
	}
	n := 0
	for _, b := range []uint64{sampleIP, sampleTID, sampleTime, sampleAddr} {
		if st&b != 0 {
			n += 8
		}
	}
	return n
}

// trailerIDPos returns where a's non-sample records keep their ID, counted
// back from the record's end.
func trailerIDPos(st uint64) int {
	if st&sampleIdentifier != 0 {
		return 8
	}
	if st&sampleID == 0 {
		return -1
	}
	n := 8
	if st&sampleStreamID != 0 {
		n += 8
	}
	if st&sampleCPU != 0 {
		n += 8
	}
	return n
}

// trailerSize is the length of the sample_id trailer of a's non-sample
// records.
func trailerSize(a *attr) int {
	if !a.sampleIDAll() {
		return 0
	}
	n := 0
	for _, b := range []uint64{sampleTID, sampleTime, sampleID, sampleStreamID, sampleCPU, sampleIdentifier} {
		if a.sampleType&b != 0 {
			n += 8
		}
	}
	return n
}
