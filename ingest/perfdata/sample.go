package perfdata

import (
	"fmt"
	"math/bits"
)

// sample is a decoded SAMPLE record, or the sample_id trailer of another
// record (then only pid, tid, time, id, cpu and the has* flags are set).
type sample struct {
	attr          *attr
	ip            uint64
	pid, tid      int32
	time          uint64
	addr          uint64
	id            uint64
	cpu           uint32
	period        uint64
	callchain     []uint64 // reused between samples
	raw           []byte   // aliases the record
	hasTID        bool
	hasTime       bool
	hasCPU        bool
	hasCallchain  bool
	hasPeriod     bool
	hasIP         bool
	hasRaw        bool
	branchEntries int
}

// parseSample decodes a SAMPLE record's body (after the 8-byte header)
// with its attr's sample_type: the fields in the kernel's order, each
// only if its bit is set, every length checked against the bytes left.
// Bytes left over at the end are allowed.
func parseSample(a *attr, body []byte, c *cursor, s *sample) error {
	*c = cursor{b: body, order: c.order, what: "sample"}
	chain := s.callchain[:0]
	*s = sample{attr: a, callchain: chain}
	st := a.sampleType
	if st&sampleIdentifier != 0 {
		s.id = c.u64()
	}
	if st&sampleIP != 0 {
		s.ip, s.hasIP = c.u64(), true
	}
	if st&sampleTID != 0 {
		s.pid, s.tid, s.hasTID = int32(c.u32()), int32(c.u32()), true
	}
	if st&sampleTime != 0 {
		s.time, s.hasTime = c.u64(), true
	}
	if st&sampleAddr != 0 {
		s.addr = c.u64()
	}
	if st&sampleID != 0 {
		s.id = c.u64()
	}
	if st&sampleStreamID != 0 {
		c.u64()
	}
	if st&sampleCPU != 0 {
		s.cpu, s.hasCPU = c.u32(), true
		c.u32()
	}
	if st&samplePeriod != 0 {
		s.period, s.hasPeriod = c.u64(), true
	}
	if st&sampleRead != 0 {
		skipReadFormat(c, a.readFormat)
	}
	if st&sampleCallchain != 0 {
		n := c.count(c.u64(), 8)
		if n > maxCallchain {
			c.fail("callchain of %d entries", n)
		}
		for i := 0; i < n && c.err == nil; i++ {
			chain = append(chain, c.u64())
		}
		s.callchain, s.hasCallchain = chain, true
	}
	if st&sampleRaw != 0 {
		s.raw, s.hasRaw = c.take(uint64(c.u32())), true
	}
	if st&sampleBranchStack != 0 {
		n := c.u64()
		if a.branchSampleType&branchHWIndex != 0 {
			c.u64()
		}
		per := uint64(24)
		if a.branchSampleType&branchCounters != 0 {
			per += 8
		}
		k := c.count(n, int(per))
		c.take(uint64(k) * per)
		s.branchEntries = k
	}
	if st&sampleRegsUser != 0 {
		skipRegs(c, a.regsUser)
	}
	if st&sampleStackUser != 0 {
		if n := c.u64(); n != 0 {
			c.take(n)
			if dyn := c.u64(); c.err == nil && dyn > n {
				c.fail("stack dyn_size %d > size %d", dyn, n)
			}
		}
	}
	if st&(sampleWeight|sampleWeightStruct) != 0 {
		c.u64()
	}
	if st&sampleDataSrc != 0 {
		c.u64()
	}
	if st&sampleTransaction != 0 {
		c.u64()
	}
	if st&sampleRegsIntr != 0 {
		skipRegs(c, a.regsIntr)
	}
	if st&samplePhysAddr != 0 {
		c.u64()
	}
	if st&sampleCgroup != 0 {
		c.u64()
	}
	if st&sampleDataPageSize != 0 {
		c.u64()
	}
	if st&sampleCodePageSize != 0 {
		c.u64()
	}
	if st&sampleAux != 0 {
		c.take(c.u64())
	}
	return c.err
}

// skipReadFormat steps over read_format values: without GROUP a value and
// the optional times, id and lost; with GROUP nr, the times, then nr
// entries of a value and the optional id and lost.
func skipReadFormat(c *cursor, rf uint64) {
	if rf&readGroup == 0 {
		n := 1 + bits.OnesCount64(rf&(readTotalTimeEnabled|readTotalTimeRunning|readID|readLost))
		c.take(uint64(n) * 8)
		return
	}
	nr := c.u64()
	c.take(uint64(bits.OnesCount64(rf&(readTotalTimeEnabled|readTotalTimeRunning))) * 8)
	per := 1 + bits.OnesCount64(rf&(readID|readLost))
	k := c.count(nr, per*8)
	if k > maxReadGroup {
		c.fail("read group of %d events", k)
	}
	c.take(uint64(k*per) * 8)
}

// skipRegs steps over a register dump: u64 abi, then one u64 per bit of
// the mask unless abi is 0.
func skipRegs(c *cursor, mask uint64) {
	abi := c.u64()
	if c.err == nil && abi > 2 {
		c.fail("register ABI %d", abi)
	}
	if abi != 0 {
		c.take(uint64(bits.OnesCount64(mask)) * 8)
	}
}

// parseTrailer reads the sample_id trailer at the end of a non-sample
// record's body into s and returns the body without it.
func parseTrailer(a *attr, body []byte, c *cursor, s *sample) ([]byte, error) {
	chain := s.callchain[:0]
	*s = sample{attr: a, callchain: chain}
	n := trailerSize(a)
	if n == 0 {
		return body, nil
	}
	if n > len(body) {
		return nil, fmt.Errorf("%w: a record of %d bytes for a sample_id trailer of %d", ErrCorrupt, len(body)+8, n)
	}
	*c = cursor{b: body[len(body)-n:], order: c.order, what: "sample_id"}
	st := a.sampleType
	if st&sampleTID != 0 {
		s.pid, s.tid, s.hasTID = int32(c.u32()), int32(c.u32()), true
	}
	if st&sampleTime != 0 {
		s.time, s.hasTime = c.u64(), true
	}
	if st&sampleID != 0 {
		s.id = c.u64()
	}
	if st&sampleStreamID != 0 {
		c.u64()
	}
	if st&sampleCPU != 0 {
		s.cpu, s.hasCPU = c.u32(), true
		c.u32()
	}
	if st&sampleIdentifier != 0 {
		s.id = c.u64()
	}
	return body[:len(body)-n], c.err
}
