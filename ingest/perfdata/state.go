package perfdata

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"sort"
)

// The index state: what the first pass learns, kept in the trace's index
// so that a reader opened Indexed (to serve the event table from the
// index's checkpoints) skips the pass. Encoding, integers little-endian:
//
//	"PDST" u32 version
//	u64 file size, u64 data start, u64 data end   (a state of another file is refused)
//	u64 start, end, records, events, lost, lost samples
//	u32 n, n × u32 attrs with samples
//	u32 n, n × u32 side-band record types seen
//	u32 n, n × {u32 type, u64 count} records skipped
//	u32 n, n × {i32 tid, u32 m, m × {u64 t, pos, str comm}} thread names
//	u32 n, n × {i32 pid, u32 f, f × {u64 t, pos, i32 parent} forks, u32 m, m × mapping} processes
//	u32 m, m × mapping                             the kernel's mappings
//	u32 n, n × u32 CPUs (CPU_MAP)
//	u32 CRC-32 of the above
//
// pos is {u64 offset, u32 inner}; str is {u32 length, bytes}; mapping is
// {u64 t, pos, u64 start, end, pgoff, str name, u8 jit}. A pipe-mode file
// is still read up to its first event for its attrs and features.

// StateVersion is the version of [Source.IndexState]'s encoding.
const StateVersion = 2

const stateMagic = "PDST"

// ErrState is wrapped by the errors of a state that does not decode.
var ErrState = errors.New("bad perf.data index state")

type stateWriter struct{ b []byte }

func (w *stateWriter) u8(v uint8)   { w.b = append(w.b, v) }
func (w *stateWriter) u32(v uint32) { w.b = binary.LittleEndian.AppendUint32(w.b, v) }
func (w *stateWriter) u64(v uint64) { w.b = binary.LittleEndian.AppendUint64(w.b, v) }
func (w *stateWriter) pos(p pos)    { w.u64(uint64(p.off)); w.u32(uint32(p.inner)) }
func (w *stateWriter) str(s string) { w.u32(uint32(len(s))); w.b = append(w.b, s...) }
func (w *stateWriter) mapping(m *mapping) {
	w.u64(m.t)
	w.pos(m.at)
	w.u64(m.start)
	w.u64(m.end)
	w.u64(m.pgoff)
	w.str(m.name)
	if m.jit {
		w.u8(1)
	} else {
		w.u8(0)
	}
}

// IndexState returns the state to keep in the index (see the encoding
// above).
func (s *Source) IndexState() []byte {
	f, sc := s.f, s.sc
	w := &stateWriter{b: []byte(stateMagic)}
	w.u32(StateVersion)
	for _, v := range []uint64{uint64(f.size), uint64(f.start), uint64(f.end), sc.start, sc.end, uint64(sc.records), uint64(sc.events), uint64(sc.lost), uint64(sc.lostSample)} {
		w.u64(v)
	}
	used := make([]int, 0, len(sc.used))
	for i := range sc.used {
		used = append(used, i)
	}
	sort.Ints(used)
	w.u32(uint32(len(used)))
	for _, i := range used {
		w.u32(uint32(i))
	}
	types := make([]int, 0, len(sc.sideband))
	for t := range sc.sideband {
		types = append(types, int(t))
	}
	sort.Ints(types)
	w.u32(uint32(len(types)))
	for _, t := range types {
		w.u32(uint32(t))
	}
	types = types[:0]
	for t := range sc.skipped {
		types = append(types, int(t))
	}
	sort.Ints(types)
	w.u32(uint32(len(types)))
	for _, t := range types {
		w.u32(uint32(t))
		w.u64(uint64(sc.skipped[uint32(t)]))
	}
	tids := make([]int, 0, len(f.comms))
	for tid := range f.comms {
		tids = append(tids, int(tid))
	}
	sort.Ints(tids)
	w.u32(uint32(len(tids)))
	for _, tid := range tids {
		cs := f.comms[int32(tid)]
		w.u32(uint32(int32(tid)))
		w.u32(uint32(len(cs)))
		for _, c := range cs {
			w.u64(c.t)
			w.pos(c.at)
			w.str(c.comm)
		}
	}
	pids := make([]int, 0, len(f.space.procs))
	for pid := range f.space.procs {
		pids = append(pids, int(pid))
	}
	sort.Ints(pids)
	w.u32(uint32(len(pids)))
	for _, pid := range pids {
		p := f.space.procs[int32(pid)]
		w.u32(uint32(int32(pid)))
		w.u32(uint32(len(p.forks)))
		for _, fk := range p.forks {
			w.u64(fk.t)
			w.pos(fk.at)
			w.u32(uint32(fk.parent))
		}
		w.u32(uint32(len(p.maps)))
		for i := range p.maps {
			w.mapping(&p.maps[i])
		}
	}
	w.u32(uint32(len(f.space.kernel)))
	for i := range f.space.kernel {
		w.mapping(&f.space.kernel[i])
	}
	w.u32(uint32(len(f.meta.CPUs)))
	for _, c := range f.meta.CPUs {
		w.u32(uint32(c))
	}
	return binary.LittleEndian.AppendUint32(w.b, crc32.ChecksumIEEE(w.b))
}

