package perfdata

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
)

// Feature bits (HEADER_* in perf's header.h).
const (
	featTracingData = 1
	featBuildID     = 2
	featHostname    = 3
	featOSRelease   = 4
	featVersion     = 5
	featArch        = 6
	featNRCPUs      = 7
	featCPUDesc     = 8
	featCPUID       = 9
	featTotalMem    = 10
	featCmdline     = 11
	featEventDesc   = 12
	featSampleTime  = 21
	featClockID     = 23
	featDirFormat   = 24
	featCompressed  = 27
	featClockData   = 29
)

// BuildID is one entry of the build-ID feature: the build ID of a file
// that samples hit.
type BuildID struct {
	PID  int32  // -1 for the host, a guest machine's pid otherwise
	Mode uint16 // misc & 7: 1 kernel, 2 user...
	ID   []byte // the build ID's bytes
	Path string // "[kernel.kallsyms]", "/usr/lib/x86_64-linux-gnu/libc.so.6"...
}

// Hex returns the build ID in hex, as `perf buildid-list` prints it.
func (b BuildID) Hex() string { return hex.EncodeToString(b.ID) }

// Meta is what a perf.data file's feature sections say about the
// recording.
type Meta struct {
	Hostname        string
	OSRelease       string // the recording kernel's `uname -r`
	PerfVersion     string
	Arch            string // `uname -m`
	CPUsAvailable   int
	CPUsOnline      int
	CPUDesc         string
	CPUID           string
	Cmdline         []string // perf's argv
	ClockResolution uint64   // CLOCKID: ns per tick, 0 when absent
	ClockID         int32    // CLOCK_DATA's clock, -1 when absent
	WallClockNS     uint64   // CLOCK_DATA: wall time at ClockTimeNS
	ClockTimeNS     uint64
	FirstSample     uint64 // SAMPLE_TIME, 0 when absent
	LastSample      uint64
	Compressed      bool // COMPRESSED: the data holds zstd records
	BuildIDs        []BuildID
	CPUs            []int             // CPU_MAP: the CPUs recorded, nil when absent
	TimeConv        *TimeConv         // TIME_CONV, nil when absent
	names           map[uint64]string // EVENT_DESC: event name by ID
	tracing         []byte            // TRACING_DATA's blob
}

// parseFeature reads one feature section's body into m; an error makes
// only that feature unreadable.
func (m *Meta) parseFeature(bit int, b []byte, order binary.ByteOrder) error {
	c := &cursor{b: b, order: order, what: fmt.Sprintf("feature %d", bit)}
	switch bit {
	case featTracingData:
		m.tracing = b
	case featHostname:
		m.Hostname = c.headerString()
	case featOSRelease:
		m.OSRelease = c.headerString()
	case featVersion:
		m.PerfVersion = c.headerString()
	case featArch:
		m.Arch = c.headerString()
	case featCPUDesc:
		m.CPUDesc = c.headerString()
	case featCPUID:
		m.CPUID = c.headerString()
	case featNRCPUs:
		m.CPUsAvailable, m.CPUsOnline = int(c.u32()), int(c.u32())
	case featCmdline:
		n := c.count(uint64(c.u32()), 4)
		for i := 0; i < n && c.err == nil; i++ {
			m.Cmdline = append(m.Cmdline, c.headerString())
		}
	case featEventDesc:
		m.parseEventDesc(c)
	case featBuildID:
		m.parseBuildIDs(c)
	case featSampleTime:
		m.FirstSample, m.LastSample = c.u64(), c.u64()
	case featClockID:
		m.ClockResolution = c.u64()
	case featClockData:
		if v := c.u32(); c.err == nil && v != 1 {
			return fmt.Errorf("clock data version %d (1 is read)", v)
		}
		m.ClockID = int32(c.u32())
		m.WallClockNS, m.ClockTimeNS = c.u64(), c.u64()
	case featCompressed:
		c.u32() // version
		if t := c.u32(); c.err == nil && t != 1 {
			return fmt.Errorf("%w: compression type %d (1, zstd, is read)", ErrUnsupported, t)
		}
		m.Compressed = true
	case featDirFormat:
		return fmt.Errorf("%w: a perf.data directory (perf record --threads): make one file with `perf inject -i DIR -o FILE`", ErrUnsupported)
	}
	return c.err
}