// stateReader reads a state with the cursor's bounds checks.
type stateReader struct{ c cursor }

func (r *stateReader) pos() pos {
	return pos{off: int64(r.c.u64()), inner: int32(r.c.u32())}
}

func (r *stateReader) str() string { return string(r.c.take(uint64(r.c.u32()))) }

func (r *stateReader) mapping() mapping {
	m := mapping{t: r.c.u64(), at: r.pos(), start: r.c.u64(), end: r.c.u64(), pgoff: r.c.u64()}
	m.name = r.str()
	m.jit = r.c.u8() == 1
	return m
}

// loadState fills f and a scan's results from a state; an error when it
// does not decode or is another file's.
func (f *file) loadState(b []byte) (*scanned, error) {
	if len(b) < len(stateMagic)+8 || string(b[:len(stateMagic)]) != stateMagic {
		return nil, fmt.Errorf("%w: no magic", ErrState)
	}
	body := b[:len(b)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, fmt.Errorf("%w: checksum", ErrState)
	}
	r := &stateReader{c: cursor{b: body, off: len(stateMagic), order: binary.LittleEndian, what: "index state"}}
	c := &r.c
	if v := c.u32(); v != StateVersion {
		return nil, fmt.Errorf("%w: version %d", ErrState, v)
	}
	if size, start, end := c.u64(), c.u64(), c.u64(); size != uint64(f.size) || start != uint64(f.start) || end != uint64(f.end) {
		return nil, fmt.Errorf("%w: another file's", ErrState)
	}
	sc := &scanned{used: map[int]bool{}, sideband: map[uint32]bool{}, skipped: map[uint32]int64{}}
	sc.start, sc.end = c.u64(), c.u64()
	sc.records, sc.events, sc.lost, sc.lostSample = int64(c.u64()), int64(c.u64()), int64(c.u64()), int64(c.u64())
	n := c.count(uint64(c.u32()), 4)
	for i := 0; i < n && c.err == nil; i++ {
		a := int(c.u32())
		if a >= len(f.attrs) {
			c.fail("attr %d of %d", a, len(f.attrs))
		}
		sc.used[a] = true
	}
	n = c.count(uint64(c.u32()), 4)
	for i := 0; i < n && c.err == nil; i++ {
		sc.sideband[c.u32()] = true
	}
	n = c.count(uint64(c.u32()), 12)
	for i := 0; i < n && c.err == nil; i++ {
		typ := c.u32()
		sc.skipped[typ] = int64(c.u64())
	}
	f.comms = map[int32][]commAt{}
	n = c.count(uint64(c.u32()), 8)
	for i := 0; i < n && c.err == nil; i++ {
		tid := int32(c.u32())
		m := c.count(uint64(c.u32()), 24)
		cs := make([]commAt, 0, m)
		for j := 0; j < m && c.err == nil; j++ {
			cs = append(cs, commAt{t: c.u64(), at: r.pos(), comm: r.str()})
		}
		f.comms[tid] = cs
	}
	f.space = addrSpace{procs: map[int32]*process{}}
	n = c.count(uint64(c.u32()), 12)
	for i := 0; i < n && c.err == nil; i++ {
		pid := int32(c.u32())
		p := &process{}
		nf := c.count(uint64(c.u32()), 24)
		for j := 0; j < nf && c.err == nil; j++ {
			p.forks = append(p.forks, forkAt{t: c.u64(), at: r.pos(), parent: int32(c.u32())})
		}
		m := c.count(uint64(c.u32()), 57)
		p.maps = make([]mapping, 0, m)
		for j := 0; j < m && c.err == nil; j++ {
			p.maps = append(p.maps, r.mapping())
		}
		f.space.procs[pid] = p
	}
	m := c.count(uint64(c.u32()), 57)
	for j := 0; j < m && c.err == nil; j++ {
		f.space.kernel = append(f.space.kernel, r.mapping())
	}
	n = c.count(uint64(c.u32()), 4)
	f.meta.CPUs = nil
	for i := 0; i < n && c.err == nil; i++ {
		f.meta.CPUs = append(f.meta.CPUs, int(c.u32()))
	}
	if c.err == nil && c.left() != 0 {
		c.fail("%d bytes after the state", c.left())
	}
	if c.err != nil {
		return nil, fmt.Errorf("%w: %v", ErrState, c.err)
	}
	return sc, nil
}