// parseEventDesc reads EVENT_DESC: u32 nr, u32 attr_size, then per event
// an attr, u32 nr_ids, a perf_header_string name and the IDs.
func (m *Meta) parseEventDesc(c *cursor) {
	n := c.count(uint64(c.u32()), 8)
	size := c.u32()
	if c.err == nil && (size < minAttrSize || size > maxAttrSize) {
		c.fail("attr size %d", size)
	}
	if m.names == nil {
		m.names = map[uint64]string{}
	}
	for i := 0; i < n && c.err == nil; i++ {
		c.take(uint64(size))
		nids := c.count(uint64(c.u32()), 8)
		name := c.headerString()
		for j := 0; j < nids && c.err == nil; j++ {
			m.names[c.u64()] = name
		}
	}
}

// parseBuildIDs reads the build-ID records: a perf_event_header (type 0,
// misc, size), i32 pid, 20 bytes of build ID, u8 its size (when misc has
// bit 15), 3 reserved bytes, then the path to the record's end.
func (m *Meta) parseBuildIDs(c *cursor) {
	for c.left() > 0 && c.err == nil && len(m.BuildIDs) < maxIDs {
		start := c.off
		c.u32()
		misc := c.u16()
		size := int(c.u16())
		if c.err == nil && (size < 36 || size > c.left()+8) {
			c.fail("build-ID record of %d bytes", size)
			return
		}
		c.off = start + 8
		pid := int32(c.u32())
		id := c.take(20)
		n := int(c.u8())
		c.take(3)
		path := cstr(c.take(uint64(size - 36)))
		if misc&(1<<15) == 0 || n > 20 {
			n = len(strings.TrimRight(string(id), "\x00"))
		}
		if c.err == nil {
			m.BuildIDs = append(m.BuildIDs, BuildID{PID: pid, Mode: misc & 7, ID: id[:n:n], Path: path})
		}
	}
}

// TimeConv is a TIME_CONV record: how perf converts TSC values of AUX data
// to its time, time_zero + (cycles * mult) >> shift.
type TimeConv struct {
	Shift, Mult, Zero uint64
	Cycles, Mask      uint64 // when the record is long enough
	UserTimeZero      bool
	UserTimeShort     bool
}

// maxCPUs bounds a CPU_MAP.
const maxCPUs = 1 << 16

// parseCPUMap reads a CPU_MAP body (packed): u16 type; 0: u16 nr, nr u16
// CPUs; 1: a mask (u16 nr words, u16 long size 4 or 8, a u32 pad before
// 8-byte words, the words); 2: u8 any CPU, u8 pad, u16 start, u16 end.
func parseCPUMap(b []byte, order binary.ByteOrder) ([]int, error) {
	c := &cursor{b: b, order: order, what: "CPU_MAP"}
	var cpus []int
	switch typ := c.u16(); typ {
	case 0:
		n := c.count(uint64(c.u16()), 2)
		for i := 0; i < n && c.err == nil; i++ {
			cpus = append(cpus, int(c.u16()))
		}
	case 1:
		n := int(c.u16())
		long := int(c.u16())
		if long != 4 && long != 8 {
			c.fail("mask words of %d bytes", long)
			break
		}
		if long == 8 {
			c.take(4) // u32 pad (the record is packed: the words are unaligned)
		}
		n = c.count(uint64(n), long)
		for w := 0; w < n && c.err == nil; w++ {
			var v uint64
			if long == 8 {
				v = c.u64()
			} else {
				v = uint64(c.u32())
			}
			for bit := 0; bit < long*8; bit++ {
				if v&(1<<bit) != 0 && len(cpus) < maxCPUs {
					cpus = append(cpus, w*long*8+bit)
				}
			}
		}
	case 2:
		c.take(2)
		start, end := int(c.u16()), int(c.u16())
		if c.err == nil && (end < start || end-start >= maxCPUs) {
			c.fail("CPU range %d-%d", start, end)
		}
		for cpu := start; c.err == nil && cpu <= end; cpu++ {
			cpus = append(cpus, cpu)
		}
	default:
		c.fail("map type %d", typ)
	}
	return cpus, c.err
}

// parseTimeConv reads a TIME_CONV body: u64 shift, mult, zero, then when
// the record is long enough u64 cycles, mask and two u8 flags.
func parseTimeConv(b []byte, order binary.ByteOrder) (*TimeConv, error) {
	c := &cursor{b: b, order: order, what: "TIME_CONV"}
	tc := &TimeConv{Shift: c.u64(), Mult: c.u64(), Zero: c.u64()}
	if c.left() >= 18 {
		tc.Cycles, tc.Mask = c.u64(), c.u64()
		tc.UserTimeZero, tc.UserTimeShort = c.u8() != 0, c.u8() != 0
	}
	return tc, c.err
}
